// The device journal: write / load / remove, replay after a killed process
// (a child that makes a change and SIGKILLs itself), and corrupt input.
#include "probes/device_journal.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "probes/durability_test_util.h"
#include "probes/journal_objects.h"
#include "probes/journal_trust.h"
#include "probes/loop_fs.h"
#include "probes/write_cache.h"

namespace disktune {
namespace {

namespace fs = std::filesystem;
using testing_util::MakeTempDir;
using testing_util::SysfsValue;

class DeviceJournalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeTempDir("journal_test");
    ASSERT_FALSE(dir_.empty());
    path_ = dir_ + "/state/journal.json";
    // Regular files under dir_/sys stand in for sysfs attributes.
    SetJournalSysRootForTesting(dir_ + "/sys");
  }
  void TearDown() override {
    SetJournalSysRootForTesting("/sys");
    fs::remove_all(dir_);
  }

  // A stand-in for /sys/block/<name>/queue/write_cache holding `value`.
  std::string FakeAttr(const std::string& value,
                       const std::string& name = "fake0") {
    std::string d = dir_ + "/sys/block/" + name + "/queue";
    fs::create_directories(d);
    WriteFile(d + "/write_cache", value + "\n");
    return d + "/write_cache";
  }

  void WriteFile(const std::string& p, const std::string& text) {
    std::ofstream(p) << text;
  }

  // Runs `change` in a child that then dies by SIGKILL: no destructor, no
  // exit handler: what a crash or `kill -9` leaves.
  template <typename F>
  void RunAndKill(F change) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      change();
      raise(SIGKILL);
      _exit(1);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status));
    ASSERT_EQ(WTERMSIG(status), SIGKILL);
  }

  // An image file in dir_, journaled by a process killed before it could
  // delete it.
  std::string KilledWithJournaledImage() {
    std::string image = dir_ + "/fsmatrix-ext4.img";
    WriteFile(image, "data");
    RunAndKill([&] {
      JournalEntry e;
      e.kind = kJournalImageFile;
      e.target = image;
      e.description = "test image";
      // Journaled by identity, as the filesystem matrix does.
      int dfd = open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (dfd < 0 || !RecordIdentity(dfd, "fsmatrix-ext4.img", &e).ok())
        _exit(2);
      close(dfd);
      if (!DeviceJournal(path_).Add(e).ok()) _exit(2);
    });
    return image;
  }

  std::string dir_, path_;
};

JournalEntry CacheEntry(const std::string& target) {
  JournalEntry e;
  e.kind = "kernel_write_cache";
  e.target = target;
  e.original = "write back";
  e.applied = "write through";
  e.description = "write cache of test";
  return e;
}

TEST_F(DeviceJournalTest, AddLoadRemove) {
  DeviceJournal j(path_);
  auto a = j.Add(CacheEntry("/nonexistent/a"));
  auto b = j.Add(CacheEntry("/nonexistent/b"));
  ASSERT_TRUE(a.ok() && b.ok()) << a.status().ToString();
  auto loaded = j.Load();
  ASSERT_TRUE(loaded.ok());
  ASSERT_EQ(loaded->size(), 2u);
  EXPECT_EQ((*loaded)[0].pid, getpid());
  EXPECT_EQ((*loaded)[0].target, "/nonexistent/a");
  EXPECT_TRUE(JournalOwnerAlive((*loaded)[0]));
  ASSERT_TRUE(j.Remove(*a).ok());
  ASSERT_EQ(j.Load()->size(), 1u);
  ASSERT_TRUE(j.Remove(*b).ok());
  EXPECT_FALSE(fs::exists(path_)) << "an empty journal is no journal";
  EXPECT_TRUE(j.Load()->empty());
}

TEST_F(DeviceJournalTest, KilledProcessIsReplayed) {
  std::string attr = FakeAttr("write back");
  RunAndKill([&] {
    DeviceJournal j(path_);
    if (!j.Add(CacheEntry(attr)).ok()) _exit(2);
    if (!WriteSysfs(attr, "write through").ok()) _exit(3);
  });
  EXPECT_EQ(SysfsValue(attr), "write through");
  DeviceJournal j(path_);
  auto entries = j.Load();
  ASSERT_TRUE(entries.ok());
  ASSERT_EQ(entries->size(), 1u);
  EXPECT_FALSE(JournalOwnerAlive((*entries)[0]));

  auto out = j.Restore(/*include_own=*/false);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_EQ(out->restored.size(), 1u);
  EXPECT_NE(out->restored[0].find("put back 'write back'"), std::string::npos)
      << out->restored[0];
  EXPECT_TRUE(out->failed.empty());
  EXPECT_EQ(SysfsValue(attr), "write back");
  EXPECT_FALSE(fs::exists(path_));
  // A second replay has nothing to do.
  EXPECT_TRUE(j.Restore(false)->restored.empty());
}

