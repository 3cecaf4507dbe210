// One figure of a report, addressed by a dotted path: what `disktune check`
// expressions name, with the figure's dimension so a threshold's unit can be
// checked against it (a latency needs a time unit, a bandwidth bytes per
// second).
//
// Path forms, tried in this order:
//   bench.<engine>.<scenario>[#N].<metric>
//       bench.leveldb.fillrandom.ops_per_sec. A scenario run more than once on
//       an engine (db_bench runs readrandom twice in some sets) is #1 by
//       default; #2 names its second run, in run order.
//   analyses.<key>[.<key>|.<index>]...
//       any number or boolean under the report's analyses:
//       analyses.checks.etcd.value_ns, analyses.rand_read_saturation.iops.
//   <probe name>.<metric>
//       rand_read.4k.qd32.iops, fsync.fdatasync.2300.append.p99.
//   etcd.<metric>, wal.<metric>
//       a named figure's point (src/model/named_figures.h):
//       etcd.sync_latency_ns.p99 is etcd's gate figure, the fdatasync call
//       alone on the preallocated 2300 B point; etcd.p99 is the same point's
//       write+sync.
//   <probe name prefix>.<metric>
//       when no probe is named exactly, the one probe whose name starts with
//       the prefix followed by a '.'; a prefix that matches more than one
//       (fsync.fdatasync.p99) is an error listing the candidates. The
//       resolved name is returned so callers print it.
//
// Metrics: iops, ops_per_sec, bytes_per_sec, samples, bytes, elapsed_ns and the
// latency percentiles p50, p90, p99, p999, min, max, mean, stddev; for benches
// also every key of the bench metrics (micros_per_op, write_amplification,
// db_size_bytes, ...); and any numeric key under a probe's "metrics"
// (flushes_per_sync). A probe without iops answers `iops` with its
// ops_per_sec (the fsync probes count syncs, not I/Os), and the reverse.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/core/status.h"
#include "src/model/report.h"

namespace disktune {

// Every figure is held in one canonical unit per dimension.
enum class Dimension {
  kCount,     // a plain number (samples, ratios, queue depth)
  kRate,      // operations per second
  kTime,      // nanoseconds
  kBytes,     // bytes
  kByteRate,  // bytes per second
};
// "a count", "a rate (ops/s)", "a time", "a size", "a bandwidth (bytes/s)".
const char* DimensionName(Dimension d);
// The dimension a figure's name implies: p99 and *_ns are times, *_bytes sizes,
// bytes_per_sec a bandwidth, iops and *_per_sec rates, the rest counts.
Dimension DimensionOfMetric(std::string_view metric);
// "279.6 us", "4,643 ops/s", "65.7 MB/s", "2.0 KiB", "1.398".
std::string FormatQuantity(double value, Dimension d);
// FormatQuantity, but "64,168 IOPS" for an iops figure.
std::string FormatFigure(double value, Dimension d, std::string_view metric);

struct Figure {
  double value = 0;  // in the canonical unit of `dimension`
  Dimension dimension = Dimension::kCount;
  bool is_bool = false;  // value is 0 or 1
  std::string resolved;  // the probe / bench / analyses entry the path matched
  std::string metric;    // the figure's name within it
  // For a percentile: the samples it rests on, and how many it needs
  // (MinSamplesForQuantile); a verdict on fewer is INSUFFICIENT.
  std::optional<uint64_t> samples;
  uint64_t samples_needed = 0;
  bool insufficient() const { return samples && *samples < samples_needed; }
};

// NotFound when the report holds no such result or the figure was not
// measured (skipped, failed, absent): a requirement on it is not met.
// InvalidArgument when the path cannot name a figure at all (an unknown
// metric, a string value): the expression is wrong, whatever the report.
// `*metric_offset` (if given) is set to the offset of the metric in `path`,
// so a caller can point at it.
Result<Figure> LookupFigure(const Report& report, std::string_view path,
                            size_t* metric_offset = nullptr);

// The names LookupFigure knows for probes and benches, for error messages.
const std::vector<std::string>& KnownProbeMetrics();
const std::vector<std::string>& KnownBenchMetrics();

}  // namespace disktune
