#include "src/bench/watcher.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/single_threaded.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "src/bench/process_stats.h"

namespace disktune::bench {
namespace {

// Gone, or a zombie nobody has reaped yet.
bool ProcessGone(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat, text)) return true;
  size_t paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() &&
         text[paren + 2] == 'Z';
}

struct ForceProcess {
  ForceProcess() { Watcher::ForceProcessForTesting(true); }
  ~ForceProcess() { Watcher::ForceProcessForTesting(false); }
};

Watcher::Options RssEvery(int ms) {
  Watcher::Options o;
  o.interval = std::chrono::milliseconds(ms);
  o.anon_rss = true;
  return o;
}

// A 96 MiB buffer touched and freed while the watcher process samples this
// one is in its peak, and the process is gone once stopped.
TEST(WatcherTest, ProcessKeepsThePeakAndExitsOnStop) {
  std::optional<uint64_t> base = AnonRss();
  if (!base) GTEST_SKIP() << "/proc/self/status has no RssAnon";
  ForceProcess force;
  Watcher w(RssEvery(5));
  ASSERT_EQ(w.mode(), Watcher::Mode::kProcess);
  ASSERT_GT(w.process_id(), 0);
  EXPECT_FALSE(ProcessGone(w.process_id()));
  {
    std::vector<char> big(96 << 20);
    for (size_t i = 0; i < big.size(); i += 4096) big[i] = 1;
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    EXPECT_EQ(big[4096], 1);
  }
  std::optional<uint64_t> peak = w.Stop();
  ASSERT_TRUE(peak);
  EXPECT_GE(*peak, *base + (90u << 20));
  EXPECT_TRUE(ProcessGone(w.process_id()));
  EXPECT_EQ(w.Stop(), peak);
}

TEST(WatcherTest, ThreadWhenForcedOffInAThreadedProcess) {
  std::thread([] {}).join();  // this process has had a second thread
  Watcher w(RssEvery(5));
  EXPECT_EQ(w.mode(), Watcher::Mode::kThread);
  EXPECT_EQ(w.process_id(), -1);
  EXPECT_TRUE(w.Stop());
}

// Free space below the headroom is seen before the constructor returns, in
// both kinds of watcher; above it, never.
TEST(WatcherTest, LatchesLowSpace) {
  for (bool process : {true, false}) {
    Watcher::ForceProcessForTesting(process);
    Watcher::Options o;
    o.space_path = ::testing::TempDir();
    o.headroom = UINT64_MAX;
    Watcher low(o);
    EXPECT_TRUE(low.low()) << process;
    EXPECT_GT(low.free_at_low(), 0u) << process;
    o.headroom = 0;
    Watcher fine(o);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_FALSE(fine.low()) << process;
  }
  Watcher::ForceProcessForTesting(false);
}

// A watcher process whose watched process dies without stopping it exits
// by itself.
TEST(WatcherTest, ProcessExitsWhenTheWatchedProcessDies) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(fds[0]);
    Watcher::ForceProcessForTesting(true);
    auto* w = new Watcher(RssEvery(5));  // never stopped
    pid_t pid = w->process_id();
    ssize_t n = write(fds[1], &pid, sizeof pid);
    _exit(n == sizeof pid ? 0 : 1);
  }
  close(fds[1]);
  pid_t watcher = -1;
  ASSERT_EQ(read(fds[0], &watcher, sizeof watcher),
            static_cast<ssize_t>(sizeof watcher));
  close(fds[0]);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_GT(watcher, 0);
  bool gone = false;
  for (int i = 0; i < 200 && !gone; i++) {
    gone = ProcessGone(watcher);
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(gone);
  if (!gone) kill(watcher, SIGKILL);
}

// In a process with a single thread, watching adds none: in a fresh
// process (a threadsafe death test re-runs only this test), glibc's
// single-thread state survives a watcher's whole life.
TEST(WatcherDeathTest, KeepsASingleThreadedProcessSingleThreaded) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        if (!__libc_single_threaded) _exit(3);  // cannot tell here
        Watcher::Options o = RssEvery(5);
        o.space_path = ::testing::TempDir();
        {
          Watcher w(o);
          if (w.mode() != Watcher::Mode::kProcess) _exit(1);
          std::this_thread::sleep_for(std::chrono::milliseconds(30));
          if (!w.Stop()) _exit(4);
        }
        _exit(__libc_single_threaded ? 0 : 2);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace disktune::bench
