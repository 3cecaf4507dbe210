#include "src/bench/process_stats.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "src/bench/anon_rss_sampler.h"
#include "src/core/clock.h"

namespace disktune::bench {
namespace {

std::string TestDir(const char* name) {
  // Under the build directory, not /tmp, which may be tmpfs.
  std::string dir = std::filesystem::current_path().string() + "/" + name +
                    "." + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

void WriteFile(const std::string& path, size_t bytes, bool sync) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  std::string chunk(1 << 16, 'x');
  for (size_t done = 0; done < bytes; done += chunk.size()) {
    ASSERT_EQ(write(fd, chunk.data(), chunk.size()),
              static_cast<ssize_t>(chunk.size()));
  }
  if (sync) fsync(fd);
  close(fd);
}

TEST(ProcessStatsTest, ParsesProcIo) {
  ProcIo io = ParseProcIo(
      "rchar: 6976\nwchar: 0\nsyscr: 10\nsyscw: 0\nread_bytes: 4096\n"
      "write_bytes: 1048576\ncancelled_write_bytes: 8192\n");
  EXPECT_EQ(io.read_bytes, 4096u);
  EXPECT_EQ(io.write_bytes, 1048576u);
  EXPECT_EQ(io.cancelled_write_bytes, 8192u);
  EXPECT_FALSE(ParseProcIo("garbage").write_bytes);
}

TEST(ProcessStatsTest, ParsesVmHwm) {
  EXPECT_EQ(ParseVmHwm("Name:\tx\nVmPeak:\t  100 kB\nVmHWM:\t    2048 kB\n"),
            2048u * 1024);
  EXPECT_FALSE(ParseVmHwm("VmRSS:\t 1 kB\n"));
  EXPECT_EQ(ParseStatusBytes("VmRSS:\t 9 kB\nRssAnon:\t   512 kB\n", "RssAnon"),
            512u * 1024);
  EXPECT_FALSE(ParseStatusBytes("RssAnonX:\t 1 kB\n", "RssAnon"));
}

// A 96 MiB buffer touched and freed while the sampler runs is in its peak,
// though the process's RssAnon is back down when it stops.
TEST(ProcessStatsTest, AnonRssSamplerKeepsThePeak) {
  std::optional<uint64_t> base = AnonRss();
  if (!base) GTEST_SKIP() << "/proc/self/status has no RssAnon";
  AnonRssSampler sampler(std::chrono::milliseconds(5));
  {
    std::vector<char> big(96 << 20);
    for (size_t i = 0; i < big.size(); i += 4096) big[i] = 1;
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    EXPECT_EQ(big[4096], 1);
  }
  std::optional<uint64_t> peak = sampler.Stop();
  ASSERT_TRUE(peak);
  EXPECT_GE(*peak, *base + (90u << 20));
  EXPECT_LT(AnonRss().value_or(0), *base + (48u << 20));
  EXPECT_EQ(sampler.Stop(), peak);
}

TEST(ProcessStatsTest, CpuTimeAndPeakRssMove) {
  ProcessSnapshot a = TakeProcessSnapshot();
  volatile uint64_t x = 0;
  uint64_t until = NowNanos() + 50'000'000;
  while (NowNanos() < until) x = x + 1;
  // Touch 64 MiB so the high-water mark must rise above it.
  std::string big(64 << 20, 'a');
  ProcessSnapshot b = TakeProcessSnapshot();
  EXPECT_GT(b.cpu_user_ns + b.cpu_system_ns, a.cpu_user_ns + a.cpu_system_ns);
  ASSERT_TRUE(b.peak_rss_bytes);
  EXPECT_GT(*b.peak_rss_bytes, 64u << 20);
  EXPECT_EQ(big[12345], 'a');
}

TEST(ProcessStatsTest, ResetPeakRssLowersTheMark) {
  {
    std::string big(128 << 20, 'b');
    EXPECT_EQ(big[777], 'b');
  }
  uint64_t before = TakeProcessSnapshot().peak_rss_bytes.value_or(0);
  if (!ResetPeakRss()) GTEST_SKIP() << "kernel refused /proc/self/clear_refs";
  uint64_t after = TakeProcessSnapshot().peak_rss_bytes.value_or(0);
  EXPECT_LT(after, before);
}

TEST(ProcessStatsTest, CountsDeviceWrites) {
  std::string dir = TestDir("ps_writes");
  if (OnMemoryFilesystem(dir)) GTEST_SKIP() << dir << " is on tmpfs";
  ProcessSnapshot a = TakeProcessSnapshot();
  if (!a.device_write_bytes) GTEST_SKIP() << "/proc/self/io not readable";
  WriteFile(dir + "/f", 8 << 20, true);
  ProcessSnapshot b = TakeProcessSnapshot();
  EXPECT_GE(*b.device_write_bytes - *a.device_write_bytes, 8u << 20);
  std::filesystem::remove_all(dir);
}

TEST(ProcessStatsTest, DirSizeOnDiskSumsAllocatedBlocks) {
  std::string dir = TestDir("ps_size");
  WriteFile(dir + "/a", 1 << 20, false);
  std::filesystem::create_directories(dir + "/sub");
  WriteFile(dir + "/sub/b", 3 << 20, false);
  auto size = DirSizeOnDisk(dir);
  ASSERT_TRUE(size.ok()) << size.status().ToString();
  EXPECT_GE(*size, 4u << 20);
  EXPECT_LT(*size, 5u << 20);
  EXPECT_EQ(DirSizeOnDisk(dir + "/missing").status().code(),
            Status::Code::kNotFound);
  std::filesystem::remove_all(dir);
}

TEST(ProcessStatsTest, FadviseEvictsTheFilesFromThePageCache) {
  std::string dir = TestDir("ps_evict");
  if (OnMemoryFilesystem(dir)) GTEST_SKIP() << "tmpfs pages cannot be evicted";
  WriteFile(dir + "/db", 4 << 20, false);
  auto resident = ResidentBytes(dir);
  ASSERT_TRUE(resident.ok());
  EXPECT_GT(*resident, 0u);  // just written: in the page cache
  auto report = EvictFromPageCache(dir, PageCachePolicy::kFadvise);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->method, "fadvise_dontneed");
  EXPECT_EQ(report->file_bytes, 4u << 20);
  ASSERT_TRUE(report->resident_bytes_after);
  EXPECT_LT(*report->resident_bytes_after, 64u << 10);
  std::filesystem::remove_all(dir);
}

TEST(ProcessStatsTest, KeepPolicyLeavesTheCache) {
  std::string dir = TestDir("ps_keep");
  WriteFile(dir + "/db", 1 << 20, false);
  auto report = EvictFromPageCache(dir, PageCachePolicy::kKeep);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->method, "none");
  std::filesystem::remove_all(dir);
}

TEST(ProcessStatsTest, PolicyNames) {
  EXPECT_EQ(ParsePageCachePolicy("fadvise"), PageCachePolicy::kFadvise);
  EXPECT_EQ(ParsePageCachePolicy("drop"), PageCachePolicy::kDrop);
  EXPECT_FALSE(ParsePageCachePolicy("flush"));
}

}  // namespace
}  // namespace disktune::bench
