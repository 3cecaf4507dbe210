// The rand_read probe's analysis: the saturation point, the smallest queue
// depth whose IOPS reach 95% of the best measured, and the knee of the curve,
// the depth past which one more step of queue depth gains less than 10% IOPS
// or doubles the p99 (kKneeMinGain, kKneeP99Factor). Past the knee, more
// outstanding reads mostly add latency: the depth an engine's concurrent
// readers should aim for. Stored in a report's analyses under kKey; renderers
// read it from the report's analyses.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/model/analysis_rand_read_saturation.h"
#include "src/model/probe_result.h"

namespace disktune {

// The knee's rule: the next depth gains less than this fraction of IOPS...
inline constexpr double kKneeMinGain = 0.10;
// ...or its p99 is at least this many times the current one.
inline constexpr double kKneeP99Factor = 2.0;

// From the rand_read results; nullopt when none has IOPS.
std::optional<RandReadSaturation> FindSaturation(
    const std::vector<ProbeResult>& results);

}  // namespace disktune
