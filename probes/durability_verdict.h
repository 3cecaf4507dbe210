// What the fsync probe's figures mean for durability: the evidence per
// device and scope the rules judge (src/model/durability_rules.h), the
// write-cache views, the cache A/B and filesystem tables, and the named check
// "etcd".
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/model/analyses.h"
#include "src/model/analysis_durability.h"
#include "src/model/durability_rules.h"
#include "src/model/named_figures.h"
#include "src/model/probe_result.h"

namespace disktune {

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
