// Runs the block I/O probes for a fraction of a second on the real disk
// (the build directory's filesystem) and checks what must hold physically.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <map>

#include "probes/block_io_probes.h"
#include "probes/device_info.h"
#include "probes/environment.h"
#include "probes/fio_runner.h"
#include "probes/probe_runner.h"
#include "probes/run_probes_for_test.h"
#include "probes/test_file.h"
#include "src/core/scratch_dir.h"
#include "tests/test_support.h"

namespace disktune {
namespace {

// Why `dir`'s filesystem refuses O_DIRECT, or "" where it takes it.
std::string DirectIoRefused(const std::string& dir) {
  std::string why;
  int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  EXPECT_GE(fd, 0) << dir;
  auto direct = ProbeDirectIo(fd, dir, &why);
  close(fd);
  EXPECT_TRUE(direct.ok());
  if (!direct.ok() || *direct) return "";
  return why;
}

// Runs the probes `ids` with `c` in `scratch`, on its environment.
ProbeRunOutput RunProbeIds(const std::vector<std::string>& ids,
                           const ProbeConfig& c, ScratchDir& scratch) {
  return testing::RunProbeIds(ids, c, scratch,
                              CollectEnvironment(scratch.path()));
}

// The current directory is under the build tree, on the real disk (TempDir()
// may be a tmpfs, where O_DIRECT is refused).
class BlockIoProbeTest : public testing::ScratchDirTest {
 protected:
  BlockIoProbeTest() : ScratchDirTest("blockio_test_") {}
  void SetUp() override {
    ScratchDirTest::SetUp();
    if (HasFatalFailure()) return;
    std::string why = DirectIoRefused(scratch_->path());
    if (!why.empty())
      GTEST_SKIP() << "the build directory's filesystem refuses O_DIRECT: "
                   << why;
  }
  ProbeConfig ShortConfig() {
    ProbeConfig c = ProbeConfig::Defaults(true);
    c.file_size_bytes = 64ull << 20;
    c.duration_ns = 300000000;
    c.warmup_ns = 50000000;
    return c;
  }
};

TEST_F(BlockIoProbeTest, SequentialOneMiBBeatsFourKiBBandwidth) {
  ProbeConfig c = ShortConfig();
  ProbeRunOutput out = RunProbeIds({"seq_read"}, c, *scratch_);
  if (HasFailure()) return;
  ASSERT_EQ(out.results.size(), 2u);
  const ProbeResult& small = out.results[0];
  const ProbeResult& big = out.results[1];
  ASSERT_EQ(small.status, ProbeStatus::kOk) << small.error;
  ASSERT_EQ(big.status, ProbeStatus::kOk) << big.error;
  EXPECT_EQ(small.name, "seq_read.4k.qd1");
  EXPECT_EQ(big.name, "seq_read.1m.qd1");
  EXPECT_GT(*big.bytes_per_sec, *small.bytes_per_sec);
  EXPECT_GT(*small.samples, 10u);
  EXPECT_TRUE(*small.params.direct);
  // The O_DIRECT reads left the test file out of the page cache.
  ASSERT_TRUE(out.analyses.page_cache);
  EXPECT_TRUE(out.analyses.page_cache->bypassed);
}

TEST_F(BlockIoProbeTest, IopsDoNotFallAsDepthGrowsToSaturation) {
  ProbeConfig c = ShortConfig();
  c.queue_depths = {1, 4, 16};
  ProbeRunOutput out = RunProbeIds({"rand_read"}, c, *scratch_);
  if (HasFailure()) return;
  ASSERT_EQ(out.results.size(), 3u);
  std::map<int, double> iops;
  for (const auto& r : out.results) {
    ASSERT_EQ(r.status, ProbeStatus::kOk) << r.error;
    iops[*r.params.queue_depth] = *r.iops;
    // A read's time is under its depth's share of the run, never wrapped.
    ASSERT_TRUE(r.latency_ns);
    EXPECT_LT(r.latency_ns->mean, 60e9) << r.name;
  }
  ASSERT_TRUE(out.analyses.rand_read_saturation);
  int sat = out.analyses.rand_read_saturation->queue_depth;
  // Up to the saturation depth, more outstanding I/O must not lose throughput
  // (10% allowance for noise on a shared virtual disk).
  double prev = 0;
  for (auto [qd, v] : iops) {
    if (qd > sat) break;
    EXPECT_GE(v, 0.9 * prev) << "qd " << qd;
    prev = v;
  }
  EXPECT_GE(iops[16], iops[1]);
}

TEST_F(BlockIoProbeTest, WritesReportBandwidth) {
  ProbeConfig c = ShortConfig();
  ProbeRunOutput out = RunProbeIds({"seq_write", "rand_write"}, c, *scratch_);
  if (HasFailure()) return;
  ASSERT_EQ(out.results.size(), 4u);
  for (const auto& r : out.results) {
    ASSERT_EQ(r.status, ProbeStatus::kOk) << r.name << ": " << r.error;
    EXPECT_GT(*r.bytes_per_sec, 0);
    EXPECT_GT(r.latency_ns->p50, 0u);
    EXPECT_LE(r.latency_ns->p50, r.latency_ns->p99);
    // No I/O of a short probe takes a minute: a completion timed before
    // its submit would wrap around to centuries.
    EXPECT_LT(r.latency_ns->max, 60e9) << r.name;
    EXPECT_LT(r.latency_ns->mean, 60e9) << r.name;
  }
  EXPECT_GT(out.bytes_written, c.file_size_bytes);
}

// Which loop measures a point: fio when asked and installed (its figures
// fill the result), the native loop when fio is hidden (and the result says
// why). On a small file in /var/tmp, the VM's disk.
class MeasureWithTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = "/var/tmp/measure_with_test_XXXXXX";
    if (mkdtemp(tmpl.data()) == nullptr)
      GTEST_SKIP() << "cannot create a directory in /var/tmp";
    root_ = tmpl;
    auto s = ScratchDir::Create(root_);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    scratch_ = std::move(*s);
    std::string why = DirectIoRefused(scratch_->path());
    if (!why.empty()) GTEST_SKIP() << "/var/tmp refuses O_DIRECT: " << why;
    if (const char* p = getenv("PATH")) path_ = p;
  }
  void TearDown() override {
    setenv("PATH", path_.c_str(), 1);
    scratch_.reset();
    if (!root_.empty()) std::filesystem::remove_all(root_);
  }
  // One short rand_read point at queue depth 4 under `with`.
  ProbeResult RunPoint(MeasureWith with) {
    ProbeConfig c = ProbeConfig::Defaults(true);
    c.file_size_bytes = 32ull << 20;
    c.duration_ns = 300000000;
    c.warmup_ns = 50000000;
    c.queue_depths = {4};
    c.measure_with = with;
    ProbeRunOutput out = RunProbeIds({"rand_read"}, c, *scratch_);
    if (out.results.size() != 1) {
      ADD_FAILURE() << out.results.size() << " results";
      return ProbeResult();
    }
    return out.results[0];
  }
  void HideFio() {
    // A PATH with nothing on it: fio (in /usr/bin) is not found.
    std::string empty = root_ + "/empty-path";
    std::filesystem::create_directory(empty);
    setenv("PATH", empty.c_str(), 1);
    ASSERT_FALSE(FioInstalled());
  }
  std::string root_, path_;
  std::unique_ptr<ScratchDir> scratch_;
};

