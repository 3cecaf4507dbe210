// The rand_read probe's analysis: the saturation point, the smallest queue
// depth whose IOPS reach 95% of the best measured. Past it, more outstanding
// reads only add latency: the depth an engine's concurrent readers should aim
// for. Stored in a report's analyses under kKey; renderers read it through
// FindRandReadSaturation.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "probes/probe_result.h"

namespace disktune {

struct RandReadSaturation {
  static constexpr const char* kKey = "rand_read_saturation";
  std::string rule;
  int queue_depth = 0;
  double iops = 0;
  std::optional<LatencySummary> latency_ns;  // at queue_depth
  int best_queue_depth = 0;
  double best_iops = 0;
};

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
