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
#include "src/model/named_figures.h"
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

// etcd's disk gate on its named figure's point (IsEtcdPoint,
// src/model/named_figures.h), or nullopt when it was not measured.
std::optional<NamedCheck> JudgeEtcd(const std::vector<ProbeResult>& results);

// Fills analyses "durability", "write_cache" (read now, from the devices the
// results name), "write_cache_ab", "fs_matrix" and checks.etcd.
void AnalyzeDurability(const std::vector<ProbeResult>& results,
                       model::Analyses* analyses);

}  // namespace disktune
