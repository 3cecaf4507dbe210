// UTXO pulse settings for the bench tests that run utxo-pulse.
#pragma once

#include <cstdint>

#include "src/bench/params.h"

namespace disktune::bench::testing {

// `pulses` pulses of `reads` reads, `inserts` inserts and `deletes` deletes
// each, with the page cache emptied by fadvise: a unit test never drops the
// whole machine's cache (drop_caches).
inline void SetPulses(Overrides* o, int64_t reads, int64_t inserts,
                      int64_t deletes, int64_t pulses) {
  o->pulse_reads = reads;
  o->pulse_inserts = inserts;
  o->pulse_deletes = deletes;
  o->pulses = pulses;
  o->page_cache = PageCachePolicy::kFadvise;
}

}  // namespace disktune::bench::testing
