// The probe points the model reads, taken from a probe result: which point
// stands for which figure is decided here and nowhere else.
#pragma once

#include <string>
#include <vector>

#include "src/core/status.h"
#include "src/model/probe_result.h"
#include "src/predict/model.h"

namespace disktune::predict {

// sync_ns: the smallest-write "fdatasync ... append" point of the fsync
// family on the scratch filesystem (no --fs-matrix filesystem, write cache as
// found), the WAL's pattern: a small record appended to a growing file.
// read_ns: rand_read.4k.qd1; read_iops: the best rand_read point.
// seq_read_Bps: seq_read.1m.qd1; seq_write_Bps: the best 1 MiB seq_write.
// Means, not medians: throughput is the inverse of the mean time per op.
// InvalidArgument naming the missing points (and the probe command that
// measures them) when one is absent or not ok; `missing` (may be null) then
// gets the names of the absent points alone ("seq_write.1m").
Result<DiskFigures> DiskFiguresFromProbes(
    const std::vector<ProbeResult>& probes,
    std::vector<std::string>* missing = nullptr);

// The `disktune probe` arguments that measure exactly these points in a few
// seconds (bench runs them when it has no probe result).
std::vector<std::string> ModelProbeArgs();
// "disktune probe " + ModelProbeArgs(), as a user types it.
std::string ModelProbeCommand();

}  // namespace disktune::predict
