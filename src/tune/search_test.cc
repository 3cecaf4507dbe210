// Successive halving with a fake trial (known scores, known cost), and the
// verification statistics on synthetic measurements.
#include "src/tune/search.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "src/core/rng.h"
#include "src/tune/verify.h"

namespace disktune::tune {
namespace {

// Candidates told apart by their write buffer; the score is a known
// function of it, plus noise that shrinks as the trial grows.
std::vector<TuneConfig> Candidates(int n) {
  std::vector<TuneConfig> v;
  for (int i = 0; i < n; i++) {
    TuneConfig c;
    c.Set(KnobId::kWriteBufferBytes, static_cast<uint64_t>(i + 1) * kMiB);
    v.push_back(c);
  }
  return v;
}

struct FakeTrials {
  uint64_t clock_ns = 0;
  double fixed_ns = 1e8;       // 0.1 s per trial
  double per_scale_ns = 1e10;  // 10 s for the full workload
  int best = 7;                // index of the truly best candidate
  Rng rng{42};
  std::map<double, int> runs_at_scale;

  TrialFn Fn() {
    return [this](const TuneConfig& c, double scale) -> Result<TrialScore> {
      int i = static_cast<int>(c.write_buffer_bytes() / kMiB) - 1;
      double truth = 1000.0 - 20.0 * std::abs(i - best);
      double noise = (static_cast<double>(rng.Uniform(1000)) / 1000.0 - 0.5) *
                     20 * std::sqrt(0.01 / scale);
      uint64_t t = static_cast<uint64_t>(fixed_ns + per_scale_ns * scale);
      clock_ns += t;
      runs_at_scale[scale]++;
      return TrialScore{truth + noise, t};
    };
  }
  std::function<uint64_t()> Now() {
    return [this] { return clock_ns; };
  }
};

TEST(SearchTest, FindsTheBestWithinTheBudget) {
  FakeTrials fake;
  SearchBudget b;
  b.budget_ns = 60ull * 1000000000;  // 60 s
  b.min_scale = 0.01;
  b.max_scale = 0.5;
  CostModel cost(1e8, 1e10);
  auto out = SuccessiveHalving(Candidates(27), b, &cost, fake.Fn(), fake.Now());
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->winner, 7u);
  EXPECT_FALSE(out->truncated);
  // 27 -> 9 -> 3 candidates, and each time the rules' first choice
  // (index 1, within 0.8 of the best) besides.
  ASSERT_EQ(out->rungs.size(), 3u);
  EXPECT_EQ(out->rungs[0].candidates.size(), 27u);
  EXPECT_EQ(out->rungs[1].candidates.size(), 9u + 1u);
  EXPECT_EQ(out->rungs[2].candidates.size(), 3u + 1u);
  EXPECT_EQ(out->rungs[2].candidates.back(), 1u);
  // Each rung larger than the one before (the steps follow the re-planned
  // budget: the cost model is cautious about scales it has not seen), none
  // beyond the verification scale.
  for (size_t i = 1; i < out->rungs.size(); i++) {
    EXPECT_GT(out->rungs[i].scale, out->rungs[i - 1].scale);
  }
  EXPECT_LE(out->rungs.back().scale, b.max_scale);
  EXPECT_LE(static_cast<double>(fake.clock_ns), 1.25 * b.budget_ns);
  EXPECT_EQ(out->trials, 27 + 10 + 4);
}

TEST(SearchTest, ATightBudgetDropsTheLeastPreferred) {
  FakeTrials fake;
  fake.best = 0;
  SearchBudget b;
  b.budget_ns = 2ull * 1000000000;  // room for ~10 of the smallest trials
  b.min_scale = 0.01;
  b.max_scale = 0.5;
  CostModel cost(1e8, 1e10);
  auto out = SuccessiveHalving(Candidates(27), b, &cost, fake.Fn(), fake.Now());
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out->truncated);
  EXPECT_LT(out->candidates, 27);
  EXPECT_FALSE(out->notes.empty());
  EXPECT_EQ(out->winner, 0u);
}

TEST(SearchTest, FailedTrialsNeverWinAndInterruptsStop) {
  int calls = 0;
  TrialFn fail_odd = [&](const TuneConfig& c, double) -> Result<TrialScore> {
    calls++;
    if ((c.write_buffer_bytes() / kMiB) % 2 == 0) {
      return Status::IOError("engine error");
    }
    return TrialScore{static_cast<double>(c.write_buffer_bytes()), 1000};
  };
  uint64_t now = 0;
  SearchBudget b;
  b.budget_ns = 1ull << 40;
  CostModel cost(1000, 1000);
  auto out = SuccessiveHalving(Candidates(6), b, &cost, fail_odd,
                               [&] { return now += 1000; });
  ASSERT_TRUE(out.ok());
  // Candidate 6 MiB (index 5) would score best but fails; 5 MiB wins.
  EXPECT_EQ(out->winner, 4u);

  TrialFn abort = [](const TuneConfig&, double) -> Result<TrialScore> {
    return Status::Aborted("interrupted");
  };
  auto stopped = SuccessiveHalving(Candidates(6), b, &cost, abort,
                                   [&] { return now += 1000; });
  EXPECT_TRUE(stopped.status().IsAborted());
}

