// Runs the block I/O probes for a fraction of a second on the real disk
// (the build directory's filesystem) and checks what must hold physically.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <map>

#include "probes/block_io_probes.h"
#include "probes/probe_runner.h"
#include "probes/test_file.h"
#include "src/core/scratch_dir.h"

namespace disktune {
namespace {

class BlockIoProbeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // The current directory is under the build tree, on the real disk
    // (TempDir() may be a tmpfs, where O_DIRECT is refused).
    std::string tmpl =
        std::filesystem::current_path().string() + "/blockio_test_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
    auto s = ScratchDir::Create(root_);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    scratch_ = std::move(*s);
    std::string why;
    auto direct = ProbeDirectIo(scratch_->path(), &why);
    ASSERT_TRUE(direct.ok());
    if (!*direct)
      GTEST_SKIP() << "the build directory's filesystem refuses O_DIRECT: "
                   << why;
  }
  void TearDown() override {
    scratch_.reset();
    std::filesystem::remove_all(root_);
  }
  ProbeConfig ShortConfig() {
    ProbeConfig c = ProbeConfig::Defaults(true);
    c.file_size_bytes = 64ull << 20;
    c.duration_ns = 300000000;
    c.warmup_ns = 50000000;
    return c;
  }
  std::string root_;
  std::unique_ptr<ScratchDir> scratch_;
};

TEST_F(BlockIoProbeTest, SequentialOneMiBBeatsFourKiBBandwidth) {
  ProbeConfig c = ShortConfig();
  auto probes = SelectProbes({"seq_read"});
  ASSERT_TRUE(probes.ok());
  Environment env = CollectEnvironment(scratch_->path());
  ProbeRunOutput out;
  NullProgress np;
  ASSERT_TRUE(RunProbes(*probes, c, *scratch_, env, &np, &out).ok());
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
  ASSERT_TRUE(out.analyses.contains("page_cache"));
  EXPECT_TRUE(out.analyses["page_cache"]["bypassed"].get<bool>());
}

TEST_F(BlockIoProbeTest, IopsDoNotFallAsDepthGrowsToSaturation) {
  ProbeConfig c = ShortConfig();
  c.queue_depths = {1, 4, 16};
  auto probes = SelectProbes({"rand_read"});
  ASSERT_TRUE(probes.ok());
  Environment env = CollectEnvironment(scratch_->path());
  ProbeRunOutput out;
  NullProgress np;
  ASSERT_TRUE(RunProbes(*probes, c, *scratch_, env, &np, &out).ok());
  ASSERT_EQ(out.results.size(), 3u);
  std::map<int, double> iops;
  for (const auto& r : out.results) {
    ASSERT_EQ(r.status, ProbeStatus::kOk) << r.error;
    iops[*r.params.queue_depth] = *r.iops;
  }
  ASSERT_TRUE(out.analyses.contains("rand_read_saturation"));
  int sat = out.analyses["rand_read_saturation"]["queue_depth"];
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
  auto probes = SelectProbes({"seq_write", "rand_write"});
  ASSERT_TRUE(probes.ok());
  Environment env = CollectEnvironment(scratch_->path());
  ProbeRunOutput out;
  NullProgress np;
  ASSERT_TRUE(RunProbes(*probes, c, *scratch_, env, &np, &out).ok());
  ASSERT_EQ(out.results.size(), 4u);
  for (const auto& r : out.results) {
    ASSERT_EQ(r.status, ProbeStatus::kOk) << r.name << ": " << r.error;
    EXPECT_GT(*r.bytes_per_sec, 0);
    EXPECT_GT(r.latency_ns->p50, 0u);
    EXPECT_LE(r.latency_ns->p50, r.latency_ns->p99);
  }
  EXPECT_GT(out.bytes_written, c.file_size_bytes);
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
