// The sync floor's rule alone (src/core/sync_floor.h has the device
// registry): how long a sync still waits, and the wait. It needs only libc,
// so the preload library that lays the floor under another program's syncs
// (sync_floor_preload.cc) compiles it in without the rest of disktune.
#pragma once

#include <cstdint>

namespace disktune {

// The rule: how long a sync that took `elapsed_ns` still waits under a
// floor of `floor_ns` (0 when it took the floor or longer, or floor is 0).
uint64_t SyncFloorRemainingNs(uint64_t floor_ns, uint64_t elapsed_ns);

// Sleeps until `start_ns + floor_ns` on NowNanos()'s clock (an absolute
// deadline, so a signal does not lengthen or shorten the wait).
void WaitForSyncFloor(uint64_t start_ns, uint64_t floor_ns);

}  // namespace disktune