TEST_F(MeasureWithTest, FioFillsTheFiguresAndSaysSo) {
  if (!FioInstalled()) GTEST_SKIP() << "fio is not installed";
  ProbeResult r = RunPoint(MeasureWith::kFio);
  ASSERT_EQ(r.status, ProbeStatus::kOk) << r.error;
  ASSERT_TRUE(r.measured_by.has_value());
  EXPECT_EQ(*r.measured_by, MeasuredBy::kFio);
  EXPECT_EQ(r.measured_by_reason, "");
  ASSERT_TRUE(r.iops && r.bytes_per_sec && r.samples && r.bytes &&
              r.elapsed_ns && r.latency_ns);
  EXPECT_GT(*r.iops, 0);
  EXPECT_GT(*r.samples, 10u);
  // fio counts the I/Os in flight when its ramp ends in one of the two.
  EXPECT_NEAR(double(*r.bytes), *r.samples * 4096.0,
              0.02 * *r.bytes + 64 * 4096);
  // fio's own figures agree with each other: IOPS x runtime = I/Os (runtime
  // is in whole milliseconds).
  EXPECT_NEAR(*r.iops * (*r.elapsed_ns / 1e9), double(*r.samples),
              0.05 * *r.samples + 2);
  EXPECT_GT(r.latency_ns->p50, 0u);
  EXPECT_LE(r.latency_ns->p50, r.latency_ns->p99);
  EXPECT_GT(r.latency_ns->samples, 0u);
  EXPECT_TRUE(r.metrics.contains("context_switches"));
  ASSERT_TRUE(r.params.extra.contains("fio_command"));
  EXPECT_NE(
      r.params.extra["fio_command"].get<std::string>().find("--iodepth=4"),
      std::string::npos);
  EXPECT_FALSE(r.fio.has_value());  // no second opinion on itself
  // auto picks fio too when it is installed.
  ProbeResult a = RunPoint(MeasureWith::kAuto);
  ASSERT_EQ(a.status, ProbeStatus::kOk) << a.error;
  EXPECT_EQ(a.measured_by, MeasuredBy::kFio);
}

