// seq_read: sequential direct reads at 4 KiB and 1 MiB, queue depth 1 — the
// comparison the UTXO study turned on (a single thread issuing 4 KiB reads is
// capped far below the bandwidth 1 MiB reads reach on the same SSD).
#include "probes/block_io_probes.h"

namespace disktune {

std::vector<BlockPoint> SeqReadPoints(const ProbeConfig&) {
  return {{"seq_read", false, false, 4096, 1},
          {"seq_read", false, false, 1 << 20, 1}};
}

}  // namespace disktune
