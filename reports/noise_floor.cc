#include "reports/noise_floor.h"

#include <string>

namespace disktune {

// Measured 2026-11-22 on the project's build VM: 2 vCPUs (AMD EPYC,
// Firecracker), kernel 6.18.44, /dev/vda a 256 GiB virtio disk (reported
// rotational), ext4, shared with three other build/test sessions (load
// average 6.9-10.5 throughout). Same binary each time, back to back:
//  set 1, 14:30-14:34 UTC, 6 runs (5 consecutive pairs), directly on vda:
//    disktune probe --quick --dir /tmp/noise15 --json runN.json
//  set 2, 14:35-14:53 UTC, 10 A/B pairs of benchmarks/compare_noise.sh: ext4
//    on a `losetup --direct-io=on` loop device over a file on vda
// Per pair, the larger/smaller ratio of each figure, grouped by kind
// (benchmarks/noise_pairs.py):
//   kind               set  n    median  p90    p95    max (point)
//   block_rate          1   70   1.44    2.67   2.92   5.01 (rand_write.4k.qd1)
//                       2   140  1.78    4.78   5.95   17.12 (seq_read.4k.qd1)
//   block_latency_p50   1   70   1.14    1.60   1.95   2.95 (rand_write.4k.qd1)
//                       2   140  1.22    2.86   11.37  59.25 (seq_read.4k.qd1)
//   block_latency_p99   1   70   1.64    7.43   13.92  45.89 (seq_read.4k.qd1)
//                       2   140  1.48    2.42   3.30   9.29 (seq_write.1m.qd1)
//   sync_rate           1   200  2.69    18.78  34.88  66.01
//                       2   400  3.39    26.71  39.88  80.35
//   sync_latency_p50    1   200  2.06    57.39  86.26  115.01
//                       2   400  3.97    77.31  110.53 347.80
//   sync_latency_p99    1   200  2.34    7.56   13.24  278.22
//                       2   400  2.02    9.21   11.86  120.68
// Each floor is the largest ratio seen in either set plus 10%: a gate must
// not fail two identical runs, and on this machine identical runs differ that
// much (floors from set 1 alone failed 8 of set 2's 10 identical pairs). Such
// floors hide a 2x slowdown of any single figure; `probe --repeat N` gives
// each figure its own spread, which compare prefers to these floors.
const std::vector<NoiseFloor>& NoiseFloors() {
  static const std::vector<NoiseFloor> kFloors = {
      {"block_rate", "IOPS or bandwidth of a block I/O point", 18.9},
      {"block_latency_p50", "p50 latency of a block I/O point", 65.0},
      {"block_latency_p99", "p99 latency of a block I/O point", 50.5},
      {"sync_rate", "durable writes per second of an fsync point", 88.4},
      {"sync_latency_p50", "p50 latency of an fsync point", 383.0},
      {"sync_latency_p99", "p99 latency of an fsync point", 306.0},
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
