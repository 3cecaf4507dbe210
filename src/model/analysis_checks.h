// The analyses' "checks": named checks, by name ("etcd"), each one figure
// against a limit with its verdict ("pass", "fail", or "insufficient" when
// too few samples back the figure). probes/durability_verdict.h judges etcd's.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace disktune {

struct NamedCheck {
  std::string rule;
  std::string measurement;  // the point and figure judged
  std::optional<uint64_t> value_ns;
  std::optional<uint64_t> threshold_ns;
  std::optional<uint64_t> samples;
  std::optional<uint64_t> samples_needed;
  // "pass", "fail" or "insufficient"; empty in results written before
  // verdicts had sample counts (then `pass` alone says).
  std::string verdict;
  bool pass = false;
};

void to_json(nlohmann::json& j, const NamedCheck& c);
void from_json(const nlohmann::json& j, NamedCheck& c);

// The analyses key the checks are stored under, by name.
inline constexpr const char* kChecksKey = "checks";
using NamedChecks = std::map<std::string, NamedCheck>;

}  // namespace disktune
