#include "reports/noise_floor.h"

#include <string>

namespace disktune {

// Measured 2026-11-22 on the project's build VM: 2 vCPUs (AMD EPYC,
// Firecracker), kernel 6.18.44, /dev/vda a 256 GiB virtio disk, ext4 on a
// `losetup --direct-io=on` loop device over a file on vda
// (benchmarks/compare_noise.sh), the machine otherwise idle, fio measuring
// the block points (as `probe` does by default where fio is installed):
//   - 20:30-20:53 UTC, load average 1.3-2.1 with the probe itself running:
//     the twenty unthrottled runs of ten compare_noise.sh pairs (A1 B1, the
//     throttled C1, A2 B2, ...), nineteen consecutive comparisons;
//   - 16:21-16:26 UTC, idle, the native loop measuring the block points:
//     four runs of two pairs, three comparisons.
// Per comparison, the larger/smaller ratio of each figure, grouped by kind
// (benchmarks/noise_pairs.py); n, median and p95 of the first set, the
// largest ratio of either (* where the earlier set's was larger):
//   kind                     n    median  p95    max (point)
//   block_read_rate          190  1.11    1.61   2.21 (seq_read.1m.qd1)
//   block_read_latency_p50   190  1.11    1.57   2.31 (seq_read.1m.qd1)
//   block_read_latency_p99   190  1.19    2.47   3.92 (seq_read.1m.qd1)
//   block_write_rate         76   1.15    1.48   2.23 (seq_write.1m.qd1)
//   block_write_latency_p50  76   1.16    1.43   1.62* (seq_write.1m.qd32)
//   block_write_latency_p99  76   1.16    2.47   6.51 (seq_write.1m.qd1)
//   sync_rate                760  1.13    1.48   1.91
//   (fsync.fsync.2300.overwrite) sync_latency_p50 760  1.12    1.43   1.97
//   (fsync.fsync.4096.append) sync_latency_p99         760  1.19    2.19   6.48
//   (fsync.pg.one_8k_write)
// Reads and writes are apart because a write's tail on this virtio disk
// moves 6.5x between identical runs where a read's moves 3.9x. Each floor is
// the largest ratio seen plus 25%. A disk slowed 2x (compare_noise.sh's
// throttle) moved the p99 of 4 KiB reads at queue depth 64 and 128 6.5-15x
// in every one of those ten pairs, beyond these floors. On a busy machine the
// same runs moved 10-50x (a short fsync waits for a CPU: 14x at load 14 with
// the probe pinned to a CPU of its own), so compare names a busy machine
// (EnvironmentDifferences) and these floors hold for an idle one; `probe
// --repeat N` gives each figure its own spread, which compare prefers to
// these floors.
const std::vector<NoiseFloor>& NoiseFloors() {
  static const std::vector<NoiseFloor> kFloors = {
      {"block_read_rate", "IOPS or bandwidth of a block read point", 2.76},
      {"block_read_latency_p50", "p50 latency of a block read point", 2.89},
      {"block_read_latency_p99", "p99 latency of a block read point", 4.90},
      {"block_write_rate", "IOPS or bandwidth of a block write point", 2.79},
      {"block_write_latency_p50", "p50 latency of a block write point", 2.03},
      {"block_write_latency_p99", "p99 latency of a block write point", 8.14},
      {"sync_rate", "durable writes per second of an fsync point", 2.39},
      {"sync_latency_p50", "p50 latency of an fsync point", 2.46},
      {"sync_latency_p99", "p99 latency of an fsync point", 8.10},
  };
  return kFloors;
}

namespace {

// "sync" for an fsync point, "block_read" or "block_write" for a block I/O
// point by its probe (seq_read, rand_write, ...).
std::string FamilyOf(std::string_view item) {
  if (item.substr(0, 6) == "fsync.") return "sync";
  std::string_view probe = item.substr(0, item.find('.'));
  return probe.find("write") != std::string_view::npos ? "block_write"
                                                       : "block_read";
}

}  // namespace

std::optional<NoiseFloor> NoiseFloorFor(std::string_view row_kind,
                                        std::string_view item,
                                        std::string_view metric) {
  if (row_kind != "probe") return std::nullopt;
  std::string kind = FamilyOf(item);
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
