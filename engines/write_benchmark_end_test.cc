// Engine::FinishWriteBenchmark(): what each engine's own benchmark does at
// the end of a write benchmark. Kyoto TreeDB writes its dirty cached pages
// to the database file (LevelDB's TreeDB benchmark calls synchronize()),
// SQLite copies the WAL into the database file (LevelDB's SQLite benchmark
// runs a FULL checkpoint); the other engines do nothing there. None of it may
// lose or change data.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "engines/engine.h"
#include "engines/temp_db_for_test.h"

namespace disktune {
namespace {

namespace fs = std::filesystem;

using testing::TempDb;

std::string KeyOf(int i) {
  char b[32];
  std::snprintf(b, sizeof(b), "%016d", i);
  return b;
}

std::string ValueOf(int i) {
  return std::string(100, static_cast<char>('a' + i % 26));
}

uint64_t FileSize(const std::string& path) {
  std::error_code ec;
  const uintmax_t n = fs::file_size(path, ec);
  return ec ? 0 : n;
}

class FinishWriteBenchmarkTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    auto made = NewEngine(GetParam());
    ASSERT_TRUE(made.ok()) << made.status().ToString();
    engine_ = std::move(made).value();
  }
  void TearDown() override { engine_.reset(); }

  void Fill(int n) {
    for (int i = 0; i < n; i++) {
      ASSERT_TRUE(engine_->Put(KeyOf(i), ValueOf(i), {}).ok()) << i;
    }
  }

  TempDb dir_;
  std::unique_ptr<Engine> engine_;
};

TEST_P(FinishWriteBenchmarkTest, KeepsEveryEntryAndCanRepeat) {
  ASSERT_TRUE(engine_->Open(dir_.db(), {}).ok());
  Fill(3000);
  ASSERT_TRUE(engine_->FinishWriteBenchmark().ok());
  ASSERT_TRUE(engine_->Put(KeyOf(7), "changed", {}).ok());
  ASSERT_TRUE(engine_->FinishWriteBenchmark().ok());
  std::string v;
  for (int i = 0; i < 3000; i++) {
    ASSERT_TRUE(engine_->Get(KeyOf(i), &v).ok()) << i;
    EXPECT_EQ(v, i == 7 ? "changed" : ValueOf(i)) << i;
  }
  ASSERT_TRUE(engine_->Close().ok());
  ASSERT_TRUE(engine_->Open(dir_.db(), {}).ok());
  ASSERT_TRUE(engine_->Get(KeyOf(2999), &v).ok());
  EXPECT_EQ(v, ValueOf(2999));
}

TEST_P(FinishWriteBenchmarkTest, OnAClosedEngine) {
  const Status s = engine_->FinishWriteBenchmark();
  if (GetParam() == "kyotocabinet" || GetParam() == "sqlite3") {
    EXPECT_FALSE(s.ok());
  } else {
    EXPECT_TRUE(s.ok()) << s.ToString();  // nothing to do
  }
}

// The work happens in the call, not later: the database file takes the
// writes that were held in the page cache (Kyoto) or in the WAL (SQLite).
TEST_P(FinishWriteBenchmarkTest, WritesTheDatabaseFile) {
  std::string file;
  if (GetParam() == "kyotocabinet") file = dir_.db() + "/db.kct";
  if (GetParam() == "sqlite3") file = dir_.db() + "/db.sqlite3";
  if (file.empty()) GTEST_SKIP() << GetParam() << " does nothing there";
  ASSERT_TRUE(engine_->Open(dir_.db(), {}).ok());
  Fill(3000);
  const uint64_t before = FileSize(file);
  ASSERT_TRUE(engine_->FinishWriteBenchmark().ok());
  EXPECT_GT(FileSize(file), before) << file;
}

std::vector<std::string> EngineIds() {
  std::vector<std::string> ids;
  for (const EngineInfo& e : AvailableEngines()) ids.emplace_back(e.id);
  return ids;
}

INSTANTIATE_TEST_SUITE_P(AllEngines, FinishWriteBenchmarkTest,
                         ::testing::ValuesIn(EngineIds()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           return p.param;
                         });

}  // namespace
}  // namespace disktune
