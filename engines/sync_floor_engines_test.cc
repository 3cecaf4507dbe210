// A device's sync-latency floor (src/core/sync_floor.h) reaches the engines
// that claim it (SyncFlooredEngines()): on a directory whose device has a
// floor - set here, for this process only, on the temp directory's device -
// each synced put of such an engine takes at least the floor and its
// settings say so, while unsynced puts do not wait; every other engine
// records no floor (its syncs are not floored, and the reports say so).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include "engines/engine.h"
#include "engines/temp_db_for_test.h"
#include "src/core/clock.h"
#include "src/core/sync_floor.h"

namespace disktune {
namespace {

constexpr uint64_t kFloorNs = 10'000'000;

std::vector<std::string> EngineIds() {
  std::vector<std::string> ids;
  for (const EngineInfo& e : AvailableEngines()) ids.emplace_back(e.id);
  return ids;
}

class SyncFloorEnginesTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    struct stat st {};
    std::string root = std::filesystem::path(dir_.db()).parent_path().string();
    ASSERT_EQ(stat(root.c_str(), &st), 0);
    dev_ = st.st_dev;
    SetDeviceSyncFloor(dev_, kFloorNs);
    auto made = NewEngine(GetParam());
    ASSERT_TRUE(made.ok()) << made.status().ToString();
    engine_ = std::move(made).value();
  }
  void TearDown() override {
    engine_.reset();
    SetDeviceSyncFloor(dev_, 0);
  }

  testing::TempDb dir_;
  dev_t dev_ = 0;
  std::unique_ptr<Engine> engine_;
};

TEST_P(SyncFloorEnginesTest, SyncedWritesMeetTheFloorWhereClaimed) {
  EngineOptions o;
  o.expected_db_bytes = 64ull << 20;
  ASSERT_TRUE(engine_->Open(dir_.db(), o).ok());
  const auto& floored = SyncFlooredEngines();
  bool claims =
      std::find(floored.begin(), floored.end(), GetParam()) != floored.end();
  bool recorded = false;
  for (const auto& [name, value] : engine_->Settings()) {
    if (name == GetParam() + ".sync_floor") {
      recorded = true;
      EXPECT_NE(value.find("10.00 ms per sync"), std::string::npos) << value;
    }
  }
  EXPECT_EQ(recorded, claims);
  if (!claims) return;

  char key[32];
  for (int i = 0; i < 5; i++) {
    std::snprintf(key, sizeof key, "%016d", i);
    uint64_t t0 = NowNanos();
    ASSERT_TRUE(engine_->Put(key, "value", WriteOptions{true}).ok());
    EXPECT_GE(NowNanos() - t0, kFloorNs) << "synced put " << i;
  }
  // 50 unsynced puts: had each waited for the floor they would take 500 ms.
  uint64_t t0 = NowNanos();
  for (int i = 0; i < 50; i++) {
    std::snprintf(key, sizeof key, "%016d", 100 + i);
    ASSERT_TRUE(engine_->Put(key, "value", WriteOptions{false}).ok());
  }
  EXPECT_LT(NowNanos() - t0, 25 * kFloorNs);
  ASSERT_TRUE(engine_->Close().ok());
}

INSTANTIATE_TEST_SUITE_P(Engines, SyncFloorEnginesTest,
                         ::testing::ValuesIn(EngineIds()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace disktune
