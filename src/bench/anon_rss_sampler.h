// The peak of the process's anonymous resident memory (RssAnon) while a
// scenario runs. The kernel keeps a high-water mark for the whole resident
// set (VmHWM) only, and that counts file-backed pages too: an engine's
// memory-mapped tables, which the kernel reclaims as page cache. What an
// engine holds itself (block cache, memtables, index and filter blocks) is
// anonymous, so a thread reads RssAnon every interval and keeps the largest.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <thread>

namespace disktune::bench {

class AnonRssSampler {
 public:
  // 20 ms: an engine's cache and memtables grow over seconds, and one read
  // of /proc/self/status took 14-16 us here (20,000 reads, three runs), so
  // sampling costs under 0.1% of a core.
  static constexpr std::chrono::milliseconds kInterval{20};

  explicit AnonRssSampler(std::chrono::milliseconds interval = kInterval);
  ~AnonRssSampler();
  AnonRssSampler(const AnonRssSampler&) = delete;
  AnonRssSampler& operator=(const AnonRssSampler&) = delete;

  // Stops sampling (once) and returns the largest RssAnon seen, including
  // one reading now; nullopt when /proc/self/status was unreadable.
  std::optional<uint64_t> Stop();

 private:
  void Note(std::optional<uint64_t> v);
  void Loop(std::chrono::milliseconds interval);

  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::optional<uint64_t> peak_;
  std::thread thread_;
};

}  // namespace disktune::bench