TEST_F(MeasureWithTest, NativeLoopMeasuresWhenFioIsHidden) {
  HideFio();
  for (MeasureWith with : {MeasureWith::kAuto, MeasureWith::kFio}) {
    ProbeResult r = RunPoint(with);
    ASSERT_EQ(r.status, ProbeStatus::kOk) << r.error;
    ASSERT_TRUE(r.measured_by.has_value());
    EXPECT_EQ(*r.measured_by, MeasuredBy::kNative);
    EXPECT_NE(r.measured_by_reason.find("fio is not installed"),
              std::string::npos)
        << r.measured_by_reason;
    EXPECT_GT(*r.iops, 0);
    EXPECT_GT(*r.samples, 10u);
    EXPECT_TRUE(r.metrics.contains("context_switches"));
    EXPECT_FALSE(r.params.extra.contains("fio_command"));
  }
}

TEST_F(MeasureWithTest, NativeWhenAskedNeedsNoReason) {
  ProbeResult r = RunPoint(MeasureWith::kNative);
  ASSERT_EQ(r.status, ProbeStatus::kOk) << r.error;
  EXPECT_EQ(r.measured_by, MeasuredBy::kNative);
  EXPECT_EQ(r.measured_by_reason, "");
  // The result says so in its JSON, and reads back the same.
  nlohmann::json j = r;
  EXPECT_EQ(j["measured_by"], "native");
  EXPECT_FALSE(j.contains("measured_by_reason"));
  EXPECT_EQ(j.get<ProbeResult>().measured_by, MeasuredBy::kNative);
}

TEST(ProbeRegistryTest, UnknownProbeListsValidOnes) {
  auto r = SelectProbes({"seq_read", "nope"});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("unknown probe 'nope'"),
            std::string::npos);
  EXPECT_NE(r.status().message().find("rand_read"), std::string::npos);
}

TEST(DeviceInfoTest, ResolvesTheRootDisk) {
  auto d = ResolveDevice(std::filesystem::current_path().string());
  if (!d.ok()) GTEST_SKIP() << d.status().message();
  EXPECT_FALSE(d->disk.empty());
  EXPECT_FALSE(d->chain.empty());
  EXPECT_TRUE(std::filesystem::exists("/sys/block/" + d->disk)) << d->disk;
  EXPECT_TRUE(d->logical_block_size.has_value());
}

}  // namespace
}  // namespace disktune
