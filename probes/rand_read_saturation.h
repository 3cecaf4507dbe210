// The rand_read probe's analysis: the saturation point, the smallest queue
// depth whose IOPS reach 95% of the best measured, and the knee of the curve,
// the depth past which one more step of queue depth gains less than 10% IOPS
// or doubles the p99 (kKneeMinGain, kKneeP99Factor). Past the knee, more
// outstanding reads mostly add latency: the depth an engine's concurrent
// readers should aim for. Stored in a report's analyses under kKey; renderers
// read it through FindRandReadSaturation.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/model/probe_result.h"

namespace disktune {

struct RandReadSaturation {
  static constexpr const char* kKey = "rand_read_saturation";
  std::string rule;
  int queue_depth = 0;
  double iops = 0;
  std::optional<LatencySummary> latency_ns;  // at queue_depth
  int best_queue_depth = 0;
  double best_iops = 0;
  // The knee; unset in results written before it was defined.
  std::optional<int> knee_queue_depth;
  std::optional<double> knee_iops;
  std::optional<uint64_t> knee_p99_ns;
  std::string knee_rule;
};

// The knee's rule: the next depth gains less than this fraction of IOPS...
inline constexpr double kKneeMinGain = 0.10;
// ...or its p99 is at least this many times the current one.
inline constexpr double kKneeP99Factor = 2.0;

void to_json(nlohmann::json& j, const RandReadSaturation& s);
void from_json(const nlohmann::json& j, RandReadSaturation& s);

// From the rand_read results; nullopt when none has IOPS.
std::optional<RandReadSaturation> FindSaturation(
    const std::vector<ProbeResult>& results);
// The analysis in a report's `analyses`; nullopt when absent or not of this
// shape.
std::optional<RandReadSaturation> FindRandReadSaturation(
    const nlohmann::json& analyses);

}  // namespace disktune
