// The probe points measured for a prediction are the ones
// predict::ModelProbeArgs() names: the flags read from it.
#include "src/cli/predict_inputs.h"

#include <gtest/gtest.h>

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
  EXPECT_TRUE(BuildProbeConfig(*f).ok());
}

}  // namespace
}  // namespace disktune::cli
