// The probe points the model reads, taken from a probe result: which point
// stands for which figure is decided here and nowhere else.
#pragma once

#include <string>
#include <vector>

#include "src/core/status.h"
#include "src/model/environment.h"
#include "src/model/probe_result.h"
#include "src/model/throttle_spec.h"
#include "src/predict/model.h"

namespace disktune::predict {

// sync_ns: the smallest-write "fdatasync ... append" point of the fsync
// family on the scratch filesystem (no --fs-matrix filesystem, write cache as
// found), the WAL's pattern: a small record appended to a growing file.
// read_ns: rand_read.4k.qd1; read_iops: the best rand_read point.
// seq_read_Bps: seq_read.1m.qd1; seq_write_Bps: the best 1 MiB seq_write.
// table_sync_ns (optional): the 2 MiB "fdatasync ... append" point.
// Means, not medians: throughput is the inverse of the mean time per op.
// InvalidArgument naming the missing points (and the probe command that
// measures them) when one is absent or not ok; `missing` (may be null) then
// gets the names of the absent points alone ("seq_write.1m").
Result<DiskFigures> DiskFiguresFromProbes(
    const std::vector<ProbeResult>& probes,
    std::vector<std::string>* missing = nullptr);

// Holds the figures to what a device class's limits let a run sustain. The
// cgroup throttle enforces its rates over time slices, so a probe point of
// half a second can pass a burst above them (benchmarks/README.md, "Class
// limits in the model's inputs"); an engine run of minutes cannot. Caps:
// seq_write_Bps at the write bandwidth and at write IOPS x 1 MiB (the
// probe's request, sent whole); seq_read_Bps likewise for reads; read_iops
// at the read IOPS; read_ns at no less than one read IOPS interval. Each
// figure it lowers is listed in `d->capped` with what was measured.
void CapToThrottle(const ThrottleLimits& limits, DiskFigures* d);

// DiskFiguresFromProbes, the device's readahead window from `env`, then,
// when `env` records that the probes ran under --throttle, CapToThrottle and
// the class's IOPS limits with its loop device's request geometry (what each
// request costs: model.h, S).
Result<DiskFigures> DiskFiguresFromRun(
    const std::vector<ProbeResult>& probes, const Environment& env,
    std::vector<std::string>* missing = nullptr);

// LevelDB's table file: the append + fdatasync its compaction does per
// table (model.h, sync_file_ns). The small-write sync is the smallest
// fdatasync append the run measured.
inline constexpr uint64_t kTableSyncBytes = 2u << 20;

// How long the sync points run (`--fsync-duration`; at least 1,000 syncs
// within 4x it): one sync in a hundred can take many times the median, and
// the mean the model reads needs tens of those counted (benchmarks/README.md,
// Prediction design records: Syncs on the cloud class).
inline constexpr uint64_t kSyncPointNs = 2'000'000'000;

// The `disktune probe` arguments that measure exactly these points in a few
// seconds (bench runs them when it has no probe result).
std::vector<std::string> ModelProbeArgs();
// "disktune probe " + ModelProbeArgs(), as a user types it.
std::string ModelProbeCommand();

}  // namespace disktune::predict
