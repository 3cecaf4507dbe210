// One measured point of the block I/O probes (seq/rand x read/write): runs the
// native io_uring job, then, with --with-fio, the equivalent fio job.
#pragma once

#include <cstdint>
#include <string>

#include "probes/probe.h"

namespace disktune {

struct BlockPoint {
  const char* probe;  // "seq_read"
  bool write = false;
  bool random = false;
  uint64_t block_size = 4096;
  int queue_depth = 1;
};

// "seq_read.4k.qd1", "seq_write.1m.qd32".
std::string BlockPointName(const BlockPoint& p);

// Never fails as a whole: a point that cannot run comes back skipped/failed.
// Returns Aborted when interrupted (and `*out` holds nothing useful).
Status RunBlockPoint(ProbeContext& ctx, const BlockPoint& point,
                     ProbeResult* out);

// Per-point time under a config: warm-up + duration (+ the same again for fio).
uint64_t BlockPointNanos(const ProbeConfig& config);

}  // namespace disktune
