// The runner on the real LevelDB adapter: db_bench's numbers and the faults a
// real engine reports (disk full, read-only filesystem).
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "engines/engine.h"
#include "src/bench/runner.h"
#include "src/bench/space_guard.h"

namespace disktune::bench {
namespace {

bool HaveLevelDb() {
  for (const EngineInfo& e : AvailableEngines()) {
    if (e.id == "leveldb") return true;
  }
  return false;
}

class LevelDbBenchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HaveLevelDb()) GTEST_SKIP() << "leveldb is not built in";
    root_ = std::filesystem::current_path().string() + "/leveldb_bench_test." +
            std::to_string(getpid());
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_);
  }
  void TearDown() override {
    if (!mount_.empty()) umount(mount_.c_str());
    if (!root_.empty()) std::filesystem::remove_all(root_);
  }

  BenchRequest Request(std::string scenarios, int64_t num) {
    BenchRequest req;
    req.engines = {"leveldb"};
    req.scenarios = {std::move(scenarios)};
    req.user.num = num;
    req.db_root = root_ + "/scratch";
    req.available = AvailableEngines();
    req.factory = NewEngine;
    return req;
  }

  // A tmpfs of `size` at root_/mnt, read-only if asked; false (and the reason
  // in *why) when this process may not mount.
  bool MountTmpfs(const char* size, bool read_only, std::string* why) {
    if (geteuid() != 0) {
      *why = "needs root to mount a small tmpfs";
      return false;
    }
    std::string dir = root_ + "/mnt";
    std::filesystem::create_directories(dir);
    std::string opts = std::string("size=") + size;
    if (mount("tmpfs", dir.c_str(), "tmpfs", read_only ? MS_RDONLY : 0,
              opts.c_str()) != 0) {
      *why = std::string("mount tmpfs: ") + std::strerror(errno);
      return false;
    }
    mount_ = dir;
    return true;
  }

  std::string root_;
  std::string mount_;
};

TEST_F(LevelDbBenchTest, DbBenchSemanticsOnLevelDb) {
  auto r = RunBench(Request("fillrandom,overwrite,readrandom,readseq", 20000));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 4u);
  for (const BenchResult& b : *r) {
    ASSERT_EQ(b.status, RunStatus::kOk) << b.scenario << ": " << b.error;
  }
  const BenchMetrics& read = (*r)[2].metrics;
  EXPECT_NEAR(static_cast<double>(*read.found) / *read.reads,
              1 - std::exp(-2.0), 0.015);
  // readseq sees every distinct key once.
  EXPECT_EQ((*r)[3].metrics.ops, *(*r)[3].metrics.found);
  EXPECT_NEAR(static_cast<double>((*r)[3].metrics.ops) / 20000,
              1 - std::exp(-2.0), 0.015);
  const BenchResult& fill = (*r)[0];
  EXPECT_FALSE(fill.engine_stats.empty());
  ASSERT_TRUE(fill.metrics.db_size_bytes);
  EXPECT_GT(*fill.metrics.db_size_bytes, 0u);
  ASSERT_TRUE(fill.metrics.live_data_bytes);
  EXPECT_TRUE(fill.metrics.space_amplification);
  if (fill.metrics.device_write_bytes) {
    // The log alone rewrites what the user wrote.
    EXPECT_GT(*fill.metrics.write_amplification, 0.5);
  }
}

TEST_F(LevelDbBenchTest, DiskFullMidFillIsAPartialResultWithLevelDbsError) {
  std::string why;
  if (!MountTmpfs("2m", false, &why)) GTEST_SKIP() << why;
  // LevelDB's own ENOSPC path: the free-space guard would stop it first.
  SpaceGuard::SetHeadroomForTesting(1);
  struct Reset {
    ~Reset() { SpaceGuard::SetHeadroomForTesting(0); }
  } reset;
  auto req = Request("fillseq,readrandom", 100000);
  req.user.value_size = 1000;  // 100 MB into 2 MB
  req.user.compression_ratio = 1.0;
  req.db_root = mount_ + "/scratch";
  auto r = RunBench(req);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 2u);
  const BenchResult& fill = (*r)[0];
  EXPECT_EQ(fill.status, RunStatus::kPartial) << fill.error;
  EXPECT_NE(fill.error.find("No space left on device"), std::string::npos)
      << fill.error;
  EXPECT_GT(fill.metrics.ops, 0u);
  EXPECT_LT(fill.metrics.ops, 100000u);
  EXPECT_EQ((*r)[1].status, RunStatus::kSkipped);
}

TEST_F(LevelDbBenchTest, ReadOnlyFilesystemFailsWithTheError) {
  std::string why;
  if (!MountTmpfs("1m", true, &why)) GTEST_SKIP() << why;
  auto req = Request("fillseq", 1000);
  req.db_root = mount_ + "/scratch";
  auto r = RunBench(req);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ((*r)[0].status, RunStatus::kFailed);
  EXPECT_NE((*r)[0].error.find("Read-only file system"), std::string::npos)
      << (*r)[0].error;
}

}  // namespace
}  // namespace disktune::bench
