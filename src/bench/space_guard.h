// Stops a scenario cleanly before its filesystem fills up.
//
// An engine that meets ENOSPC mid-write does not always fail cleanly: the
// Debian RocksDB is built with assertions, and a failed WAL sync aborts the
// process (writable_file_writer.h: "sync_without_flush_called_"), leaving the
// scratch directory behind. So while a scenario runs, a watcher (watcher.h: a
// process while this one has a single thread) samples the free space of the
// database's filesystem every 20 ms; once it drops below
// the headroom, workers see low() at their next ShouldStop() and the scenario
// ends with NoSpace, while the engine still has room for its flushes and
// compactions.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "src/bench/watcher.h"

namespace disktune::bench {

// The free space kept back: 5% of the filesystem, at least 64 MiB (a
// memtable flush and a compaction's output files; a quarter of a filesystem
// smaller than 256 MiB), at most 1 GiB.
uint64_t SpaceHeadroomBytes(uint64_t filesystem_bytes);

class SpaceGuard {
 public:
  // Watches the filesystem holding `path` (a directory that exists).
  explicit SpaceGuard(std::string path);

  bool low() const { return watcher_ != nullptr && watcher_->low(); }
  // "free space on /x fell to 60 MiB, below the 64 MiB kept back ..."
  std::string Message() const;
  // The watcher process ended (killed, crashed) while the scenario runs:
  // the scenario stops rather than run on unguarded (IOError, exit 3).
  bool gone() const { return watcher_ != nullptr && watcher_->gone(); }
  // "free-space guard stopped: its watcher process (pid N) ended; ..."
  std::string GoneMessage() const;

  // For tests: the headroom to use instead of SpaceHeadroomBytes().
  static void SetHeadroomForTesting(uint64_t bytes);

 private:
  std::string path_;
  uint64_t headroom_ = 0;
  std::unique_ptr<Watcher> watcher_;  // null when `path` was not statvfs-able
};

}  // namespace disktune::bench
