#include "src/bench/watcher.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/single_threaded.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#include "src/bench/process_stats.h"

extern char** environ;

namespace disktune::bench {

// Shared between processes, the atomics must not hide a lock.
static_assert(std::atomic<uint64_t>::is_always_lock_free);
static_assert(std::atomic<uint32_t>::is_always_lock_free);
static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t));
static_assert(kWatcherOwnerDied == FUTEX_OWNER_DIED);

namespace {

constexpr const char* kEnv = "DISKTUNE_INTERNAL_WATCHER";
constexpr int kPageFd = 3;  // where the watcher process finds the page
constexpr size_t kPageBytes = 4096;
static_assert(sizeof(WatchPage) <= kPageBytes);
// Far beyond the executable's start-up (benchmarks/README.md, "Harness
// design records"); a loaded machine gets longer.
constexpr auto kStartTimeout = std::chrono::seconds(10);

std::atomic<int> g_forced_mode{-1};  // -1: choose; else a Watcher::Mode

// Futex operations without FUTEX_PRIVATE_FLAG: the page may be shared.
void WaitWhileEquals(std::atomic<uint32_t>* word, uint32_t value,
                     std::chrono::nanoseconds timeout) {
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(timeout.count() / 1000000000);
  ts.tv_nsec = static_cast<long>(timeout.count() % 1000000000);
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAIT, value, &ts,
          nullptr, 0);
}

void WakeAll(std::atomic<uint32_t>* word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAKE, INT_MAX,
          nullptr, nullptr, 0);
}

// `watched`: the process to read RssAnon of; 0 for this one.
void Sample(WatchPage* page, const Watcher::Options& a, pid_t watched) {
  if (a.anon_rss) {
    if (std::optional<uint64_t> v = AnonRss(watched)) {
      uint64_t seen = page->peak_anon.load();
      while (*v > seen && !page->peak_anon.compare_exchange_weak(seen, *v)) {
      }
    }
  }
  if (!a.space_path.empty() && page->low.load() == 0) {
    struct statvfs sv {};
    if (statvfs(a.space_path.c_str(), &sv) != 0) return;
    uint64_t free_bytes = static_cast<uint64_t>(sv.f_bavail) * sv.f_frsize;
    if (free_bytes < a.headroom) {
      page->free_at_low.store(free_bytes);
      page->low.store(1);
    }
  }
}

// Samples until told to stop, or, in the watcher process (`watched` not 0),
// until the watched process is gone (this one is then re-parented).
void Loop(WatchPage* page, const Watcher::Options& a, pid_t watched) {
  Sample(page, a, watched);
  page->ready.store(1);
  WakeAll(&page->ready);
  while (page->stop.load() == 0) {
    WaitWhileEquals(&page->stop, 0, a.interval);
    if (page->stop.load() != 0) break;
    if (watched != 0 && getppid() != watched) break;
    Sample(page, a, watched);
  }
}

// Registers page->owner as a robust futex this process holds, so the kernel
// marks it kWatcherOwnerDied however the process ends (robust futexes,
// set_robust_list(2)). Replaces glibc's own list: this process uses no
// robust mutex.
void HoldOwnerWord(WatchPage* page) {
  static robust_list entry;
  static robust_list_head head;
  entry.next = &head.list;
  head.list.next = &entry;
  head.futex_offset =
      reinterpret_cast<char*>(&page->owner) - reinterpret_cast<char*>(&entry);
  head.list_op_pending = nullptr;
  page->owner.store(static_cast<uint32_t>(syscall(SYS_gettid)));
  syscall(SYS_set_robust_list, &head, sizeof(head));
}

// The watcher process's whole life. `spec` is
// "<watched pid> <interval ms> <anon 0|1> <headroom> <path, possibly empty>".
int WatcherProcessMain(const char* spec) {
  Watcher::Options a;
  long pid = 0, interval = 0, anon = 0;
  unsigned long long headroom = 0;
  int used = 0;
  struct stat st {};
  if (sscanf(spec, "%ld %ld %ld %llu %n", &pid, &interval, &anon, &headroom,
             &used) < 4 ||
      pid <= 0 || interval <= 0 || fstat(kPageFd, &st) != 0 ||
      static_cast<size_t>(st.st_size) != kPageBytes) {
    fprintf(stderr,
            "disktune: %s is for disktune's own use (its watcher process); "
            "unset it\n",
            kEnv);
    return 2;
  }
  a.interval = std::chrono::milliseconds(interval);
  a.anon_rss = anon != 0;
  a.space_path = spec + used;
  a.headroom = headroom;
  void* m =
      mmap(nullptr, kPageBytes, PROT_READ | PROT_WRITE, MAP_SHARED, kPageFd, 0);
  close(kPageFd);
  if (m == MAP_FAILED) return 1;
  HoldOwnerWord(static_cast<WatchPage*>(m));
  Loop(static_cast<WatchPage*>(m), a, static_cast<pid_t>(pid));
  return 0;
}

