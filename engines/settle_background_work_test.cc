// Engine::SettleBackgroundWork(): RocksDB returns only when its own counters
// show no flush or compaction pending or running; an engine with no way to
// see its background work returns 0 at once. A cold read step relies on it
// (src/bench/scenario.h, ReopenCold).
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>

#include "engines/engine.h"
#include "engines/temp_db_for_test.h"

namespace disktune {
namespace {

using testing::TempDb;

bool Available(const std::string& id) {
  for (const EngineInfo& e : AvailableEngines()) {
    if (e.id == id) return true;
  }
  return false;
}

std::string Property(Engine& e, const std::string& name) {
  for (const auto& [k, v] : e.Properties()) {
    if (k == name) return v;
  }
  return "";
}

// Level-0 files built faster than they are compacted, then a reopen whose
// log replay adds one more: the case the hdd class showed.
TEST(SettleBackgroundWorkTest, RocksDbLeavesNoCompactionBehind) {
  if (!Available("rocksdb")) GTEST_SKIP() << "rocksdb is not built in";
  TempDb dir;
  auto made = NewEngine("rocksdb");
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  Engine& e = **made;
  EngineOptions o;
  o.Set(KnobId::kWriteBufferBytes, 256 << 10);
  o.Set(KnobId::kCompression, Compression::kNone);
  ASSERT_TRUE(e.Open(dir.db(), o).ok());
  char key[32];
  const std::string value(100, 'v');
  for (int i = 0; i < 60000; i++) {
    std::snprintf(key, sizeof(key), "%016d", (i * 7919) % 60000);
    ASSERT_TRUE(e.Put(key, value, {}).ok()) << i;
  }
  ASSERT_TRUE(e.Close().ok());
  ASSERT_TRUE(e.Open(dir.db(), o).ok());
  Result<uint64_t> waited = e.SettleBackgroundWork(60'000'000'000);
  ASSERT_TRUE(waited.ok()) << waited.status().ToString();
  EXPECT_LT(*waited, 60'000'000'000u);
  EXPECT_EQ(Property(e, "rocksdb.num-running-compactions"), "0");
  // Below RocksDB's default level-0 trigger of four files.
  EXPECT_LT(std::stoi(Property(e, "rocksdb.num-files-at-level0")), 4);
  Result<uint64_t> again = e.SettleBackgroundWork(60'000'000'000);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, 0u);
  ASSERT_TRUE(e.Close().ok());
}

TEST(SettleBackgroundWorkTest, AnEngineThatCannotSeeItsWorkReturnsZero) {
  if (!Available("leveldb")) GTEST_SKIP() << "leveldb is not built in";
  TempDb dir;
  auto made = NewEngine("leveldb");
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  ASSERT_TRUE((*made)->Open(dir.db(), {}).ok());
  Result<uint64_t> waited = (*made)->SettleBackgroundWork(1'000'000'000);
  ASSERT_TRUE(waited.ok());
  EXPECT_EQ(*waited, 0u);
  ASSERT_TRUE((*made)->Close().ok());
}

}  // namespace
}  // namespace disktune
