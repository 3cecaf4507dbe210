// The tuner's time plan on its own: what each phase may spend, and that the
// verification is planned before the search takes the rest.
#include "src/tune/plan.h"

#include <gtest/gtest.h>

#include "src/tune/gain_for_test.h"

namespace disktune::tune {
namespace {

using testing::GainOf;

constexpr double kS = 1e9;

class PlanTest : public ::testing::Test {
 protected:
  PlanTest() : cost_(1 * kS, 10 * kS) {
    w_.name = "test";
    w_.scenarios = {"fillrandom"};
    w_.num = 1000000;
  }
  PlanContext Ctx() const { return {&w_, &cost_, 0.001}; }

  Workload w_;
  CostModel cost_;  // 1 s + 10 s x scale, before any observation
};

TEST_F(PlanTest, FitScaleIsTheLargestAffordableScale) {
  // 6 runs of 1 s + 10 s x s in 36 s: s = 0.5.
  EXPECT_NEAR(FitScale(Ctx(), 6, 36 * kS), 0.5, 1e-6);
  EXPECT_EQ(FitScale(Ctx(), 6, 1000 * kS), 1.0);
  // Nothing fits: the smallest scale.
  EXPECT_EQ(FitScale(Ctx(), 6, 1 * kS), 0.001);
}

TEST_F(PlanTest, KnobCheckRunsNeedTwoChangedKnobs) {
  EXPECT_EQ(KnobCheckRuns(1, 1), 0);
  EXPECT_EQ(KnobCheckRuns(2, 0), 0);
  EXPECT_EQ(KnobCheckRuns(3, 2), 3.0 * kMinRepeats);
  EXPECT_EQ(KnobCheckRuns(3, 2, kReadKnobRounds), 3.0 * kReadKnobRounds);
}

TEST_F(PlanTest, ForReadsTheKnobCheckTakesMoreRoundsOnSmallerCopies) {
  // 100 s left, the A/B planned at 0.5, two judged knobs: the reads' plan
  // fits kReadKnobRounds rounds where kPlan fits kMinRepeats, on a smaller
  // copy, and runs at least that many.
  const double reads_runs = KnobCheckRuns(2, 2, kReadKnobRounds);
  CheckPlan reads =
      PlanKnobCheck(Ctx(), kPlanReads, 100 * kS, 0.5, reads_runs, 2);
  CheckPlan three =
      PlanKnobCheck(Ctx(), kPlan, 100 * kS, 0.5, KnobCheckRuns(2, 2), 2);
  EXPECT_EQ(three.knob_rounds, kMinRepeats);
  EXPECT_GE(reads.knob_rounds, kReadKnobRounds);
  EXPECT_LT(reads.knob_scale, three.knob_scale);
  // The check and the own A/Bs (at their kMinRepeats rounds) share the
  // time the A/B's minimum leaves.
  const double spare = 0.95 * 100 * kS - 6 * cost_.Estimate(reads.ab_scale);
  EXPECT_LE(
      (reads_runs + KnobCheckRuns(2, 2)) * cost_.Estimate(reads.knob_scale),
      spare * 1.001);
}

TEST_F(PlanTest, ExtraKnobRoundsGoToTheMostPromisingFirst) {
  // After three rounds (LevelDB read-heavy): 16 KiB blocks behind, no
  // compression decided, the bloom filter ahead but undecided.
  const std::vector<Gain> gains = {GainOf(0.97, 0.90, 1.10),
                                   GainOf(1.41, 1.15, 1.60),
                                   GainOf(1.13, 0.98, 1.19)};
  // 60 s buys 3 rounds of the winner and one revert (10 s a run), 2 with
  // a second: the filter gets them, the blocks none.
  ExtraKnobRounds e = PlanExtraKnobRounds(gains, 60 * kS, 10 * kS, 3);
  EXPECT_EQ(e.knobs, std::vector<size_t>{2});
  EXPECT_EQ(e.left_out, std::vector<size_t>{0});
  EXPECT_EQ(e.rounds, 3);
  // Time for the cap (8 rounds in all: 5 more) with both: both, the filter
  // first; the decided knob never.
  e = PlanExtraKnobRounds(gains, 1000 * kS, 10 * kS, 3);
  EXPECT_EQ(e.knobs, (std::vector<size_t>{2, 0}));
  EXPECT_TRUE(e.left_out.empty());
  EXPECT_EQ(e.rounds, 5);
  // Behind the median's side does not keep a lone undecided knob out.
  e = PlanExtraKnobRounds({GainOf(0.98, 0.86, 1.21)}, 60 * kS, 10 * kS, 3);
  EXPECT_EQ(e.knobs, std::vector<size_t>{0});
  // Not one round fits, or the cap is reached: all left out.
  e = PlanExtraKnobRounds(gains, 15 * kS, 10 * kS, 3);
  EXPECT_TRUE(e.knobs.empty());
  EXPECT_EQ(e.left_out, (std::vector<size_t>{2, 0}));
  EXPECT_EQ(e.rounds, 0);
  e = PlanExtraKnobRounds(gains, 1000 * kS, 10 * kS, kMaxKnobCheckRounds);
  EXPECT_TRUE(e.knobs.empty());
  EXPECT_EQ(e.rounds, 0);
  // Nothing undecided: nothing to do.
  e = PlanExtraKnobRounds({GainOf(1.41, 1.15, 1.60), GainOf(0.85, 0.75, 0.97)},
                          1000 * kS, 10 * kS, 3);
  EXPECT_TRUE(e.knobs.empty() && e.left_out.empty());
}

TEST_F(PlanTest, VerificationIsPlannedBeforeTheSearch) {
  const double left = 600 * kS;
  TunePlan p = PlanTune(Ctx(), kPlan, left, 0.02, KnobCheckRuns(3, 3));
  // The A/B's 3 pairs fit in its 40% share, the knob check's 4 x 3 runs in
  // its 25%, and never at a larger scale than the A/B's.
  EXPECT_LE(2 * kMinRepeats * cost_.Estimate(p.ab_scale), kPlan.ab * left);
  EXPECT_LE(p.knob_scale, p.ab_scale);
  EXPECT_LE(12 * cost_.Estimate(p.knob_scale), kPlan.knob * left * 1.001);
  // The search gets what is usable after both.
  double verify =
      6 * cost_.Estimate(p.ab_scale) + 12 * cost_.Estimate(p.knob_scale);
  EXPECT_NEAR(static_cast<double>(p.search_budget_ns),
              kUsableTimeShare * left - verify, 1.0);
  EXPECT_LE(p.search_min_scale, 0.02);
  // A short budget leaves the search nothing, never less than nothing.
  EXPECT_EQ(PlanTune(Ctx(), kPlan, 5 * kS, 0.02, 12).search_budget_ns, 0u);
}

TEST_F(PlanTest, ThePlanSaysWhatItUsesAndWhetherFullSizeFits) {
  // 600 s: 6 full-size runs (66 s) fit in the A/B's 40%.
  TunePlan big = PlanTune(Ctx(), kPlan, 600 * kS, 0.02, 0);
  EXPECT_TRUE(big.full_size());
  std::string t = PlanText(Ctx(), kPlan, big, 600 * kS, 40);
  EXPECT_NE(t.find("full-size trials fit"), std::string::npos) << t;
  EXPECT_NE(t.find("40 candidates"), std::string::npos) << t;
  EXPECT_NEAR(static_cast<double>(big.search_budget_ns) + big.verify_ns,
              kUsableTimeShare * 600 * kS, 1.0);
  // Reads: the A/B's preferred pairs come first, so full size is promised
  // only if they fit there.
  t = PlanText(Ctx(), kPlanReads,
               PlanTune(Ctx(), kPlanReads, 600 * kS, 0.02, 0), 600 * kS, 40);
  EXPECT_NE(t.find("and the A/B too if its 5 pairs fit there"),
            std::string::npos)
      << t;
  // 60 s: they do not (24 s for 6 runs of 11 s); the text says what one
  // costs.
  TunePlan small = PlanTune(Ctx(), kPlan, 60 * kS, 0.02, 0);
  EXPECT_FALSE(small.full_size());
  t = PlanText(Ctx(), kPlan, small, 60 * kS, 40);
  EXPECT_NE(t.find("do not fit"), std::string::npos) << t;
  EXPECT_NE(t.find("a full-size trial costs ~11"), std::string::npos) << t;
}

TEST_F(PlanTest, ABufferOnTheRuleGivesTheAbMoreTime) {
  const double left = 60 * kS;
  EXPECT_GT(PlanTune(Ctx(), kPlanShapeOnRule, left, 0.02, 0).ab_scale,
            PlanTune(Ctx(), kPlan, left, 0.02, 0).ab_scale);
}

TEST_F(PlanTest, TheKnobCheckBuysRoundsWithSpareTime) {
  CheckPlan tight = PlanKnobCheck(Ctx(), kPlan, 60 * kS, 0.5, 9, 2);
  EXPECT_EQ(tight.knob_rounds, kMinRepeats);
  CheckPlan roomy = PlanKnobCheck(Ctx(), kPlan, 6000 * kS, 0.05, 9, 2);
  EXPECT_EQ(roomy.knob_rounds, kMaxKnobCheckRounds);
  EXPECT_LE(roomy.ab_scale, 0.05 + 1e-9);  // never above the planned scale
  EXPECT_LE(roomy.knob_scale, roomy.ab_scale);
  // Without a knob check there are no extra rounds to buy.
  EXPECT_EQ(PlanKnobCheck(Ctx(), kPlan, 6000 * kS, 0.05, 0, 0).knob_rounds,
            kMinRepeats);
}

TEST_F(PlanTest, TheKnobCheckLeavesRoomForEachKnobsOwnAb) {
  // 100 s left, the A/B planned at 0.5 (6 runs of 6 s = 36 s): 59 s spare.
  // One judged knob (6 runs): no own A/Bs follow, and the check runs at the
  // A/B's scale. Two judged knobs (9 runs): should neither survive, their
  // own A/Bs (9 more runs) must fit at the same scale, so 18 runs share the
  // spare time (at 0.5 the check alone would take 54 s of it).
  CheckPlan one = PlanKnobCheck(Ctx(), kPlan, 100 * kS, 0.5, 6, 1);
  CheckPlan two = PlanKnobCheck(Ctx(), kPlan, 100 * kS, 0.5, 9, 2);
  const double spare = 0.95 * 100 * kS - 6 * cost_.Estimate(0.5);
  EXPECT_DOUBLE_EQ(one.knob_scale, 0.5);
  EXPECT_NEAR(18 * cost_.Estimate(two.knob_scale), spare, 0.01 * spare);
  EXPECT_LT(two.knob_scale, 0.25);
}

TEST_F(PlanTest, TheAbGrowsIntoTimeTheSearchLeft) {
  AbPlan small = PlanAb(Ctx(), kPlan, 60 * kS, 0.05);
  AbPlan large = PlanAb(Ctx(), kPlan, 600 * kS, 0.05);
  EXPECT_GE(large.scale, small.scale);
  EXPECT_GE(small.repeats, kMinRepeats);
  EXPECT_LE(large.repeats, kMaxAbRepeats);
  // Filling the time: the largest scale 3 pairs afford, pairs added later.
  AbPlan fill = PlanAb(Ctx(), kPlanShapeOnRule, 600 * kS, 0.05);
  EXPECT_EQ(fill.repeats, kMaxAbRepeats);
  EXPECT_LE(6 * cost_.Estimate(fill.scale), kUsableTimeShare * 600 * kS);
}

TEST_F(PlanTest, ForReadsTheAbTakesItsPreferredPairsBeforeScale) {
  // 40 s left, the A/B planned at 0.5: 3 pairs fit there (36 s of 38 s),
  // so kPlan runs them; the reads' plan runs kPreferredAbRepeats pairs on a
  // smaller copy, but never below the floor it is given.
  AbPlan planned = PlanAb(Ctx(), kPlan, 40 * kS, 0.5);
  AbPlan reads = PlanAb(Ctx(), kPlanReads, 40 * kS, 0.5);
  EXPECT_NEAR(planned.scale, 0.5, 1e-6);
  EXPECT_EQ(planned.repeats, kMinRepeats);
  EXPECT_LT(reads.scale, planned.scale);
  EXPECT_GE(reads.repeats, kPreferredAbRepeats);
  EXPECT_LE(2.0 * reads.repeats * cost_.Estimate(reads.scale),
            kUsableTimeShare * 40 * kS);
  AbPlan floored = PlanAb(Ctx(), kPlanReads, 40 * kS, 0.5, 0.45);
  EXPECT_NEAR(floored.scale, 0.45, 1e-6);
  EXPECT_EQ(floored.repeats, kMinRepeats);
  // With time for five pairs at the planned scale, both plans agree.
  EXPECT_EQ(PlanAb(Ctx(), kPlanReads, 600 * kS, 0.5).scale,
            PlanAb(Ctx(), kPlan, 600 * kS, 0.5).scale);
}

}  // namespace
}  // namespace disktune::tune
