// `restore` after a SIGKILLed --fs-matrix run acts on identities, not names:
// it removes the killed run's scratch directory (journaled), never unmounts a
// filesystem it did not mount, and never deletes through a symbolic link put
// where the scratch directory was. Needs root and loop devices; skips with
// the reason otherwise.
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "tests/binary_runner.h"
#include "tests/test_support.h"

namespace disktune::testing {
namespace {
namespace fs = std::filesystem;

bool Sh(const std::string& cmd) { return system(cmd.c_str()) == 0; }

// Mount points under `under`, from /proc/self/mounts.
std::vector<std::string> MountsUnder(const std::string& under) {
  std::ifstream in("/proc/self/mounts");
  std::string src, mp, rest;
  std::vector<std::string> out;
  while (in >> src >> mp && std::getline(in, rest)) {
    if (mp.rfind(under, 0) == 0) out.push_back(mp);
  }
  return out;
}

class RestoreIdentityTest : public WorkDirTest {
 protected:
  RestoreIdentityTest() : WorkDirTest("restore_identity_test_") {}
  void SetUp() override {
    WorkDirTest::SetUp();
    if (geteuid() != 0) GTEST_SKIP() << "needs root (losetup, mkfs, mount)";
    if (access("/dev/loop-control", F_OK) != 0)
      GTEST_SKIP() << "no loop devices";
    journal_ = work_ + "/journal.json";
    dir_ = work_ + "/d";
    fs::create_directory(dir_);
    setenv("DISKTUNE_JOURNAL", journal_.c_str(), 1);
  }
  void TearDown() override {
    unsetenv("DISKTUNE_JOURNAL");
    // Whatever a case left: mounts first, then the loop devices of images.
    for (const std::string& mp : MountsUnder(work_))
      umount2(mp.c_str(), MNT_DETACH);
    Sh("for f in $(find " + work_ +
       " -name '*.img' 2>/dev/null); do losetup -j \"$f\" | cut -d: -f1 | "
       "xargs -r -n1 losetup -d; done");
    WorkDirTest::TearDown();
  }

  // Starts an --fs-matrix probe and SIGKILLs it once its ext4 is mounted;
  // returns the scratch directory it left ("" when it never mounted).
  std::string KilledFsMatrixRun() {
    BackgroundRun run({"probe", "--probes", "fsync", "--fs-matrix", "ext4",
                       "--duration", "300ms", "--warmup", "0s", "--dir", dir_},
                      work_);
    for (int i = 0; i < 1200 && MountsUnder(dir_).empty(); i++)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    run.Signal(SIGKILL);
    run.Wait();
    std::vector<std::string> left = ListDir(dir_);
    if (MountsUnder(dir_).empty() || left.size() != 1) return "";
    return dir_ + "/" + left.front();
  }

  std::string journal_, dir_;
};

TEST_F(RestoreIdentityTest, ForeignMountIsLeftThenTheScratchIsRemoved) {
  std::string scratch = KilledFsMatrixRun();
  ASSERT_FALSE(scratch.empty()) << "the run never mounted its ext4";
  std::string mp = scratch + "/fsmatrix-ext4";
  // An operator cleans up by hand and mounts their own filesystem there.
  ASSERT_EQ(umount2(mp.c_str(), 0), 0);
  ASSERT_EQ(mount("tmpfs", mp.c_str(), "tmpfs", 0, "size=1m"), 0);
  std::ofstream(mp + "/users") << "user's";
  RunOutput r = RunDisktune({"restore"}, work_);
  EXPECT_NE(r.out.find("another filesystem mounted"), std::string::npos)
      << r.out << r.err;
  EXPECT_EQ(ReadFile(mp + "/users"), "user's") << "the user's mount was undone";
  ASSERT_EQ(umount2(mp.c_str(), 0), 0);

  // With the user's mount gone, the killed run's directory goes too.
  r = RunDisktune({"restore"}, work_);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("removed scratch directory " + scratch),
            std::string::npos)
      << r.out;
  EXPECT_TRUE(ListDir(dir_).empty()) << "left in " << dir_;
  EXPECT_TRUE(MountsUnder(work_).empty());
}

TEST_F(RestoreIdentityTest, NothingIsDeletedThroughALinkWhereTheScratchWas) {
  std::string scratch = KilledFsMatrixRun();
  ASSERT_FALSE(scratch.empty()) << "the run never mounted its ext4";
  // Another directory holding files under disktune's names, and a link to it
  // where the scratch directory was.
  std::string other = work_ + "/other";
  fs::create_directory(other);
  std::ofstream(other + "/fsmatrix-ext4.img") << "someone's image";
  fs::create_directory(other + "/fsmatrix-ext4");
  fs::rename(scratch, work_ + "/moved");
  fs::create_directory_symlink(other, scratch);
  RunOutput r = RunDisktune({"restore"}, work_);
  EXPECT_EQ(ReadFile(other + "/fsmatrix-ext4.img"), "someone's image")
      << r.out << r.err;
  EXPECT_TRUE(fs::is_directory(other + "/fsmatrix-ext4"));
  EXPECT_NE(r.out.find("left alone"), std::string::npos) << r.out << r.err;
  // The image replaced by another file under its name: not deleted either.
  fs::remove(scratch);
}

}  // namespace
}  // namespace disktune::testing
