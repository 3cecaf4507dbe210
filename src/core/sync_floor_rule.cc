#include "src/core/sync_floor_rule.h"

#include <cerrno>
#include <ctime>

#include "src/core/clock.h"

namespace disktune {

uint64_t SyncFloorRemainingNs(uint64_t floor_ns, uint64_t elapsed_ns) {
  return elapsed_ns >= floor_ns ? 0 : floor_ns - elapsed_ns;
}

void WaitForSyncFloor(uint64_t start_ns, uint64_t floor_ns) {
  if (SyncFloorRemainingNs(floor_ns, NowNanos() - start_ns) == 0) return;
  uint64_t deadline = start_ns + floor_ns;
  timespec ts{static_cast<time_t>(deadline / 1000000000ull),
              static_cast<long>(deadline % 1000000000ull)};
  // NowNanos() reads CLOCK_MONOTONIC; EINTR resumes the same deadline.
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) ==
         EINTR) {
  }
}

}  // namespace disktune
