// A timed block I/O job on one file through io_uring: the engine under the
// seq_read / rand_read / seq_write / rand_write probes.
//
// Keeps `queue_depth` I/Os in flight; each completion is timed from its own
// submission, so latency includes queueing in the device, as fio's clat does.
// The first `warmup_ns` are run but not counted: throughput counts completions
// inside the measured window, latency only I/Os also submitted inside it.
#pragma once

#include <cstdint>
#include <string>

#include "src/core/histogram.h"
#include "src/core/status.h"

namespace disktune {

struct UringJob {
  int fd = -1;
  bool write = false;
  bool random = false;
  uint64_t block_size = 4096;
  int queue_depth = 1;
  uint64_t region_bytes = 0;  // offsets in [0, region_bytes), block-aligned
  uint64_t warmup_ns = 0;
  uint64_t duration_ns = 0;
  uint64_t seed = 1;
  uint64_t alignment = 4096;  // buffer alignment for O_DIRECT
  // Byte caps (0 = none): the warm-up ends early after max_warmup_bytes, the
  // measured window after max_bytes. They bound what a write probe puts on a
  // fast device, where a time limit alone would write gigabytes.
  uint64_t max_warmup_bytes = 0;
  uint64_t max_bytes = 0;
};

struct UringJobResult {
  Histogram latency_ns;
  uint64_t ops = 0;
  uint64_t bytes = 0;
  uint64_t elapsed_ns =
      0;  // from end of warm-up to the last counted completion
  // Voluntary and involuntary, of the job's thread, warm-up included (as
  // fio's "ctx" counts them for its job).
  uint64_t context_switches = 0;
};

// IOError on a failed or short I/O (with the offset); Aborted on
// SIGINT/SIGTERM.
Result<UringJobResult> RunUringJob(const UringJob& job);

}  // namespace disktune
