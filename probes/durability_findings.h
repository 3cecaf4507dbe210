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
#include "src/model/analysis_durability.h"
#include "src/model/analysis_write_cache.h"

namespace disktune {

// Unset when the results hold no flushing sync point.
std::optional<DurabilityFindings> JudgeScopes(
    const std::vector<ProbeResult>& results);

// The views of the devices under the scratch directory (the cache as found),
// read now; unset when the results name none.
std::optional<WriteCacheViews> ReadScratchWriteCaches(
    const std::vector<ProbeResult>& results);

}  // namespace disktune
