// `disktune exec` as tune_judge.sh meets it: a command runs inside the hdd
// class in the throttled scratch directory (a loop device, the class's
// cgroup), its own fdatasync there meets the class's sync floor through the
// preload library, its exit code comes back, SIGTERM reaches it, and
// nothing of the class is left afterwards; bad input is one line and exit
// 2 with nothing made. The runs need root, loop devices and cgroup v1
// blkio; they skip with the reason otherwise.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <sstream>
#include <thread>

#include "probes/cgroup_throttle.h"
#include "probes/durability_test_util.h"
#include "src/core/sysinfo.h"
#include "src/model/throttle_spec.h"
#include "tests/binary_runner.h"
#include "tests/throttle_test_fixture.h"

namespace disktune {
namespace {

namespace fs = std::filesystem;
using testing::BackgroundRun;
using testing::RunDisktune;

// The lines of `text`.
std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

class ExecCliTest : public testing_util::ThrottleTest {
 protected:
  ExecCliTest() : ThrottleTest("exec_cli_test") {}
  testing::RunOutput Exec(const std::vector<std::string>& command) {
    std::vector<std::string> args = {"exec",  "--throttle",      "hdd",
                                     "--dir", dir_ + "/scratch", "--"};
    args.insert(args.end(), command.begin(), command.end());
    return RunDisktune(args);
  }
  // The class's cgroup (from the child's /proc/self/cgroup line
  // "N:blkio:/disktune-throttle-PID") is gone, and so is the rest of the
  // class (ExpectClassGone).
  void ExpectNothingLeft(const std::string& cgroup_line) {
    size_t at = cgroup_line.find("/disktune");
    ASSERT_NE(at, std::string::npos) << cgroup_line;
    ExpectClassGone(FindCgroupMounts().v1_blkio + cgroup_line.substr(at));
  }
};

TEST_F(ExecCliTest, NoCommandIsOneLineAndMakesNothing) {
  testing::RunOutput r = Exec({});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(testing::CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("command after --"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ + "/scratch"));
}

TEST_F(ExecCliTest, UnknownClassIsOneLineAndMakesNothing) {
  testing::RunOutput r = RunDisktune({"exec", "--throttle", "floppy", "--dir",
                                      dir_ + "/scratch", "--", "true"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(testing::CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("valid: hdd, cloud"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ + "/scratch"));
}

TEST_F(ExecCliTest, MissingProgramIsOneLineAndMakesNothing) {
  testing::RunOutput r = Exec({"disktune-no-such-program"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(testing::CountLines(r.err), 1) << r.err;
  EXPECT_FALSE(fs::exists(dir_ + "/scratch"));
}

// pwd is $DISKTUNE_SCRATCH, on a loop device, in the class's cgroup.
TEST_F(ExecCliTest, RunsInTheThrottledScratchDirectory) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  testing::RunOutput r =
      Exec({"sh", "-c",
            "pwd; printf '%s\\n' \"$DISKTUNE_SCRATCH\"; "
            "df --output=source . | tail -n 1; grep blkio /proc/self/cgroup"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 4u) << r.out;
  EXPECT_EQ(lines[0], lines[1]);
  EXPECT_EQ(lines[0].rfind(dir_ + "/scratch/", 0), 0u) << lines[0];
  EXPECT_EQ(lines[2].rfind("/dev/loop", 0), 0u) << lines[2];
  EXPECT_NE(lines[3].find("disktune-throttle-"), std::string::npos) << lines[3];
  ExpectNothingLeft(lines[3]);
}

// A program disktune does not link: each of its fdatasyncs on the class's
// filesystem takes at least the floor.
TEST_F(ExecCliTest, ChildsFdatasyncMeetsTheSyncFloor) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  const uint64_t floor = ParseThrottle("hdd")->sync_floor_ns;
  ASSERT_GT(floor, 0u);
  testing::RunOutput r = Exec({SYNC_TIMER_BIN, "synced.dat", "5"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GE(std::stoull(r.out), floor) << r.out;
}

TEST_F(ExecCliTest, ChildsExitCodeComesBack) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  testing::RunOutput r =
      Exec({"sh", "-c", "grep blkio /proc/self/cgroup; exit 7"});
  EXPECT_EQ(r.exit_code, 7) << r.err;
  ExpectNothingLeft(r.out);
  r = Exec({"sh", "-c", "kill -KILL $$"});
  EXPECT_EQ(r.exit_code, 128 + SIGKILL) << r.err;
}

// SIGTERM to disktune reaches the command; once it has ended the class is
// removed, and the exit code is the command's.
TEST_F(ExecCliTest, SigtermIsPassedOnThenEverythingRemoved) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  std::string marker = dir_ + "/cgroup.txt";
  BackgroundRun run(
      {"exec", "--throttle", "hdd", "--dir", dir_ + "/scratch", "--", "sh",
       "-c", "grep blkio /proc/self/cgroup > " + marker + "; exec sleep 60"});
  std::string line;
  for (int i = 0; i < 1200 && line.empty(); i++) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    Result<std::string> m = ReadTextFile(marker);
    if (m.ok() && m->find("disktune-throttle-") != std::string::npos) line = *m;
  }
  ASSERT_FALSE(line.empty()) << "the command never started";
  auto start = std::chrono::steady_clock::now();
  run.Signal(SIGTERM);
  testing::RunOutput r = run.Wait();
  double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_EQ(r.exit_code, 128 + SIGTERM) << r.err;
  EXPECT_LT(secs, 10.0);
  fs::remove(marker);
  ExpectNothingLeft(line);
}

}  // namespace
}  // namespace disktune
