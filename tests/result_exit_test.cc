// Exit codes that tell the truth about the result, and waits that say so:
// a result stdout did not take (closed, EPIPE) is exit 3 with one line; a
// wait on another run's journal lock is announced and a signal ends it;
// TERM=dumb gets no escape sequences.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "tests/binary_runner.h"
#include "tests/test_support.h"

namespace disktune::testing {
namespace {

std::string DrainFd(int fd) {
  std::string s;
  char buf[4096];
  ssize_t n;
  while ((n = read(fd, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR)) {
    if (n > 0) s.append(buf, static_cast<size_t>(n));
  }
  return s;
}

// Runs disktune with `stdout_fd` as its descriptor 1 (-1: closed) and
// `stderr_fd` as 2 (-1: a pipe read back into `err`).
RunOutput RunWithStdout(const std::vector<std::string>& args, int stdout_fd,
                        int stderr_fd = -1) {
  int e[2];
  if (pipe(e) != 0) return {};
  pid_t pid = fork();
  if (pid == 0) {
    signal(SIGPIPE, SIG_DFL);
    if (stdout_fd >= 0) {
      dup2(stdout_fd, 1);
    } else {
      close(1);
    }
    dup2(stderr_fd >= 0 ? stderr_fd : e[1], 2);
    close(e[0]);
    std::vector<std::string> argv = {DisktuneBin()};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    execv(cargv[0], cargv.data());
    _exit(127);
  }
  close(e[1]);
  RunOutput r;
  r.err = DrainFd(e[0]);
  close(e[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.exit_code =
      WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

class ResultExitTest : public WorkDirTest {
 protected:
  ResultExitTest() : WorkDirTest("result_exit_test_") {}
};

TEST_F(ResultExitTest, ClosedStdoutLosesTheResultAndSaysSo) {
  RunOutput r = RunWithStdout({"list", "--json", "-"}, -1);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("could not be written"), std::string::npos) << r.err;
  // The human text too.
  r = RunWithStdout({"list"}, -1);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
}

// `--json - | true`: the reader is gone before the result is written.
TEST_F(ResultExitTest, BrokenPipeIsExit3NotSuccess) {
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  close(p[0]);
  RunOutput r = RunWithStdout({"list", "--json", "-"}, p[1]);
  close(p[1]);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("could not be written"), std::string::npos) << r.err;
}

// The --dir handle never becomes descriptor 1 when stdout is closed: the
// scratch directory's files are not where the result goes, and the run says
// its result was lost.
TEST_F(ResultExitTest, ClosedStdoutDuringAProbeIsExit3) {
  RunOutput r =
      RunWithStdout({"probe", "--quick", "--file-size", "16MiB", "--duration",
                     "100ms", "--warmup", "0s", "--probes", "seq_read",
                     "--queue-depths", "1", "--json", "-", "--dir", work_},
                    -1);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("could not be written"), std::string::npos) << r.err;
  EXPECT_TRUE(ListDir(work_).empty()) << "left behind in " << work_;
}

TEST_F(ResultExitTest, TermDumbGetsNoEscapes) {
  int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0)
    GTEST_SKIP() << "no pseudo-terminal";
  int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
  ASSERT_GE(slave, 0);
  std::string seen;
  std::thread reader([&] {
    char buf[4096];
    ssize_t n;
    while ((n = read(master, buf, sizeof(buf))) > 0)
      seen.append(buf, static_cast<size_t>(n));
  });
  setenv("TERM", "dumb", 1);
  RunOutput r = RunWithStdout(
      {"probe", "--quick", "--file-size", "16MiB", "--duration", "300ms",
       "--warmup", "0s", "--probes", "seq_read", "--queue-depths", "1,2",
       "--progress", "always", "--dir", work_},
      open("/dev/null", O_WRONLY), slave);
  unsetenv("TERM");
  close(slave);
  reader.join();  // EIO once the last slave descriptor is closed
  close(master);
  EXPECT_EQ(r.exit_code, 0) << seen;
  // A dumb terminal gets the plain lines a log gets (at most one every few
  // seconds, so this short run may show only its first), never escapes.
  EXPECT_NE(seen.find("progress: [1/"), std::string::npos) << seen;
  EXPECT_EQ(seen.find("\033["), std::string::npos) << seen;
}

// Another run holds the journal lock: the wait is announced within a second
// and SIGTERM ends it with the normal cleanup.
TEST_F(ResultExitTest, JournalLockWaitIsAnnouncedAndASignalEndsIt) {
  std::string journal = work_ + "/journal.json";
  int lock = open((journal + ".lock").c_str(), O_RDWR | O_CREAT, 0600);
  ASSERT_GE(lock, 0);
  ASSERT_EQ(flock(lock, LOCK_EX), 0);
  std::string dir = work_ + "/d";
  setenv("DISKTUNE_JOURNAL", journal.c_str(), 1);
  auto start = std::chrono::steady_clock::now();
  BackgroundRun run({"bench", "--engine", "leveldb", "--scenario", "fillseq",
                     "--num", "1000", "--dir", dir},
                    work_);
  unsetenv("DISKTUNE_JOURNAL");
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  run.Signal(SIGTERM);
  RunOutput r = run.Wait();
  double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  close(lock);
  EXPECT_EQ(r.exit_code, 143) << r.err;
  EXPECT_LT(secs, 5.0);
  EXPECT_NE(r.err.find("waiting for the device journal lock"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("giving up after 30 s"), std::string::npos) << r.err;
  // Nothing left: the --dir it created is removed with the scratch.
  EXPECT_FALSE(std::filesystem::exists(dir)) << r.err;
}

}  // namespace
}  // namespace disktune::testing
