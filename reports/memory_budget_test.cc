#include "reports/memory_budget.h"

#include <gtest/gtest.h>

namespace disktune {
namespace {

bench::BenchResult Result(std::string scenario, std::optional<uint64_t> rss) {
  bench::BenchResult r;
  r.engine = "leveldb";
  r.scenario = std::move(scenario);
  r.metrics.peak_rss_bytes = rss;
  r.metrics.peak_rss_scope = "scenario";
  return r;
}

TEST(MemoryBudgetTest, LargestPeakAgainstTheBudget) {
  auto c = CheckMemoryBudget(
      {Result("fillrandom", 40 << 20), Result("overwrite", 90 << 20),
       Result("crc32c", std::nullopt)},
      128 << 20, "p.json");
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
  auto c = CheckMemoryBudget({Result("overwrite", 200 << 20)}, 128 << 20, "");
  ASSERT_TRUE(c.has_value());
  EXPECT_FALSE(c->within);
  EXPECT_NE(MemoryBudgetText(*c).find("OVER it"), std::string::npos);
}

TEST(MemoryBudgetTest, NothingMeasuredNoCheck) {
  EXPECT_FALSE(CheckMemoryBudget({Result("crc32c", std::nullopt)}, 1, ""));
}

TEST(MemoryBudgetTest, JsonRoundTripsThroughAnalyses) {
  auto c = CheckMemoryBudget({Result("overwrite", 5 << 20)}, 16 << 20, "x");
  nlohmann::json analyses;
  analyses[kMemoryBudgetKey] = *c;
  auto back = MemoryBudgetOf(analyses);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->budget_bytes, 16u << 20);
  EXPECT_EQ(back->rows.at(0).scenario, "overwrite");
  EXPECT_EQ(back->profile, "x");
  EXPECT_FALSE(MemoryBudgetOf(nlohmann::json::object()));
}

}  // namespace
}  // namespace disktune
