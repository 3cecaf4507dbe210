// JSON form of bench::Prediction (src/model/bench_result.h).
#include "src/core/json_fields.h"
#include "src/model/bench_result.h"

namespace disktune::bench {

using nlohmann::json;

json PredictionToJson(const Prediction& p) {
  json ceilings = json::object();
  for (const auto& [name, ops] : p.ceilings_ops_per_sec) ceilings[name] = ops;
  json j = {{"ops_per_sec", p.ops_per_sec},
            {"bound", p.bound},
            {"ceilings_ops_per_sec", std::move(ceilings)},
            {"inputs", p.inputs}};
  if (p.measured_over_predicted) {
    j["measured_over_predicted"] = *p.measured_over_predicted;
  }
  if (!p.miss_cause.empty()) j["miss_cause"] = p.miss_cause;
  return j;
}

Prediction PredictionFromJson(const json& j) {
  Prediction p;
  GetIf(j, "ops_per_sec", &p.ops_per_sec);
  GetIf(j, "bound", &p.bound);
  if (j.contains("ceilings_ops_per_sec")) {
    for (const auto& [name, v] : j.at("ceilings_ops_per_sec").items()) {
      p.ceilings_ops_per_sec.emplace_back(name, v.get<double>());
    }
  }
  if (j.contains("inputs")) p.inputs = j.at("inputs");
  GetIf(j, "measured_over_predicted", &p.measured_over_predicted);
  GetIf(j, "miss_cause", &p.miss_cause);
  return p;
}

}  // namespace disktune::bench
