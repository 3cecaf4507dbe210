#include "src/model/analysis_checks.h"

#include "src/core/json_fields.h"

namespace disktune {

using namespace json_fields;  // NOLINT(google-build-using-namespace)

void to_json(nlohmann::json& j, const NamedCheck& c) {
  j = nlohmann::json::object();
  j["rule"] = c.rule;
  j["measurement"] = c.measurement;
  PutOpt(j, "value_ns", c.value_ns);
  PutOpt(j, "threshold_ns", c.threshold_ns);
  PutOpt(j, "samples", c.samples);
  PutOpt(j, "samples_needed", c.samples_needed);
  if (!c.verdict.empty()) j["verdict"] = c.verdict;
  j["pass"] = c.pass;
}

void from_json(const nlohmann::json& j, NamedCheck& c) {
  c.rule = Str(j, "rule");
  c.measurement = Str(j, "measurement");
  c.value_ns = Opt<uint64_t>(j, "value_ns");
  c.threshold_ns = Opt<uint64_t>(j, "threshold_ns");
  c.samples = Opt<uint64_t>(j, "samples");
  c.samples_needed = Opt<uint64_t>(j, "samples_needed");
  c.verdict = Str(j, "verdict");
  c.pass = Opt<bool>(j, "pass").value_or(false);
}

}  // namespace disktune
