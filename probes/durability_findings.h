// The durability analyses of the fsync probe as stored in a report: the
// verdict per scope with the evidence it was drawn from and the rules tried
// (analyses "durability"), and the write-cache view of each device under the
// scratch directory (analyses "write_cache").
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "probes/durability_verdict.h"
#include "probes/write_cache.h"

namespace disktune {

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
// Unset when the results hold no flushing sync point.
std::optional<DurabilityFindings> JudgeScopes(
    const std::vector<ProbeResult>& results);
std::optional<DurabilityFindings> DurabilityFindingsOf(
    const nlohmann::json& analyses);

struct WriteCacheViews {
  static constexpr const char* kKey = "write_cache";
  std::vector<WriteCacheView> devices;
};
void to_json(nlohmann::json& j, const WriteCacheViews& w);
void from_json(const nlohmann::json& j, WriteCacheViews& w);
// The views of the devices under the scratch directory (the cache as found),
// read now; unset when the results name none.
std::optional<WriteCacheViews> ReadScratchWriteCaches(
    const std::vector<ProbeResult>& results);
std::optional<WriteCacheViews> WriteCacheViewsOf(
    const nlohmann::json& analyses);

}  // namespace disktune
