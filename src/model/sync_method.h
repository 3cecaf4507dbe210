// How a write is made durable: the fsync probe's methods. The names are
// public (result names, flags, a result's params.method).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace disktune {

enum class SyncMethod {
  kFsync,           // write(); fsync()
  kFdatasync,       // write(); fdatasync()
  kODsync,          // open(O_DSYNC); write()
  kOSync,           // open(O_SYNC); write()
  kODirectDsync,    // open(O_DIRECT | O_DSYNC); write()
  kUringFdatasync,  // io_uring: WRITE linked to FSYNC(IORING_FSYNC_DATASYNC)
  kNone,            // write() only: the floor (pg_test_fsync's "non-sync")
};
const char* SyncMethodName(SyncMethod m);
std::optional<SyncMethod> ParseSyncMethod(std::string_view name);
// The six durable methods, in report order.
const std::vector<SyncMethod>& DurableSyncMethods();
// Whether the method always asks the kernel for a cache flush when the
// device's cache is write back. O_DIRECT|O_DSYNC may use FUA writes instead.
bool MethodAlwaysFlushes(SyncMethod m);

}  // namespace disktune