// In the watcher process, runs the watch loop in place of main().
struct WatcherEntry {
  WatcherEntry() {
    if (const char* spec = getenv(kEnv)) _exit(WatcherProcessMain(spec));
  }
} g_watcher_entry;

}  // namespace

void Watcher::ForceProcessForTesting(bool on) {
  g_forced_mode.store(on ? static_cast<int>(Mode::kProcess) : -1);
}

Watcher::Watcher(Options o) : anon_rss_(o.anon_rss) {
  bool want_process = g_forced_mode.load() == static_cast<int>(Mode::kProcess)
                          ? true
                          : __libc_single_threaded != 0;
  if (want_process && StartProcess(o)) {
    mode_ = Mode::kProcess;
    return;
  }
  // Already threaded, or the process could not start: a thread.
  mode_ = Mode::kThread;
  page_ = new WatchPage();
  thread_ = std::thread(Loop, page_, std::move(o), pid_t{0});
  while (page_->ready.load() == 0) {
    WaitWhileEquals(&page_->ready, 0, std::chrono::milliseconds(100));
  }
}

bool Watcher::StartProcess(const Options& o) {
  int fd = memfd_create("disktune-watcher", MFD_CLOEXEC);
  if (fd < 0) return false;
  void* m = MAP_FAILED;
  if (ftruncate(fd, kPageBytes) == 0) {
    m = mmap(nullptr, kPageBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  }
  if (m != MAP_FAILED && fd == kPageFd) {
    // dup2 onto itself would leave close-on-exec set.
    int moved = fcntl(fd, F_DUPFD_CLOEXEC, kPageFd + 1);
    close(fd);
    fd = moved;
  }
  if (m == MAP_FAILED || fd < 0) {
    if (m != MAP_FAILED) munmap(m, kPageBytes);
    if (fd >= 0) close(fd);
    return false;
  }
  auto* page = new (m) WatchPage();

  std::string spec = std::to_string(getpid()) + " " +
                     std::to_string(o.interval.count()) + " " +
                     (o.anon_rss ? "1" : "0") + " " +
                     std::to_string(o.headroom) + " " + o.space_path;
  std::string var = std::string(kEnv) + "=" + spec;
  std::vector<char*> envp;
  size_t kEnvLen = strlen(kEnv);
  for (char** e = environ; e != nullptr && *e != nullptr; e++) {
    if (strncmp(*e, kEnv, kEnvLen) != 0 || (*e)[kEnvLen] != '=') {
      envp.push_back(*e);
    }
  }
  envp.push_back(var.data());
  envp.push_back(nullptr);
  char name[] = "disktune-watcher";
  char* argv[] = {name, nullptr};

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fd, kPageFd);
  // None of this process's other descriptors (an engine's files, locks).
  posix_spawn_file_actions_addclosefrom_np(&fa, kPageFd + 1);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, "/proc/self/exe", &fa, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&fa);
  close(fd);
  if (rc != 0) {
    munmap(m, kPageBytes);
    return false;
  }

  // Until its first sample: the executable's start-up.
  auto deadline = std::chrono::steady_clock::now() + kStartTimeout;
  while (page->ready.load() == 0) {
    int status = 0;
    bool gone = waitpid(pid, &status, WNOHANG) == pid;
    if (gone || std::chrono::steady_clock::now() > deadline) {
      if (!gone) {
        kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
      }
      munmap(m, kPageBytes);
      return false;
    }
    WaitWhileEquals(&page->ready, 0, std::chrono::milliseconds(20));
  }
  page_ = page;
  pid_ = pid;
  return true;
}

Watcher::~Watcher() {
  Stop();
  if (mode_ == Mode::kProcess) {
    page_->~WatchPage();
    munmap(page_, kPageBytes);
  } else {
    delete page_;
  }
}

uint64_t Watcher::free_at_low() const { return page_->free_at_low.load(); }

std::optional<uint64_t> Watcher::Stop() {
  if (stopped_) return peak_;
  stopped_ = true;
  page_->stop.store(1);
  WakeAll(&page_->stop);
  if (mode_ == Mode::kProcess) {
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  } else if (thread_.joinable()) {
    thread_.join();
  }
  if (!anon_rss_) return peak_;
  uint64_t peak = page_->peak_anon.load();
  if (std::optional<uint64_t> now = AnonRss()) peak = std::max(peak, *now);
  if (peak > 0) peak_ = peak;
  return peak_;
}

}  // namespace disktune::bench
