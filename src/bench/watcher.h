// Watches this process from outside while a scenario runs: the peak of its
// anonymous resident memory (RssAnon) and the free space of the database's
// filesystem, sampled every interval.
//
// Why not a thread of ours: once a process has started a second thread,
// glibc turns off its single-thread fast paths for good (malloc takes its
// arena lock and uses atomic fastbin operations). The single-threaded
// engines (Kyoto Cabinet, Berkeley DB, SQLite, LMDB) spend much of their
// read paths in malloc, and their own benchmarks run in a process with one
// thread: Kyoto TreeDB's readrandom and readseq ran 2-5% slower in a process
// that had once had a second thread (medians of 30 forked pairs on a 2-vCPU
// VM). So while this process still has a single thread, the watcher is a
// separate process: this program's own executable (/proc/self/exe), started
// with posix_spawn (no copy of the address space), sharing one page with
// this process. A static initializer in watcher.cc runs the watch loop in
// that process instead of main(). When this process already has threads
// (an engine's background threads, a multi-threaded scenario), one more
// costs nothing glibc has not already paid, and the watcher is a thread.
// Either way the loop is the same, and it stops when told or when this
// process is gone.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>

namespace disktune::bench {

// What the watched side and the watcher share: a few words in one page.
struct WatchPage {
  std::atomic<uint32_t> stop{0};   // futex word, set by the watched side
  std::atomic<uint32_t> ready{0};  // futex word, set after the first sample
  std::atomic<uint32_t> low{0};
  std::atomic<uint64_t> free_at_low{0};
  std::atomic<uint64_t> peak_anon{0};  // 0: none readable yet
  // The watcher process's id while it lives; the kernel sets
  // kWatcherOwnerDied in it when that process ends for any reason, SIGKILL
  // included (a robust futex: the process registered this word as one it
  // holds, see set_robust_list(2)).
  std::atomic<uint32_t> owner{0};
};
inline constexpr uint32_t kWatcherOwnerDied = 0x40000000;  // FUTEX_OWNER_DIED

class Watcher {
 public:
  struct Options {
    std::chrono::milliseconds interval{20};
    // Sample RssAnon and keep the largest.
    bool anon_rss = false;
    // When not empty: latch low() once the free space of the filesystem
    // holding this path falls below `headroom` bytes.
    std::string space_path;
    uint64_t headroom = 0;
  };
  enum class Mode { kProcess, kThread };

  // Returns once the first sample is taken.
  explicit Watcher(Options options);
  ~Watcher();
  Watcher(const Watcher&) = delete;
  Watcher& operator=(const Watcher&) = delete;

  Mode mode() const { return mode_; }
  // The watcher process's id; -1 for a thread.
  pid_t process_id() const { return pid_; }
  // Read at every operation's ShouldStop(): one relaxed load, inline.
  bool low() const { return page_->low.load(std::memory_order_relaxed) != 0; }
  // True once the watcher process ended before Stop() (killed, crashed): no
  // one watches the free space any more. Never for a thread. One relaxed
  // load, like low().
  bool gone() const {
    return !stopped_ &&
           (page_->owner.load(std::memory_order_relaxed) & kWatcherOwnerDied);
  }
  uint64_t free_at_low() const;
  // Stops the watcher (once; later calls return the same) and returns the
  // largest RssAnon it saw; nullopt when none was readable.
  std::optional<uint64_t> Stop();

  // For tests: start a process even when this process has threads.
  static void ForceProcessForTesting(bool on);

 private:
  bool StartProcess(const Options& o);

  bool anon_rss_ = false;
  Mode mode_ = Mode::kThread;
  WatchPage* page_ = nullptr;  // shared mapping (process) or owned (thread)
  pid_t pid_ = -1;
  std::thread thread_;
  bool stopped_ = false;
  std::optional<uint64_t> peak_;
};

}  // namespace disktune::bench
