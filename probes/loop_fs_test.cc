// Loop filesystems: made and removed without a trace, cleaned from the
// journal after a SIGKILL, and a full disk while appending. Root only.
#include "probes/loop_fs.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <filesystem>

#include "probes/device_info.h"
#include "probes/durability_test_util.h"
#include "probes/fsync_probe.h"

namespace disktune {
namespace {

namespace fs = std::filesystem;
using testing_util::LoopsMention;
using testing_util::MountsMention;

class LoopFsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why = testing_util::LoopSkipReason();
    if (!why.empty()) GTEST_SKIP() << why;
    dir_ = testing_util::MakeTempDir("loopfs_test");
    ASSERT_FALSE(dir_.empty());
    journal_ = std::make_unique<DeviceJournal>(dir_ + "/journal.json");
  }
  void TearDown() override {
    if (!dir_.empty()) {
      // Whatever a failed test left: the journal knows.
      if (journal_) (void)journal_->Restore(true);
      fs::remove_all(dir_);
    }
  }
  std::string dir_;
  std::unique_ptr<DeviceJournal> journal_;
};

TEST_F(LoopFsTest, EachFilesystemMountsAndLeavesNoTrace) {
  for (const std::string& type : MatrixFilesystems()) {
    if (FindProgram("mkfs." + type).empty()) continue;
    auto l = LoopFs::Create(dir_, type, 512ull << 20, journal_.get());
    ASSERT_TRUE(l.ok()) << type << ": " << l.status().ToString();
    LoopFs& lfs = **l;
    EXPECT_TRUE(IsMountPoint(lfs.mount_point()));
    EXPECT_EQ(ReadFilesystemInfo(lfs.mount_point()).type, type);
    EXPECT_FALSE(lfs.mount_options().empty());
    EXPECT_EQ(LoopDevicesBackedBy(lfs.image()),
              std::vector<std::string>{lfs.loop_device()});
    EXPECT_EQ(journal_->Load()->size(), 3u);
    std::string image = lfs.image(), mnt = lfs.mount_point();
    ASSERT_TRUE(lfs.Teardown().ok());
    EXPECT_FALSE(IsMountPoint(mnt));
    EXPECT_FALSE(fs::exists(mnt));
    EXPECT_FALSE(fs::exists(image));
    EXPECT_TRUE(LoopDevicesBackedBy(image).empty());
    EXPECT_TRUE(journal_->Load()->empty());
  }
}

TEST_F(LoopFsTest, BadInputIsRefusedClearly) {
  auto l = LoopFs::Create(dir_, "btrfs", 512ull << 20, journal_.get());
  ASSERT_FALSE(l.ok());
  EXPECT_EQ(l.status().message(),
            "unknown filesystem 'btrfs'; valid: ext3, ext4, xfs");
  if (access("/dev/shm", W_OK) == 0) {
    auto t = LoopFs::Create("/dev/shm", "ext4", 64ull << 20, journal_.get());
    ASSERT_FALSE(t.ok());
    EXPECT_TRUE(t.status().IsNotSupported()) << t.status().ToString();
    EXPECT_NE(t.status().message().find("tmpfs"), std::string::npos);
  }
  auto big = LoopFs::Create(dir_, "ext4", 1ull << 60, journal_.get());
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().code(), Status::Code::kNoSpace);
  EXPECT_TRUE(journal_->Load()->empty());
}

TEST_F(LoopFsTest, KilledRunIsCleanedFromTheJournal) {
  std::string image = dir_ + "/fsmatrix-ext4.img";
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    DeviceJournal j(dir_ + "/journal.json");
    auto l = LoopFs::Create(dir_, "ext4", 64ull << 20, &j);
    if (!l.ok()) _exit(2);
    l->release();  // as a crash would: nothing torn down
    raise(SIGKILL);
    _exit(3);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status)) << "child exit " << WEXITSTATUS(status);
  ASSERT_TRUE(LoopsMention(image));
  ASSERT_TRUE(MountsMention(dir_ + "/fsmatrix-ext4"));

  auto out = journal_->Restore(false);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->restored.size(), 3u);
  EXPECT_TRUE(out->failed.empty());
  EXPECT_FALSE(LoopsMention(image));
  EXPECT_FALSE(MountsMention(dir_ + "/fsmatrix-ext4"));
  EXPECT_FALSE(fs::exists(image));
}

TEST_F(LoopFsTest, DiskFullWhileAppendingIsAClearFailure) {
  auto l = LoopFs::Create(dir_, "ext4", 32ull << 20, journal_.get());
  ASSERT_TRUE(l.ok()) << l.status().ToString();
  auto dev = ResolveDevice((*l)->mount_point());
  ASSERT_TRUE(dev.ok()) << dev.status().ToString();
  FsyncTarget t = MakeFsyncTarget((*l)->mount_point(), *dev, "tiny ext4");
  FsyncPoint p;
  p.name = "fsync.fdatasync.1048576.append";
  p.method = SyncMethod::kFdatasync;
  p.write_bytes = 1 << 20;
  FsyncLimits lim;
  lim.duration_ns = 30000000000ull;
  lim.max_ns = 60000000000ull;
  lim.min_ops = 1000;
  lim.max_append_bytes = 1ull << 30;  // more than the filesystem holds
  ProbeResult r;
  ASSERT_TRUE(RunFsyncPoint(t, p, lim, 1, &r).ok());
  EXPECT_EQ(r.status, ProbeStatus::kFailed);
  EXPECT_NE(r.error.find("disk full"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("No space left on device"), std::string::npos)
      << r.error;
  EXPECT_FALSE(fs::exists((*l)->mount_point() + "/fsync-append.dat"));
  EXPECT_TRUE((*l)->Teardown().ok());
}

}  // namespace
}  // namespace disktune
