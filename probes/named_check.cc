#include "probes/named_check.h"

#include "src/core/json_fields.h"

namespace disktune {

using namespace json_fields;  // NOLINT(google-build-using-namespace)

NamedChecks ChecksOf(const nlohmann::json& analyses) {
  NamedChecks out;
  if (!analyses.is_object()) return out;
  auto it = analyses.find(kChecksKey);
  if (it == analyses.end() || !it->is_object()) return out;
  for (auto c = it->begin(); c != it->end(); ++c) {
    // One that is not an object reads as a failed check with no figures.
    out[c.key()] = c->is_object() ? c->get<NamedCheck>() : NamedCheck{};
  }
  return out;
}

void PutCheck(const std::string& name, const NamedCheck& c,
              nlohmann::json* analyses) {
  nlohmann::json& checks = (*analyses)[kChecksKey];
  if (!checks.is_object()) checks = nlohmann::json::object();
  checks[name] = c;
}

}  // namespace disktune
