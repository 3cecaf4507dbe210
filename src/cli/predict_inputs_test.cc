// The probe points measured for a prediction are the ones
// predict::ModelProbeArgs() names: the flags read from it.
#include "src/cli/predict_inputs.h"

#include <gtest/gtest.h>

#include "src/predict/disk_figures.h"

namespace disktune::cli {
namespace {

TEST(ModelProbeFlags, AreTheModelsProbeArgs) {
  Result<ProbeFlags> f = ModelProbeFlags();
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_TRUE(f->quick);
  EXPECT_EQ(f->probes, (std::vector<std::string>{"seq_read", "rand_read",
                                                 "seq_write", "fsync"}));
  EXPECT_EQ(f->file_size, "64MiB");
  EXPECT_EQ(f->duration, "500ms");
  EXPECT_EQ(f->warmup, "100ms");
  EXPECT_EQ(f->queue_depths, (std::vector<int>{1, 32}));
  EXPECT_EQ(f->fsync_methods, std::vector<std::string>{"fdatasync"});
  EXPECT_EQ(f->fsync_sizes, (std::vector<std::string>{"512", "2MiB"}));
  EXPECT_EQ(f->fsync_modes, std::vector<std::string>{"append"});
  EXPECT_EQ(f->measure_with, "native");
  Result<ProbeConfig> c = BuildProbeConfig(*f);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  // The sync points run longer than the others: their tail needs counting.
  EXPECT_EQ(c->fsync_duration_ns, predict::kSyncPointNs);
  EXPECT_GT(c->fsync_duration_ns, c->duration_ns);
}

// --fsync-duration: a duration within 1ms..60s, for the fsync probe only;
// anything else is one line naming the flag and a valid value.
TEST(ModelProbeFlags, FsyncDurationOutOfRangeIsOneLine) {
  ProbeFlags f;
  f.fsync_duration = "90s";
  Result<ProbeConfig> c = BuildProbeConfig(f);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message(),
            "--fsync-duration: 90s is out of range 1ms..60s; e.g. "
            "--fsync-duration 2s");
  f.fsync_duration = "2";
  c = BuildProbeConfig(f);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message().rfind("--fsync-duration: ", 0), 0u);
  f.fsync_duration = "2s";
  f.probes = {"seq_read"};
  c = BuildProbeConfig(f);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("add fsync to --probes"),
            std::string::npos);
  f.probes = {"fsync"};
  c = BuildProbeConfig(f);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->fsync_duration_ns, 2'000'000'000u);
}

}  // namespace
}  // namespace disktune::cli