// Three candidates (one rung): index 0 the reference, 1 the rules' first
// choice, 2 the next. Each candidate's scores, in the order it runs.
struct ScriptedTrials {
  std::map<int, std::vector<double>> scores;  // by index
  std::map<int, size_t> runs;
  uint64_t clock_ns = 0;
  TrialFn Fn() {
    return [this](const TuneConfig& c, double) -> Result<TrialScore> {
      int i = static_cast<int>(c.write_buffer_bytes() / kMiB) - 1;
      const std::vector<double>& v = scores.at(i);
      double s = v[std::min(runs[i]++, v.size() - 1)];
      clock_ns += 1000;
      return TrialScore{s, 1000};
    };
  }
};

Result<SearchOutcome> RunTieSearch(ScriptedTrials* fake, int tie_rounds,
                                   uint64_t budget_ns = 1ull << 40) {
  SearchBudget b;
  b.budget_ns = budget_ns;
  b.tie_rounds = tie_rounds;
  CostModel cost(1000, 0);
  return SuccessiveHalving(Candidates(3), b, &cost, fake->Fn(),
                           [fake] { return fake->clock_ns; });
}

TEST(SearchTest, ALeaderWithinTheNoiseYieldsToTheRulesFirstChoice) {
  ScriptedTrials fake;
  fake.scores = {{0, {500}}, {1, {1000, 1000, 1000}}, {2, {1050, 950, 1010}}};
  auto out = RunTieSearch(&fake, 2);
  ASSERT_TRUE(out.ok());
  ASSERT_TRUE(out->tie.has_value());
  EXPECT_EQ(out->tie->leader, 2u);
  EXPECT_EQ(out->tie->preferred, 1u);
  EXPECT_EQ(out->tie->gain.repeats, 3);
  EXPECT_FALSE(out->tie->gain.significant());
  EXPECT_EQ(out->winner, 1u);
  EXPECT_EQ(out->trials, 3 + 4);
  // Without tie rounds the single trials decide.
  ScriptedTrials once;
  once.scores = fake.scores;
  auto plain = RunTieSearch(&once, 0);
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->tie.has_value());
  EXPECT_EQ(plain->winner, 2u);
}

TEST(SearchTest, ALeaderThatWinsEveryRoundStands) {
  ScriptedTrials fake;
  fake.scores = {{0, {500}}, {1, {1000, 1010, 990}}, {2, {1150, 1160, 1150}}};
  auto out = RunTieSearch(&fake, 2);
  ASSERT_TRUE(out.ok());
  ASSERT_TRUE(out->tie.has_value());
  EXPECT_TRUE(out->tie->gain.significant());
  EXPECT_GT(out->tie->gain.ci95_low, 1.0);
  EXPECT_EQ(out->winner, 2u);
}

