// --throttle: the flag's syntax; the throttled device made and removed
// without a trace (cgroup v1; v2 skips with the reason when its io
// controller is not available); a short direct-I/O read loop whose IOPS
// lands within 15% of the limit; and a SIGKILLed owner cleaned up by the
// journal. Root and loop parts skip with the reason when they cannot run.
#include "probes/throttled_device.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "probes/durability_test_util.h"
#include "src/core/sysinfo.h"

namespace disktune {
namespace {

namespace fs = std::filesystem;
using testing_util::LoopsMention;
using testing_util::MountsMention;

TEST(ThrottleSpecTest, ClassesAndLimits) {
  Result<ThrottleSpec> hdd = ParseThrottle("hdd");
  ASSERT_TRUE(hdd.ok());
  EXPECT_EQ(hdd->class_name, "hdd");
  EXPECT_EQ(hdd->limits.read_iops, 150u);
  EXPECT_EQ(hdd->limits.write_bytes_per_sec, 150000000u);
  EXPECT_EQ(hdd->emulates, std::vector<std::string>{"rates"});
  Result<ThrottleSpec> cloud = ParseThrottle("cloud,wiops=1000");
  ASSERT_TRUE(cloud.ok());
  EXPECT_EQ(cloud->limits.read_iops, 3000u);
  EXPECT_EQ(cloud->limits.write_iops, 1000u);
  EXPECT_EQ(cloud->limits.read_bytes_per_sec, 125u << 20);
  Result<ThrottleSpec> custom = ParseThrottle("riops=200,wbps=100MB");
  ASSERT_TRUE(custom.ok());
  EXPECT_EQ(custom->class_name, "custom");
  EXPECT_EQ(custom->limits.read_iops, 200u);
  EXPECT_FALSE(custom->limits.write_iops);
  EXPECT_EQ(custom->limits.write_bytes_per_sec, 100000000u);
  EXPECT_EQ(DescribeThrottleLimits(custom->limits),
            "200 IOPS read, 100.0 MB/s write");
  Result<ThrottleSpec> both = ParseThrottle("iops=500");
  ASSERT_TRUE(both.ok());
  EXPECT_EQ(both->limits.write_iops, 500u);
}

TEST(ThrottleSpecTest, BadInputSaysWhatIsValid) {
  for (const char* bad : {"", "ssd", "riops=0", "riops=x", "rbps=100",
                          "wbps=1KiB", "hdd,", "riops=5,hdd", "foo=1"}) {
    Result<ThrottleSpec> s = ParseThrottle(bad);
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_EQ(s.status().code(), Status::Code::kInvalidArgument) << bad;
    EXPECT_NE(s.status().message().find("valid: hdd, cloud"), std::string::npos)
        << s.status().message();
  }
}

TEST(ThrottleSpecTest, AccountingRoundTrips) {
  ThrottleRecord r;
  r.spec = *ParseThrottle("hdd");
  r.mechanism = "cgroup v1 blkio.throttle";
  r.cgroup_version = 1;
  r.accounting = ThrottleAccounting{0, 1000, 0, 900};
  EXPECT_EQ(r.accounting->EscapedBytes(), 100u);
  EXPECT_DOUBLE_EQ(*r.accounting->EscapedShare(), 0.1);
  nlohmann::json j = r;
  ThrottleRecord back = j.get<ThrottleRecord>();
  EXPECT_EQ(back.spec.limits, r.spec.limits);
  EXPECT_EQ(back.accounting->charged_write_bytes, 900u);
  EXPECT_NE(ThrottleBanner(r).find("hdd class"), std::string::npos);
  EXPECT_NE(ThrottleEscapeLine(r).find("10.0% escaped"), std::string::npos);
}

class ThrottledDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why = testing_util::LoopSkipReason();
    if (!why.empty()) GTEST_SKIP() << why;
    if (FindCgroupMounts().v1_blkio.empty())
      GTEST_SKIP() << "cgroup v1 blkio is not mounted";
    dir_ = testing_util::MakeTempDir("throttle_test");
    ASSERT_FALSE(dir_.empty());
    journal_ = std::make_unique<DeviceJournal>(dir_ + "/journal.json");
  }
  void TearDown() override {
    if (!dir_.empty()) {
      if (journal_) (void)journal_->Restore(true);
      fs::remove_all(dir_);
    }
  }
  Result<std::unique_ptr<ThrottledDevice>> Make(const std::string& text,
                                                int version = 1) {
    return ThrottledDevice::Create(dir_, "ext4", 1ull << 30,
                                   *ParseThrottle(text), version,
                                   journal_.get());
  }
  static std::string OwnBlkioCgroup() {
    std::ifstream in("/proc/self/cgroup");
    for (std::string line; std::getline(in, line);) {
      if (line.find(":blkio:") != std::string::npos) return line;
    }
    return "";
  }
  std::string dir_;
  std::unique_ptr<DeviceJournal> journal_;
};

