#include "src/model/analysis_rand_read_saturation.h"

namespace disktune {

void to_json(nlohmann::json& j, const RandReadSaturation& s) {
  j = nlohmann::json::object();
  j["rule"] = s.rule;
  j["queue_depth"] = s.queue_depth;
  j["iops"] = s.iops;
  if (s.latency_ns) j["latency_ns"] = *s.latency_ns;
  j["best_queue_depth"] = s.best_queue_depth;
  j["best_iops"] = s.best_iops;
  if (s.knee_queue_depth) {
    j["knee_queue_depth"] = *s.knee_queue_depth;
    if (s.knee_iops) j["knee_iops"] = *s.knee_iops;
    if (s.knee_p99_ns) j["knee_p99_ns"] = *s.knee_p99_ns;
    j["knee_rule"] = s.knee_rule;
  }
}

void from_json(const nlohmann::json& j, RandReadSaturation& s) {
  s.rule = j.value("rule", "");
  s.queue_depth = j.value("queue_depth", 0);
  s.iops = j.value("iops", 0.0);
  s.latency_ns.reset();
  if (auto it = j.find("latency_ns"); it != j.end() && it->is_object())
    s.latency_ns = it->get<LatencySummary>();
  s.best_queue_depth = j.value("best_queue_depth", 0);
  s.best_iops = j.value("best_iops", 0.0);
  s.knee_queue_depth.reset();
  s.knee_iops.reset();
  s.knee_p99_ns.reset();
  if (auto it = j.find("knee_queue_depth"); it != j.end() && it->is_number()) {
    s.knee_queue_depth = it->get<int>();
    if (auto k = j.find("knee_iops"); k != j.end() && k->is_number())
      s.knee_iops = k->get<double>();
    if (auto k = j.find("knee_p99_ns"); k != j.end() && k->is_number())
      s.knee_p99_ns = k->get<uint64_t>();
    s.knee_rule = j.value("knee_rule", "");
  }
}

}  // namespace disktune