// The rules prefer a 3 MiB buffer (index 1) to a 2 MiB one (index 2); the
// 3 MiB one leads, the 2 MiB one within the noise of it. Comparing memory,
// the leader runs again against the leaner, which wins a level result; a
// leader significantly faster stands; without the comparison, no rounds.
TEST(SearchTest, ALevelLeaderYieldsToALeanerCandidate) {
  std::vector<TuneConfig> cands(3);
  const uint64_t mib[3] = {1, 3, 2};
  for (int i = 0; i < 3; i++) {
    cands[i].Set(KnobId::kWriteBufferBytes, mib[i] * kMiB);
  }
  auto run = [&](ScriptedTrials* fake, bool memory) {
    SearchBudget b;
    b.budget_ns = 1ull << 40;
    b.tie_rounds = 2;
    if (memory) {
      b.memtable_bytes = [](const TuneConfig& c) {
        return 2 * c.write_buffer_bytes();
      };
    }
    CostModel cost(1000, 0);
    return SuccessiveHalving(cands, b, &cost, fake->Fn(),
                             [fake] { return fake->clock_ns; });
  };
  // ScriptedTrials keys scores by write buffer MiB - 1.
  ScriptedTrials level;
  level.scores = {{0, {500}}, {2, {1050, 1000, 1010}}, {1, {1000, 1020, 990}}};
  auto out = run(&level, true);
  ASSERT_TRUE(out.ok());
  ASSERT_TRUE(out->tie.has_value());
  EXPECT_EQ(out->tie->leader, 1u);
  EXPECT_EQ(out->tie->preferred, 2u);
  EXPECT_TRUE(out->tie->leaner());
  EXPECT_FALSE(out->tie->gain.significant());
  EXPECT_EQ(out->winner, 2u);

  ScriptedTrials faster;
  faster.scores = {{0, {500}}, {2, {1150, 1160, 1150}}, {1, {1000, 1010, 990}}};
  out = run(&faster, true);
  ASSERT_TRUE(out.ok());
  ASSERT_TRUE(out->tie.has_value());
  EXPECT_TRUE(out->tie->gain.significant());
  EXPECT_EQ(out->winner, 1u);

  ScriptedTrials plain;
  plain.scores = level.scores;
  out = run(&plain, false);
  ASSERT_TRUE(out.ok());
  EXPECT_FALSE(out->tie.has_value());
  EXPECT_EQ(out->winner, 1u);

  // The leaner one leads, the rules' choice level with it: the leader
  // stands (before, the rules' choice took a level result).
  ScriptedTrials lean_leads;
  lean_leads.scores = {
      {0, {500}}, {2, {1000, 1020, 990}}, {1, {1050, 1000, 1010}}};
  out = run(&lean_leads, true);
  ASSERT_TRUE(out.ok());
  ASSERT_TRUE(out->tie.has_value());
  EXPECT_EQ(out->tie->leader, 2u);
  EXPECT_EQ(out->tie->preferred, 1u);
  EXPECT_FALSE(out->tie->leaner());
  EXPECT_TRUE(out->tie->leader_leaner());
  EXPECT_FALSE(out->tie->gain.significant());
  EXPECT_EQ(out->winner, 2u);
}

// No tie rounds when the rules' choice leads, when the reference (index 0,
// which the caller's A/B compares anyway) is second, or when the rules'
// choice is far behind the leader (the noise of single trials does not
// reach that far).
TEST(SearchTest, NoTieRoundsWhenTheRulesChoiceLeadsIsTheReferenceOrFarBehind) {
  const std::vector<std::pair<std::map<int, std::vector<double>>, size_t>>
      cases = {{{{0, {500}}, {1, {1100}}, {2, {1000}}}, 1},
               {{{0, {1000}}, {1, {500}}, {2, {1010}}}, 2},
               {{{0, {500}}, {1, {780}}, {2, {1000}}}, 2}};
  for (const auto& [scores, winner] : cases) {
    ScriptedTrials fake;
    fake.scores = scores;
    auto out = RunTieSearch(&fake, 2);
    ASSERT_TRUE(out.ok());
    EXPECT_FALSE(out->tie.has_value()) << winner;
    EXPECT_EQ(out->winner, winner);
    EXPECT_EQ(out->trials, 3);
  }
}

// Seven candidates, two rungs (7 then 3). The rules' first choice (index 1)
// ranks fifth in the first rung's single trials, within the noise of the
// best: it goes on with the best three, and the last rung's leader must
// beat it in paired rounds.
TEST(SearchTest, TheRulesChoiceWithinTheNoiseReachesTheLastRung) {
  auto run = [](ScriptedTrials* fake) {
    SearchBudget b;
    b.budget_ns = 1ull << 40;
    b.tie_rounds = 2;
    CostModel cost(1000, 0);
    return SuccessiveHalving(Candidates(7), b, &cost, fake->Fn(),
                             [fake] { return fake->clock_ns; });
  };
  ScriptedTrials fake;
  fake.scores = {
      {0, {900}},       {1, {950, 1000, 1000, 1000}}, {2, {1000, 990}},
      {3, {1010, 980}}, {4, {1020, 1040, 980, 1010}}, {5, {500}},
      {6, {500}}};
  auto out = run(&fake);
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out->rungs.size(), 2u);
  EXPECT_EQ(out->rungs[1].candidates, (std::vector<size_t>{4, 3, 2, 1}));
  ASSERT_TRUE(out->tie.has_value());
  EXPECT_EQ(out->tie->leader, 4u);
  EXPECT_EQ(out->tie->preferred, 1u);
  EXPECT_FALSE(out->tie->gain.significant());
  EXPECT_EQ(out->winner, 1u);
  EXPECT_EQ(out->trials, 7 + 4 + 4);

  // Far behind in the first rung (under 0.8 of the best), it stops there.
  ScriptedTrials behind;
  behind.scores = fake.scores;
  behind.scores[1] = {700};
  out = run(&behind);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->rungs[1].candidates, (std::vector<size_t>{4, 3, 2}));
  EXPECT_EQ(out->tie->preferred, 2u);  // the most preferred left near it
}

