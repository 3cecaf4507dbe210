// rand_read: 4 KiB random direct reads as the queue depth grows, and the
// saturation point: the smallest depth reaching 95% of the best IOPS. Past it,
// more outstanding reads only add latency — the depth an engine's concurrent
// readers should aim for.
#include <algorithm>

#include "probes/block_io_probes.h"

namespace disktune {

std::vector<BlockPoint> RandReadPoints(const ProbeConfig& config) {
  std::vector<BlockPoint> points;
  for (int qd : config.queue_depths)
    points.push_back({"rand_read", false, true, 4096, qd});
  return points;
}

void AnalyzeRandRead(const std::vector<ProbeResult>& results,
                     nlohmann::json* analyses) {
  const ProbeResult* best = nullptr;
  for (const auto& r : results) {
    if (r.probe != "rand_read" || r.status != ProbeStatus::kOk || !r.iops)
      continue;
    if (!best || *r.iops > *best->iops) best = &r;
  }
  if (!best) return;
  const double threshold = 0.95 * *best->iops;
  const ProbeResult* sat = nullptr;
  for (const auto& r : results) {
    if (r.probe != "rand_read" || r.status != ProbeStatus::kOk || !r.iops)
      continue;
    if (*r.iops >= threshold &&
        (!sat || *r.params.queue_depth < *sat->params.queue_depth)) {
      sat = &r;
    }
  }
  nlohmann::json j;
  j["rule"] =
      "smallest queue depth whose IOPS reach 95% of the best measured IOPS";
  j["queue_depth"] = *sat->params.queue_depth;
  j["iops"] = *sat->iops;
  if (sat->latency_ns) j["latency_ns"] = *sat->latency_ns;
  j["best_queue_depth"] = *best->params.queue_depth;
  j["best_iops"] = *best->iops;
  (*analyses)["rand_read_saturation"] = j;
}

}  // namespace disktune
