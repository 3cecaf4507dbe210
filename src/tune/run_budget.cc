#include "src/tune/run_budget.h"

#include <algorithm>

#include "src/tune/budget.h"
#include "src/tune/tuner.h"

namespace disktune::tune {

uint64_t RunTuneTimeBudgetNs(bool quick) {
  return quick ? kRunQuickTuneBudgetNs : kDefaultTimeBudgetNs;
}

uint64_t QuickTuneWriteBudget(std::optional<uint64_t> disk_bytes,
                              uint64_t limit_bytes) {
  if (!disk_bytes) {
    return std::min(kRunQuickFallbackTuneWriteBytes, limit_bytes / 2);
  }
  uint64_t used = *disk_bytes + kRunQuickWriteReserveBytes;
  uint64_t left = used < limit_bytes ? limit_bytes - used : 0;
  return std::max(left, kMinWriteBudgetBytes);
}

}  // namespace disktune::tune
