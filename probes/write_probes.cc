// seq_write 1 MiB and rand_write 4 KiB, each at queue depth 1 and 32: the
// bandwidth a compaction can stream and the IOPS of small scattered writes.
// Writes overwrite the preallocated test file in place (no allocation cost).
#include "probes/block_io_probes.h"

namespace disktune {

std::vector<BlockPoint> SeqWritePoints(const ProbeConfig&) {
  return {{"seq_write", true, false, 1 << 20, 1},
          {"seq_write", true, false, 1 << 20, 32}};
}

std::vector<BlockPoint> RandWritePoints(const ProbeConfig&) {
  return {{"rand_write", true, true, 4096, 1},
          {"rand_write", true, true, 4096, 32}};
}

}  // namespace disktune
