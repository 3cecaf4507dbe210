// What the fsync probe's figures mean for durability: a rule-based verdict
// per device and scope (did syncs reach the device? does a cache absorb
// them?), the write-cache views, the cache A/B and filesystem tables, and the
// named check "etcd". Every rule is data (DurabilityRules()) and is copied
// into the report next to the verdict it produced.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/model/analyses.h"
#include "src/model/analysis_durability.h"
#include "src/model/probe_result.h"

namespace disktune {

struct DurabilityRule {
  const char* id;
  const char* rule;  // the condition and what it means, in words
};
// In the order they are tried; the first that holds is the verdict.
const std::vector<DurabilityRule>& DurabilityRules();

DurabilityVerdict JudgeDurability(const DurabilityEvidence& e);

// The evidence per scope from the fsync probe's ok results whose method
// always asks for a flush (not O_DIRECT|O_DSYNC, which may use FUA, and not
// the unsynced floor).
std::vector<DurabilityEvidence> CollectDurabilityEvidence(
    const std::vector<ProbeResult>& results);

inline constexpr uint64_t kEtcdWriteBytes = 2300;
inline constexpr uint64_t kEtcdThresholdNs = 10000000;
// Whether `r` is the point etcd's gate reads: fdatasync after one 2300 B
// write into a preallocated file (etcd's WAL layout) on the scratch directory,
// the write cache as found (by its params, whatever its name).
bool IsEtcdPoint(const ProbeResult& r);
// etcd's disk gate on that point, or nullopt when it was not measured.
std::optional<NamedCheck> JudgeEtcd(const std::vector<ProbeResult>& results);

// Fills analyses "durability", "write_cache" (read now, from the devices the
// results name), "write_cache_ab", "fs_matrix" and checks.etcd.
void AnalyzeDurability(const std::vector<ProbeResult>& results,
                       model::Analyses* analyses);

}  // namespace disktune
