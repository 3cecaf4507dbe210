#include "reports/findings_2011.h"

#include <gtest/gtest.h>

#include <string>

namespace disktune {
namespace {

bench::BenchResult Result(const std::string& engine, const std::string& sc,
                          double ops_per_sec) {
  bench::BenchResult b;
  b.engine = engine;
  b.scenario = sc;
  b.set = kCompare2011Set;
  b.engine_options.Set(KnobId::kCacheBytes, 4 << 20);
  b.metrics.ops_per_sec = ops_per_sec;
  return b;
}

// The findings as stored under analyses.leveldb_2011; null when no result
// of the set ran.
nlohmann::json Findings2011(const std::vector<bench::BenchResult>& benches) {
  if (auto c = CheckFindings2011(benches)) return *c;
  return nullptr;
}

const nlohmann::json* FindingAbout(const nlohmann::json& j,
                                   const std::string& text) {
  for (const auto& f : j["findings"]) {
    if (f["finding"] == text) return &f;
  }
  return nullptr;
}

TEST(Findings2011Test, NothingWithoutTheSet) {
  bench::BenchResult b = Result("leveldb", "fillseq", 1);
  b.set = "";
  EXPECT_TRUE(Findings2011({b}).is_null());
}

TEST(Findings2011Test, RatiosAndVerdicts) {
  std::vector<bench::BenchResult> v = {
      Result("leveldb", "fillseq", 500000),
      Result("kyotocabinet", "fillseq", 250000),  // 2.0: still holds
      Result("sqlite3", "fillseq", 600000),       // 0.833: no longer holds
  };
  // The large-values experiment is told apart by its value size.
  bench::BenchResult large = Result("leveldb", "fillrandom", 1000);
  large.params.value_size_bytes = 100000;
  v.push_back(large);
  // A later run of the same step wins (readrandom after compactions).
  v.push_back(Result("leveldb", "readrandom", 100));
  v.push_back(Result("leveldb", "readrandom", 200));
  v.push_back(Result("kyotocabinet", "readrandom", 300));
  const nlohmann::json j = Findings2011(v);
  ASSERT_FALSE(j.is_null());
  EXPECT_NE(j["source"].get<std::string>().find("2011 LevelDB benchmark page"),
            std::string::npos);

  const auto* kc = FindingAbout(
      j, "LevelDB writes in sequential order faster than Kyoto TreeDB");
  ASSERT_NE(kc, nullptr);
  EXPECT_DOUBLE_EQ((*kc)["ratio_measured"].get<double>(), 2.0);
  EXPECT_EQ((*kc)["verdict"], "still holds");

  const auto* sq =
      FindingAbout(j, "LevelDB writes in sequential order faster than SQLite");
  ASSERT_NE(sq, nullptr);
  EXPECT_EQ((*sq)["verdict"], "no longer holds");

  const auto* rr =
      FindingAbout(j, "Kyoto TreeDB has faster random reads than LevelDB");
  ASSERT_NE(rr, nullptr);
  EXPECT_DOUBLE_EQ((*rr)["ratio_measured"].get<double>(), 1.5);

  const auto* lv = FindingAbout(
      j,
      "SQLite writes 100,000-byte values in random order faster than "
      "LevelDB");
  ASSERT_NE(lv, nullptr);
  EXPECT_FALSE(lv->contains("ratio_measured"));  // sqlite3 did not run it
  EXPECT_NE((*lv)["verdict"].get<std::string>().find("not measured"),
            std::string::npos);
  EXPECT_EQ(j["summary"], "2 of 3 measured findings still hold");
}

}  // namespace
}  // namespace disktune