TEST(SearchTest, TieRoundsAreSkippedWhenTheyDoNotFitAndSaySo) {
  ScriptedTrials fake;
  fake.scores = {{0, {500}}, {1, {1000}}, {2, {1050}}};
  // Room for the rung's three trials, not for four more.
  auto out = RunTieSearch(&fake, 2, 3000);
  ASSERT_TRUE(out.ok());
  EXPECT_FALSE(out->tie.has_value());
  EXPECT_EQ(out->winner, 2u);
  EXPECT_EQ(out->trials, 3);
}

TEST(CostModelTest, FollowsWhatItSawAndExtrapolatesItsGrowth) {
  CostModel cost(10, 1000);
  EXPECT_DOUBLE_EQ(cost.Estimate(0.5), 510);  // the guess, before any trial
  // One scale seen: linear from the fixed part below it, scale^1.5 above.
  cost.Observe(0.1, 110);
  EXPECT_DOUBLE_EQ(cost.Estimate(0.1), 110);
  EXPECT_DOUBLE_EQ(cost.Estimate(0.05), 60);
  EXPECT_NEAR(cost.Estimate(0.4), 110 * 8, 1e-9);
  // Quadratic growth (writes: small copies stay in the memtable): the mean
  // per scale, and beyond the largest the growth between the last two.
  cost.Observe(0.1, 90);  // mean 100 at 0.1
  cost.Observe(0.2, 400);
  EXPECT_DOUBLE_EQ(cost.Estimate(0.1), 100);
  EXPECT_DOUBLE_EQ(cost.Estimate(0.15), 250);
  EXPECT_NEAR(cost.Estimate(0.4), 1600, 1e-6);
  // Growth is clamped to [1.5, 2]: a steeper step does not explode the plan.
  cost.Observe(0.25, 4000);
  EXPECT_NEAR(cost.Estimate(0.5), 16000, 1e-6);
}

TEST(CostModelTest, NeverDecreasesWithScaleAndExtrapolatesCautiously) {
  CostModel cost(0, 1);
  cost.Observe(0.1, 200);
  cost.Observe(0.2, 150);  // a noisy, cheaper larger trial
  EXPECT_DOUBLE_EQ(cost.Estimate(0.2), 200);
  // Flat between the two, yet beyond them it grows as scale^1.5.
  EXPECT_NEAR(cost.Estimate(0.4), 200 * std::pow(2.0, 1.5), 1e-9);
}

TEST(VerifyTest, PairedGainOfAClearWin) {
  Gain g = PairedGain({150, 160, 155}, {100, 104, 99});
  EXPECT_EQ(g.repeats, 3);
  EXPECT_NEAR(g.median, 1.538, 0.01);
  EXPECT_GT(g.ci95_low, 1.4);
  EXPECT_LT(g.ci95_high, 1.7);
  EXPECT_TRUE(g.significant());
}

TEST(VerifyTest, NoiseIsNotAGain) {
  Gain g = PairedGain({100, 120, 90}, {110, 95, 105});
  EXPECT_LT(g.ci95_low, 1.0);
  EXPECT_GT(g.ci95_high, 1.0);
  EXPECT_FALSE(g.significant());
}

TEST(VerifyTest, BlockedGainsSeparateKnobsAndTakeOutDrift) {
  // Round 2 runs everything 20% slower (drift); config 0 (all knobs) beats
  // config 1 (without knob A) by 1.5x and equals config 2 (without knob B).
  std::vector<std::vector<double>> s = {
      {150, 180, 151, 149}, {100, 121, 99, 101}, {151, 179, 150, 150}};
  for (auto& row : s) row[1] *= 0.8 / 1.2;
  std::vector<Gain> g = BlockedGains(s);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_TRUE(g[0].significant());
  EXPECT_NEAR(g[0].median, 1.5, 0.05);
  EXPECT_FALSE(g[1].significant());
  EXPECT_NEAR(g[1].median, 1.0, 0.02);
}

TEST(VerifyTest, RoundsAreALatinSquare) {
  for (size_t n : {2u, 3u, 5u}) {
    std::vector<std::vector<int>> position(n, std::vector<int>(n, 0));
    for (size_t r = 0; r < n; r++) {
      std::vector<size_t> o = RoundOrder(n, r);
      ASSERT_EQ(o.size(), n);
      for (size_t p = 0; p < n; p++) position[o[p]][p]++;
    }
    for (size_t c = 0; c < n; c++) {
      for (size_t p = 0; p < n; p++) EXPECT_EQ(position[c][p], 1);
    }
  }
  // Two configs alternate: A B, B A, A B.
  EXPECT_EQ(RoundOrder(2, 0), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(RoundOrder(2, 1), (std::vector<size_t>{1, 0}));
}

}  // namespace
}  // namespace disktune::tune
