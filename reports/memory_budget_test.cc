#include "reports/memory_budget.h"

#include <gtest/gtest.h>

namespace disktune {
namespace {

bench::BenchResult Result(std::string scenario, std::optional<uint64_t> rss,
                          std::optional<uint64_t> anon = std::nullopt) {
  bench::BenchResult r;
  r.engine = "leveldb";
  r.scenario = std::move(scenario);
  r.metrics.peak_rss_bytes = rss;
  r.metrics.peak_rss_scope = "scenario";
  r.metrics.peak_anon_rss_bytes = anon;
  return r;
}

TEST(MemoryBudgetTest, LargestPeakAgainstTheBudget) {
  auto c = CheckMemoryBudget(
      {Result("fillrandom", 40 << 20), Result("overwrite", 90 << 20),
       Result("crc32c", std::nullopt)},
      128 << 20, "p.json", std::nullopt);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->rows.size(), 2u);
  EXPECT_EQ(c->max_peak_rss_bytes, 90u << 20);
  EXPECT_TRUE(c->within);
  EXPECT_EQ(MemoryBudgetText(*c),
            "peak RSS 90 MiB (leveldb overwrite; the whole process: "
            "engine, key model and harness) against the profile's memory "
            "budget of 128 MiB: within it");
}

TEST(MemoryBudgetTest, OverTheBudgetIsSaid) {
  auto c = CheckMemoryBudget({Result("overwrite", 200 << 20)}, 128 << 20, "",
                             std::nullopt);
  ASSERT_TRUE(c.has_value());
  EXPECT_FALSE(c->within);
  EXPECT_NE(MemoryBudgetText(*c).find("OVER it"), std::string::npos);
}

// The budget covers the engine's own (anonymous) memory: a process whose
// whole RSS is over the budget only because of mapped tables is within it,
// and one whose anonymous memory above the harness's is over it is not.
TEST(MemoryBudgetTest, TheEngineAnonymousShareIsJudged) {
  auto c = CheckMemoryBudget({Result("readrandom", 215 << 20, 132 << 20),
                              Result("fillrandom", 36 << 20, 20 << 20)},
                             128 << 20, "p.json", 9 << 20);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->max_engine_anon_bytes, 123u << 20);
  EXPECT_EQ(c->max_peak_rss_bytes, 215u << 20);
  EXPECT_TRUE(c->within);
  EXPECT_EQ(MemoryBudgetText(*c),
            "the engine's own memory 123 MiB at most (leveldb readrandom: "
            "peak anonymous RSS 132 MiB less the harness's 9 MiB) against the "
            "profile's memory budget of 128 MiB: within it; peak RSS 215 MiB "
            "(leveldb readrandom; the whole process: engine, key model and "
            "harness, with file-backed pages such as memory-mapped tables, "
            "which the kernel reclaims as page cache)");
  auto over = CheckMemoryBudget({Result("readrandom", 215 << 20, 150 << 20)},
                                128 << 20, "p.json", 9 << 20);
  EXPECT_FALSE(over->within);
}

TEST(MemoryBudgetTest, NothingMeasuredNoCheck) {
  EXPECT_FALSE(CheckMemoryBudget({Result("crc32c", std::nullopt)}, 1, "", 0));
}

TEST(MemoryBudgetTest, JsonRoundTripsThroughAnalyses) {
  auto c = CheckMemoryBudget({Result("overwrite", 5 << 20, 4 << 20)}, 16 << 20,
                             "x", 1 << 20);
  model::Analyses typed;
  typed.memory_budget = *c;
  auto read = model::AnalysesFromJson(model::AnalysesToJson(typed));
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  const MemoryBudgetCheck* back = MemoryBudgetOf(*read);
  ASSERT_TRUE(back != nullptr);
  EXPECT_EQ(back->budget_bytes, 16u << 20);
  EXPECT_EQ(back->rows.at(0).scenario, "overwrite");
  EXPECT_EQ(back->profile, "x");
  EXPECT_EQ(back->harness_anon_rss_bytes, 1u << 20);
  EXPECT_EQ(back->rows.at(0).peak_anon_rss_bytes, 4u << 20);
  EXPECT_EQ(back->rows.at(0).engine_anon_bytes, 3u << 20);
  EXPECT_EQ(back->max_engine_anon_bytes, 3u << 20);
  EXPECT_FALSE(MemoryBudgetOf(model::Analyses{}));
}

}  // namespace
}  // namespace disktune
