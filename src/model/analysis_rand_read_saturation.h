// The analyses' "rand_read_saturation": the rand_read probe's saturation
// point and the knee of its IOPS curve (derived by
// probes/rand_read_saturation.h, which states the rules).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "src/core/histogram.h"

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

void to_json(nlohmann::json& j, const RandReadSaturation& s);
void from_json(const nlohmann::json& j, RandReadSaturation& s);

}  // namespace disktune
