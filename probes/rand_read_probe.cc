// rand_read: 4 KiB random direct reads as the queue depth grows, and the
// saturation point (rand_read_saturation.h).
#include "probes/block_io_probes.h"
#include "probes/rand_read_saturation.h"

namespace disktune {

std::vector<BlockPoint> RandReadPoints(const ProbeConfig& config) {
  std::vector<BlockPoint> points;
  for (int qd : config.queue_depths)
    points.push_back({"rand_read", false, true, 4096, qd});
  return points;
}

void AnalyzeRandRead(const std::vector<ProbeResult>& results,
                     model::Analyses* analyses) {
  analyses->rand_read_saturation = FindSaturation(results);
}

}  // namespace disktune