TEST_F(DeviceJournalTest, EntriesOfRunningProcessesAreLeftAlone) {
  std::string attr = FakeAttr("write through");
  DeviceJournal j(path_);
  ASSERT_TRUE(j.Add(CacheEntry(attr)).ok());
  auto out = j.Restore(/*include_own=*/false);
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out->restored.empty());
  EXPECT_EQ(SysfsValue(attr), "write through");
  EXPECT_EQ(j.Load()->size(), 1u);
  // The owner (this process) restores its own.
  out = j.Restore(/*include_own=*/true);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->restored.size(), 1u);
  EXPECT_EQ(SysfsValue(attr), "write back");
}

TEST_F(DeviceJournalTest, ImageEntryDeletesTheImage) {
  std::string image = KilledWithJournaledImage();
  if (HasFatalFailure()) return;
  auto out = DeviceJournal(path_).Restore(false);
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out->restored.size(), 1u);
  EXPECT_FALSE(fs::exists(image));
}

TEST_F(DeviceJournalTest, CorruptJournalIsOneClearError) {
  fs::create_directories(fs::path(path_).parent_path());
  WriteFile(path_, "{not json");
  auto r = DeviceJournal(path_).Load();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kCorruption);
  EXPECT_NE(r.status().message().find(path_), std::string::npos);
  WriteFile(path_, R"({"journal_version": 1, "entries": [{"kind": "mount"}]})");
  EXPECT_FALSE(DeviceJournal(path_).Load().ok());
}

TEST_F(DeviceJournalTest, UnknownKindFailsAndStays) {
  RunAndKill([&] {
    JournalEntry e;
    e.kind = "frobnicate";
    e.target = "/x";
    e.description = "future kind";
    if (!DeviceJournal(path_).Add(e).ok()) _exit(2);
  });
  auto out = DeviceJournal(path_).Restore(false);
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out->failed.size(), 1u);
  EXPECT_EQ(DeviceJournal(path_).Load()->size(), 1u);
}

TEST_F(DeviceJournalTest, DefaultPathIsFixed) {
  const char* saved = getenv("DISKTUNE_JOURNAL");
  std::string keep = saved ? saved : "";
  unsetenv("DISKTUNE_JOURNAL");
  EXPECT_EQ(DeviceJournal::DefaultPath(), "/var/lib/disktune/journal.json");
  setenv("DISKTUNE_JOURNAL", "/tmp/x.json", 1);
  EXPECT_EQ(DeviceJournal::DefaultPath(), "/tmp/x.json");
  if (saved) {
    setenv("DISKTUNE_JOURNAL", keep.c_str(), 1);
  } else {
    unsetenv("DISKTUNE_JOURNAL");
  }
}

// The real thing: a loop device's write_cache switched by a process that is
// then killed, put back by the replay.
TEST_F(DeviceJournalTest, KilledSwitchOfALoopDeviceIsReplayed) {
  std::string why = testing_util::LoopSkipReason();
  if (!why.empty()) GTEST_SKIP() << why;
  SetJournalSysRootForTesting("/sys");
  DeviceJournal j(path_);
  auto lfs = LoopFs::Create(dir_, "ext4", 64ull << 20, &j);
  ASSERT_TRUE(lfs.ok()) << lfs.status().ToString();
  std::string attr = "/sys/block/" + (*lfs)->loop_name() + "/queue/write_cache";
  // Whatever state the machine's loop devices start in, switch to the other.
  std::string original = SysfsValue(attr);
  std::string other = original == "write back" ? "write through" : "write back";
  RunAndKill([&] {
    JournalEntry e = CacheEntry(attr);
    e.original = original;
    e.applied = other;
    if (!DeviceJournal(path_).Add(e).ok()) _exit(2);
    if (!WriteCacheSwitch(CacheSwitchKind::kKernelView, attr, other).ok())
      _exit(3);
  });
  EXPECT_EQ(SysfsValue(attr), other);
  auto out = j.Restore(false);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->restored.size(), 1u);
  EXPECT_EQ(SysfsValue(attr), original);
  EXPECT_TRUE((*lfs)->Teardown().ok());
}

