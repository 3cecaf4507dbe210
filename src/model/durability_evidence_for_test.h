// Crafted durability evidence for the tests of the rules and of their
// rendering: a sync point's figures on the scratch directory of disk sda.
#pragma once

#include <cstdint>
#include <optional>

#include "src/model/analysis_durability.h"

namespace disktune::testing {

// Unset `rotational` and "" `kernel_view` say the device did not tell.
inline DurabilityEvidence Evidence(std::optional<bool> rotational,
                                   const char* kernel_view, uint64_t syncs,
                                   std::optional<uint64_t> flushes,
                                   uint64_t p50_ns) {
  DurabilityEvidence e;
  e.scope = "scratch directory";
  e.disk = "sda";
  e.rotational = rotational;
  e.kernel_write_cache = kernel_view;
  e.syncs = syncs;
  e.flushes = flushes;
  e.fastest_sync_p50_ns = p50_ns;
  e.fastest_point = "fsync.fdatasync.4096.overwrite";
  return e;
}

}  // namespace disktune::testing
