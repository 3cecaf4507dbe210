// The peak of the process's anonymous resident memory (RssAnon) while a
// scenario runs. The kernel keeps a high-water mark for the whole resident
// set (VmHWM) only, and that counts file-backed pages too: an engine's
// memory-mapped tables, which the kernel reclaims as page cache. What an
// engine holds itself (block cache, memtables, index and filter blocks) is
// anonymous, so a watcher (watcher.h: a process while this one has a single
// thread) reads RssAnon every interval and keeps the largest.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

#include "src/bench/watcher.h"

namespace disktune::bench {

class AnonRssSampler {
 public:
  // 20 ms: an engine's cache and memtables grow over seconds, and sampling
  // this often costs under 0.1% of a core (benchmarks/README.md, "Memory
  // budget: the engine's memory against the budget").
  static constexpr std::chrono::milliseconds kInterval{20};

  explicit AnonRssSampler(std::chrono::milliseconds interval = kInterval);

  // Stops sampling (once) and returns the largest RssAnon seen, including
  // one reading now; nullopt when /proc/self/status was unreadable.
  std::optional<uint64_t> Stop() { return watcher_.Stop(); }

 private:
  Watcher watcher_;
};

}  // namespace disktune::bench
