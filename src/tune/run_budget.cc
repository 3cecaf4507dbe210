#include "src/tune/run_budget.h"

#include <algorithm>

#include "src/tune/budget.h"
#include "src/tune/tuner.h"

namespace disktune::tune {

uint64_t RunTuneTimeBudgetNs(bool quick) {
  return quick ? kRunQuickTuneBudgetNs : kDefaultTimeBudgetNs;
}

uint64_t QuickTuneWriteBudget(std::optional<uint64_t> disk_bytes) {
  if (!disk_bytes) return kRunQuickFallbackTuneWriteBytes;
  uint64_t used = *disk_bytes + kRunQuickWriteReserveBytes;
  uint64_t left =
      used < kRunQuickWriteLimitBytes ? kRunQuickWriteLimitBytes - used : 0;
  return std::max(left, kMinWriteBudgetBytes);
}

}  // namespace disktune::tune
