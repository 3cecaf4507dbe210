// A sync-latency floor: a device class's minimum time for one sync (the
// `hdd` class's revolution), laid in software over a device whose syncs are
// faster. A sync on a floored device returns no sooner than the floor after
// it started: the caller sleeps for the floor minus the sync's own time.
//
// The floor is a property of a device, kept by its device number as the
// kernel keeps a queue setting, so every sync on the device's filesystem -
// a probe's, or an engine's opened by any command - meets it without each
// layer carrying it. `--throttle` sets it for its loop device while the
// device exists (probes/throttled_device.h); the fsync probe's points and
// the LevelDB and RocksDB adapters (engines/*_sync_floor_*) apply it, and
// `disktune exec` lays it under its command's fsync and fdatasync with a
// preload library (sync_floor_preload.cc) by the same rule
// (sync_floor_rule.h).
// benchmarks/README.md, "Device classes", "Sync latency".
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "src/core/clock.h"
#include "src/core/sync_floor_rule.h"

namespace disktune {

// Runs `sync` (a callable) and returns its result no sooner than `floor_ns`
// after it started.
template <typename F>
auto FlooredSync(uint64_t floor_ns, F&& sync) {
  uint64_t start = NowNanos();
  auto result = sync();
  WaitForSyncFloor(start, floor_ns);
  return result;
}

// The registry. Sets the floor of device `dev` (0 removes it).
void SetDeviceSyncFloor(dev_t dev, uint64_t floor_ns);
// "7:3" (a LoopFs device number) as dev_t; 0 when it does not parse.
dev_t ParseDeviceNumber(const std::string& major_minor);
// The floor of the device holding `path`, or of its nearest existing
// ancestor when `path` does not exist yet (a database about to be made).
// 0 when the device has none.
uint64_t SyncFloorOfPath(const std::string& path);
// The floor of the device holding the open file `fd`; 0 when none.
uint64_t SyncFloorOfFd(int fd);

// The engines whose adapters lay the floor under their syncs (they wrap
// their engine's file layer: engines/leveldb_sync_floor_env.h,
// engines/rocksdb_sync_floor_fs.h). The others' syncs are not floored.
const std::vector<std::string>& SyncFlooredEngines();

}  // namespace disktune
