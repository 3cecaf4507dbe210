#include "src/model/probe_repeats.h"

#include <gtest/gtest.h>

#include "src/model/probe_result.h"

namespace disktune {
namespace {

ProbeResult Point(const std::string& name, double iops, uint64_t p50,
                  uint64_t p99) {
  ProbeResult r;
  r.probe = "rand_read";
  r.name = name;
  r.iops = iops;
  r.bytes_per_sec = iops * 4096;
  LatencySummary l;
  l.samples = 1000;
  l.p50 = p50;
  l.p99 = p99;
  l.max = p99 * 2;
  r.latency_ns = l;
  r.samples = 1000;
  return r;
}

TEST(ProbeRepeatsTest, MedianRoundIsTheHeadlineAndEveryRoundIsKept) {
  std::vector<std::vector<ProbeResult>> rounds = {
      {Point("a", 100, 10, 90), Point("b", 5, 1000, 9000)},
      {Point("a", 300, 30, 70), Point("b", 7, 800, 7000)},
      {Point("a", 200, 20, 80), Point("b", 6, 900, 8000)},
  };
  std::vector<ProbeResult> merged = MergeRounds(rounds);
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[0].name, "a");
  EXPECT_EQ(merged[1].name, "b");
  const ProbeResult& a = merged[0];
  EXPECT_EQ(*a.iops, 200) << "the third round has the median IOPS";
  EXPECT_EQ(a.latency_ns->p50, 20u) << "its own latency, not a mix of rounds";
  ASSERT_TRUE(a.repeats);
  EXPECT_EQ(a.repeats->count, 3);
  EXPECT_EQ(a.repeats->iops->median, 200);
  EXPECT_EQ(a.repeats->iops->min, 100);
  EXPECT_EQ(a.repeats->iops->max, 300);
  EXPECT_EQ(a.repeats->iops->values, (std::vector<double>{100, 300, 200}));
  EXPECT_EQ(a.repeats->latency_p99_ns->median, 80);
  EXPECT_EQ(a.repeats->bytes_per_sec->max, 300 * 4096);
  EXPECT_FALSE(a.repeats->ops_per_sec) << "not measured in any round";
}

TEST(ProbeRepeatsTest, EvenRoundsAverageTheMiddleTwo) {
  RoundStat s = SummarizeRounds({4, 1, 3, 2});
  EXPECT_EQ(s.median, 2.5);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 4);
}

TEST(ProbeRepeatsTest, AFailedRoundIsNeverHiddenBehindAMedian) {
  std::vector<std::vector<ProbeResult>> rounds = {
      {Point("a", 100, 10, 90)},
      {ProbeResult::Failed("rand_read", "a", "pread: Input/output error")},
      {Point("a", 120, 10, 90)},
  };
  std::vector<ProbeResult> merged = MergeRounds(rounds);
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].status, ProbeStatus::kFailed);
  EXPECT_EQ(merged[0].error, "pread: Input/output error");
  EXPECT_FALSE(merged[0].repeats);
}

TEST(ProbeRepeatsTest, AnInterruptedRunKeepsThePointsOfItsLastRound) {
  // Round 2 stopped after point a: b has one round, a has two.
  std::vector<std::vector<ProbeResult>> rounds = {
      {Point("a", 100, 10, 90), Point("b", 5, 1000, 9000)},
      {Point("a", 110, 11, 91)},
  };
  std::vector<ProbeResult> merged = MergeRounds(rounds);
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[0].repeats->count, 2);
  EXPECT_EQ(merged[1].repeats->count, 1);
  EXPECT_EQ(merged[1].repeats->iops->values, std::vector<double>{5});
}

TEST(ProbeRepeatsTest, JsonRoundTrip) {
  std::vector<std::vector<ProbeResult>> rounds = {{Point("a", 100, 10, 90)},
                                                  {Point("a", 300, 30, 70)}};
  ProbeResult merged = MergeRounds(rounds)[0];
  nlohmann::json j = merged;
  EXPECT_EQ(j["repeats"]["count"], 2);
  EXPECT_EQ(j["repeats"]["iops"]["values"], (nlohmann::json{100.0, 300.0}));
  EXPECT_EQ(j["repeats"]["latency_p50_ns"]["median"], 20.0);
  ProbeResult back = j.get<ProbeResult>();
  nlohmann::json again = back;
  EXPECT_EQ(again, j);
}

}  // namespace
}  // namespace disktune
