#include "reports/noise_floor.h"

#include <string>

namespace disktune {

// Measured 2026-11-22 on the project's build VM: 2 vCPUs (AMD EPYC,
// Firecracker), kernel 6.18.44, /dev/vda a 256 GiB virtio disk, ext4 on a
// `losetup --direct-io=on` loop device over a file on vda
// (benchmarks/compare_noise.sh), the machine otherwise idle (load average
// 1.7-4.4 with the probe itself running), 16:21-16:26 UTC: the unthrottled
// runs of two compare_noise.sh pairs (A1 B1, then the throttled C1, then A2
// B2), four identical `disktune probe --quick` runs of one binary, three
// consecutive comparisons (A1-B1, B1-A2, A2-B2), all with the native loop. Per comparison, the larger/smaller ratio of each figure,
// grouped by kind (benchmarks/noise_pairs.py):
//   kind               n    median  p90    p95    max (point)
//   block_rate         42   1.11    1.29   1.43   1.63 (seq_read.1m.qd1)
//   block_latency_p50  42   1.12    1.31   1.45   1.66 (seq_read.1m.qd1)
//   block_latency_p99  42   1.13    1.48   1.80   2.39 (rand_read.4k.qd64)
//   sync_rate          120  1.14    1.36   1.41   1.72
//   (fsync.fsync.16384.overwrite) sync_latency_p50
//   120  1.12    1.32   1.36   1.62 (fsync.fsync.16384.overwrite)
//   sync_latency_p99   120  1.24    2.18   2.54   6.04
//   (fsync.o_sync.2300.append)
// Each floor is the largest ratio seen plus 25% (a margin for so few
// comparisons). A disk slowed 2x moves the tails of the deep-queue points
// 5-11x, beyond these floors. On a busy machine the same runs moved 10-50x
// (a short fsync waits for a CPU: 14x at load 14 with the probe pinned to a
// CPU of its own), so compare names a busy machine (EnvironmentDifferences)
// and these floors hold for an idle one; `probe --repeat N` gives each figure
// its own spread, which compare prefers to these floors.
const std::vector<NoiseFloor>& NoiseFloors() {
  static const std::vector<NoiseFloor> kFloors = {
      {"block_rate", "IOPS or bandwidth of a block I/O point", 2.04},
      {"block_latency_p50", "p50 latency of a block I/O point", 2.08},
      {"block_latency_p99", "p99 latency of a block I/O point", 2.99},
      {"sync_rate", "durable writes per second of an fsync point", 2.15},
      {"sync_latency_p50", "p50 latency of an fsync point", 2.03},
      {"sync_latency_p99", "p99 latency of an fsync point", 7.55},
  };
  return kFloors;
}

std::optional<NoiseFloor> NoiseFloorFor(std::string_view row_kind,
                                        std::string_view item,
                                        std::string_view metric) {
  if (row_kind != "probe") return std::nullopt;
  std::string_view family = item.substr(0, 6) == "fsync." ? "sync" : "block";
  std::string kind(family);
  if (metric == "iops" || metric == "ops_per_sec" ||
      metric == "bytes_per_sec") {
    kind += "_rate";
  } else if (metric == "p50" || metric == "p99") {
    kind += "_latency_" + std::string(metric);
  } else {
    return std::nullopt;
  }
  for (const NoiseFloor& f : NoiseFloors()) {
    if (f.kind == kind) return f;
  }
  return std::nullopt;
}

}  // namespace disktune
