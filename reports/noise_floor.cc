#include "reports/noise_floor.h"

#include <string>

namespace disktune {

// One floor per kind of figure: the larger/smaller ratio of the figure
// between consecutive identical runs on an idle machine, the largest seen
// over a series of such runs (benchmarks/compare_noise.sh, grouped by
// benchmarks/noise_pairs.py) plus 25%. Block reads and writes are apart
// because a write's tail moves much further between identical runs than a
// read's. A slowed disk moves the tail latency of deep-queue reads beyond
// these floors. On a busy machine identical runs move far more (a short
// fsync waits for a CPU), so compare names a busy machine
// (EnvironmentDifferences) and these floors hold for an idle one; `probe
// --repeat N` gives each figure its own spread, which compare prefers to
// these floors. The runs, the ratios per kind and the machine are in
// benchmarks/README.md, "compare: noise before regressions".
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