// The loop number is reused by the next losetup: an entry about the old
// device must not switch the new one.
TEST_F(DeviceJournalTest, ReusedLoopNumberIsLeftAlone) {
  std::string why = testing_util::LoopSkipReason();
  if (!why.empty()) GTEST_SKIP() << why;
  SetJournalSysRootForTesting("/sys");
  DeviceJournal j(path_);
  std::string attr, original, other;
  {
    auto a = LoopFs::Create(dir_, "ext4", 64ull << 20, &j);
    ASSERT_TRUE(a.ok()) << a.status().ToString();
    attr = "/sys/block/" + (*a)->loop_name() + "/queue/write_cache";
    original = SysfsValue(attr);
    other = original == "write back" ? "write through" : "write back";
    RunAndKill([&] {
      JournalEntry e = CacheEntry(attr);
      e.original = other;  // what a replay would write
      e.applied = original;
      if (!DeviceJournal(path_).Add(e).ok()) _exit(2);
    });
    ASSERT_TRUE((*a)->Teardown().ok());
  }
  std::string dir2 = dir_ + "/disktune-second";
  fs::create_directories(dir2);
  auto b = LoopFs::Create(dir2, "ext4", 64ull << 20, &j);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  std::string attr_b = "/sys/block/" + (*b)->loop_name() + "/queue/write_cache";
  std::string before = SysfsValue(attr_b);
  auto out = j.Restore(false);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(SysfsValue(attr_b), before) << "a reused loop number was switched";
  ASSERT_EQ(out->restored.size(), 1u);
  EXPECT_NE(out->restored[0].find("left alone"), std::string::npos)
      << out->restored[0];
  EXPECT_TRUE((*b)->Teardown().ok());
}

TEST_F(DeviceJournalTest, EntriesNamingOtherFilesAreRefused) {
  std::string victim = dir_ + "/victim.txt";
  WriteFile(victim, "operator's data");
  std::string cache_victim = dir_ + "/settings.conf";
  WriteFile(cache_victim, "keep me");
  RunAndKill([&] {
    DeviceJournal jj(path_);
    JournalEntry img;
    img.kind = kJournalImageFile;
    img.target = victim;
    img.description = "not an image";
    JournalEntry cache = CacheEntry(cache_victim);
    JournalEntry mnt;
    mnt.kind = kJournalMount;
    mnt.target = "/home";
    mnt.description = "not ours";
    if (!jj.Add(img).ok() || !jj.Add(cache).ok() || !jj.Add(mnt).ok()) _exit(2);
  });
  auto out = DeviceJournal(path_).Restore(false);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(out->restored.empty());
  ASSERT_EQ(out->failed.size(), 3u);
  for (const auto& f : out->failed)
    EXPECT_NE(f.find("refused"), std::string::npos) << f;
  EXPECT_TRUE(fs::exists(victim));
  EXPECT_EQ(SysfsValue(cache_victim), "keep me");
}

TEST_F(DeviceJournalTest, JournalRootDoesNotOwnIsRefused) {
  if (geteuid() != 0) GTEST_SKIP() << "the ownership rule applies to root";
  std::string image = KilledWithJournaledImage();
  if (HasFatalFailure()) return;
  // Handed to an unprivileged user: root must not act on it any more.
  ASSERT_EQ(chown(path_.c_str(), 65534, 65534), 0);
  auto out = DeviceJournal(path_).Restore(false);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), Status::Code::kPermissionDenied);
  EXPECT_NE(out.status().message().find("uid 65534"), std::string::npos)
      << out.status().message();
  EXPECT_TRUE(fs::exists(image));
  // Root's again, but in a directory everyone may write.
  ASSERT_EQ(chown(path_.c_str(), 0, 0), 0);
  ASSERT_EQ(chmod(fs::path(path_).parent_path().c_str(), 0777), 0);
  out = DeviceJournal(path_).Restore(false);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("everyone may write"),
            std::string::npos)
      << out.status().message();
  EXPECT_TRUE(fs::exists(image));
  ASSERT_EQ(chmod(fs::path(path_).parent_path().c_str(), 0755), 0);
  out = DeviceJournal(path_).Restore(false);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_FALSE(fs::exists(image));
}

}  // namespace
}  // namespace disktune
