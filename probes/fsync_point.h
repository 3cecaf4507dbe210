// One durability measurement: a write (or a few) followed by whatever makes
// it durable, repeated and timed as one operation: the time a committing
// transaction waits for. The engine under the fsync probe, the write-cache
// A/B and the filesystem matrix.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/core/status.h"
#include "src/model/file_mode.h"
#include "src/model/probe_result.h"
#include "src/model/sync_method.h"

namespace disktune {

// The preallocated file is reserved in segments of etcd's WAL size (64 MB):
// how large an unwritten extent is changes what a sync commits (a 256 MiB
// reservation synced ~30% slower on ext4 than 22 or 64 MiB).
inline constexpr uint64_t kPreallocSegmentBytes = 64'000'000;

struct FsyncPoint {
  std::string name;  // "fsync.fdatasync.2300.append"
  SyncMethod method = SyncMethod::kFdatasync;
  uint64_t write_bytes = 4096;  // per write() call
  int writes_per_op = 1;        // pg: two 8 kB writes per sync, 16 x 1 kB
  FileMode mode = FileMode::kAppend;
  bool sync_other_fd = false;  // fsync a second descriptor of the file
  std::string note;            // what the point compares, for the report
  std::string variant;         // ProbeParams::variant: "pg.unsynced", ...
};

// When a point stops: after `duration_ns` once `min_ops` are done, at
// `max_ns` whatever the count (a slow disk still gives samples, a broken one
// does not hang the run), or when an appended (or preallocated) file reaches
// `max_append_bytes` (the space the point may use).
struct FsyncLimits {
  uint64_t warmup_ns = 50000000;
  uint64_t duration_ns = 250000000;
  uint64_t max_ns = 1000000000;
  uint64_t min_ops = 50;
  uint64_t max_append_bytes = 64ull << 20;
};

// Where a family of points runs.
struct FsyncTarget {
  std::string dir;  // files are created here; for messages and reports
  // The directory's handle: every file is created (O_EXCL | O_NOFOLLOW),
  // opened and removed relative to it, so a name swapped under `dir` during
  // the run steers nothing. -1: use `dir` by name (tests of plain dirs).
  int dir_fd = -1;
  std::vector<std::string> flush_disks;  // FlushDisks() of its device
  uint64_t logical_block_bytes = 512;    // O_DIRECT granularity
  std::string overwrite_file;  // set by PrepareOverwriteFile (for messages)
  std::string overwrite_name;  // its name relative to dir_fd
  uint64_t overwrite_bytes = 0;
  std::string filesystem;  // --fs-matrix: the loop filesystem
  CacheState write_cache = CacheState::kAsFound;
  // Copied into every result's params (scope, disk, kernel cache view).
  nlohmann::json extra = nlohmann::json::object();
};

// The handle files are reached through, and a file's name relative to it.
int TargetDirFd(const FsyncTarget& t);
std::string TargetName(const FsyncTarget& t, const std::string& name);

// Creates <dir>/fsync-overwrite.dat: `bytes` of random data, written and
// synced, so overwrites change no metadata (no allocation, no unwritten
// extents). NoSpace with a clear message when the disk is full.
Status PrepareOverwriteFile(FsyncTarget* target, uint64_t bytes, uint64_t seed);

// Removes the file PrepareOverwriteFile made, through the handle.
Status RemoveOverwriteFile(const FsyncTarget& t);

// The params a point's result carries, whatever its outcome.
ProbeParams FsyncPointParams(const FsyncTarget& target, const FsyncPoint& point,
                             const FsyncLimits& limits);

// Hears the operations measured so far, about once a second, so a long
// point (etcd's 10,029 syncs) can update the time left from its own pace.
using FsyncTick = std::function<void(uint64_t ops)>;
inline constexpr uint64_t kTickNs = 1'000'000'000;

// Runs one point into `*out` (ok, skipped or failed with a clear reason).
// Returns Aborted on SIGINT/SIGTERM; the point's files are removed on every
// path.
Status RunFsyncPoint(const FsyncTarget& target, const FsyncPoint& point,
                     const FsyncLimits& limits, uint64_t seed, ProbeResult* out,
                     const FsyncTick& tick = {});

}  // namespace disktune