TEST_F(ThrottledDeviceTest, V1SetupAndTeardownLeaveNoTrace) {
  auto d = Make("riops=300,wiops=200,rbps=50MB,wbps=40MB");
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  ThrottledDevice& t = **d;
  std::string cg = t.cgroup().path(), dev = t.loop_fs().device_number();
  EXPECT_EQ(t.cgroup().mechanism(), "cgroup v1 blkio.throttle");
  EXPECT_EQ(testing_util::SysfsValue("/sys/block/" + t.loop_fs().loop_name() +
                                     "/loop/dio"),
            "1");
  EXPECT_EQ(testing_util::SysfsValue(cg + "/blkio.throttle.read_iops_device"),
            dev + " 300");
  EXPECT_EQ(testing_util::SysfsValue(cg + "/blkio.throttle.write_bps_device"),
            dev + " 40000000");
  EXPECT_EQ(journal_->Load()->size(), 4u);  // image, loop, mount, cgroup
  std::string before = OwnBlkioCgroup();
  ASSERT_TRUE(t.Enter().ok());
  EXPECT_NE(OwnBlkioCgroup().find("disktune-throttle-"), std::string::npos);
  ASSERT_TRUE(t.Leave().ok());
  EXPECT_EQ(OwnBlkioCgroup(), before);
  std::string image = t.loop_fs().image();
  ASSERT_TRUE(t.Teardown().ok());
  EXPECT_FALSE(fs::exists(cg));
  EXPECT_FALSE(MountsMention(dir_));
  EXPECT_FALSE(LoopsMention(dir_));
  EXPECT_FALSE(fs::exists(image));
  EXPECT_TRUE(journal_->Load()->empty());
}

TEST_F(ThrottledDeviceTest, V2SetupAndTeardownWhereAvailable) {
  std::string why = CgroupV2Unavailable(FindCgroupMounts());
  if (!why.empty()) GTEST_SKIP() << "cgroup v2 io.max: " << why;
  auto d = Make("riops=300", 2);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  std::string cg = (*d)->cgroup().path();
  EXPECT_NE(testing_util::SysfsValue(cg + "/io.max").find("riops=300"),
            std::string::npos);
  ASSERT_TRUE((*d)->Teardown().ok());
  EXPECT_FALSE(fs::exists(cg));
  EXPECT_TRUE(journal_->Load()->empty());
}

TEST_F(ThrottledDeviceTest, ReadIopsLandWithin15PercentOfTheLimit) {
  constexpr int kLimit = 400;
  auto d = Make("riops=" + std::to_string(kLimit));
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  ThrottledDevice& t = **d;
  std::string file = t.mount_point() + "/data";
  {
    std::ofstream out(file);
    std::string mib(1 << 20, 'x');
    for (int i = 0; i < 32; i++) out << mib;
  }
  sync();
  int fd = open(file.c_str(), O_RDONLY | O_DIRECT);
  ASSERT_GE(fd, 0);
  void* buf = nullptr;
  ASSERT_EQ(posix_memalign(&buf, 4096, 4096), 0);
  ASSERT_TRUE(t.Enter().ok());
  std::mt19937_64 rng(7);
  // A second of warm-up spends the slice's initial allowance.
  auto run = [&](double seconds) {
    int ops = 0;
    auto start = std::chrono::steady_clock::now();
    while (
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count() < seconds) {
      off_t off = static_cast<off_t>(rng() % 8192) * 4096;
      if (pread(fd, buf, 4096, off) != 4096) return -1;
      ops++;
    }
    return ops;
  };
  ASSERT_GE(run(1.0), 0);
  auto start = std::chrono::steady_clock::now();
  int ops = run(3.0);
  double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  ThrottleAccounting a = t.Snapshot();
  ASSERT_TRUE(t.Leave().ok());
  free(buf);
  close(fd);
  ASSERT_GT(ops, 0);
  double iops = ops / secs;
  EXPECT_NEAR(iops, kLimit, kLimit * 0.15);
  EXPECT_GE(a.charged_read_bytes, static_cast<uint64_t>(ops) * 4096);
  ASSERT_TRUE(t.Teardown().ok());
}

TEST_F(ThrottledDeviceTest, KilledOwnerIsCleanedByTheJournal) {
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  pid_t pid = fork();
  if (pid == 0) {
    auto d = Make("riops=300");
    if (!d.ok() || !(*d)->Enter().ok()) _exit(1);
    char c = 'r';
    if (write(ready[1], &c, 1) != 1) _exit(1);
    pause();
    _exit(0);
  }
  close(ready[1]);
  char c = 0;
  ASSERT_EQ(read(ready[0], &c, 1), 1);
  close(ready[0]);
  std::string cg =
      FindCgroupMounts().v1_blkio + "/disktune-throttle-" + std::to_string(pid);
  ASSERT_TRUE(fs::exists(cg));
  ASSERT_TRUE(MountsMention(dir_));
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  Result<RestoreOutcome> o = journal_->Restore(false);
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_TRUE(o->failed.empty());
  EXPECT_EQ(o->restored.size(), 4u);
  EXPECT_FALSE(fs::exists(cg));
  EXPECT_FALSE(MountsMention(dir_));
  EXPECT_FALSE(LoopsMention(dir_));
  EXPECT_TRUE(journal_->Load()->empty());
}

}  // namespace
}  // namespace disktune
