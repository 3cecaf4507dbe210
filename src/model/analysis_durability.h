// The analyses' "durability": the verdict per scope (did syncs reach the
// device? does a cache absorb them?) with the evidence it was drawn from and
// every rule tried. src/model/durability_rules.h holds the rules and judges.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace disktune {

// The facts one verdict is drawn from: the sync points of one scope.
struct DurabilityEvidence {
  std::string scope;  // "scratch directory", "ext4 on loop0 (...)", ...
  std::string disk;   // the physical disk
  std::optional<bool> rotational;
  std::string kernel_write_cache;  // during the measurement
  std::optional<bool> drive_cache_enabled;
  uint64_t syncs = 0;
  std::optional<uint64_t> flushes;  // absent when not counted
  std::optional<uint64_t> fastest_sync_p50_ns;
  std::string fastest_point;

  std::optional<double> flushes_per_sync() const;
};

struct DurabilityVerdict {
  std::string id;    // a DurabilityRules() id
  std::string rule;  // its text
};

// The evidence object holds neither scope nor disk: the verdict holds them.
void to_json(nlohmann::json& j, const DurabilityEvidence& e);
void from_json(const nlohmann::json& j, DurabilityEvidence& e);
void to_json(nlohmann::json& j, const DurabilityVerdict& v);  // {id, rule}
void from_json(const nlohmann::json& j, DurabilityVerdict& v);

struct ScopeVerdict {
  std::string scope;
  std::string disk;
  DurabilityVerdict verdict;  // {"verdict": id, "rule": text}
  // Unset only in a result whose evidence is missing or malformed.
  std::optional<DurabilityEvidence> evidence;

  // The verdicts that tell the syncs reach durable media.
  bool good() const;
};
void to_json(nlohmann::json& j, const ScopeVerdict& v);
void from_json(const nlohmann::json& j, ScopeVerdict& v);

struct DurabilityFindings {
  static constexpr const char* kKey = "durability";
  std::vector<DurabilityVerdict> rules;  // every rule, in the order tried
  std::vector<ScopeVerdict> verdicts;
};
void to_json(nlohmann::json& j, const DurabilityFindings& d);
void from_json(const nlohmann::json& j, DurabilityFindings& d);

}  // namespace disktune
