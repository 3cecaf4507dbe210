// A named check: one figure against a limit, with its verdict ("pass",
// "fail", or "insufficient" when too few samples back the figure). Stored in
// a report's analyses under "checks", by name ("etcd").
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "src/model/analysis_checks.h"

namespace disktune {

// The checks a report's analyses hold, by name (empty when none); an entry
// that is not an object reads as a failed check with no figures.
NamedChecks ChecksOf(const nlohmann::json& analyses);
// Adds (or replaces) one check under analyses.checks.
void PutCheck(const std::string& name, const NamedCheck& c,
              nlohmann::json* analyses);

}  // namespace disktune
