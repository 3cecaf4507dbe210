// The no-passengers decision (passengers.h) on measured gains.
#include "src/tune/passengers.h"

#include <gtest/gtest.h>

#include "src/tune/gain_for_test.h"

namespace disktune::tune {
namespace {

using testing::GainOf;

TEST(Passengers, AKnobThatLostAloneIsNotRecommendedForItsCompany) {
  // `run --quick`, mixed: compression "none" 0.86x [0.77x, 1.21x] alone;
  // the bundle's leave-one-out showed no knob needed.
  KnobTrial none{false, GainOf(1.01, 0.95, 1.08), GainOf(0.86, 0.77, 1.21)};
  KnobTrial bloom{false, GainOf(1.02, 0.97, 1.07), GainOf(1.04, 0.98, 1.10)};
  auto p = RecommendKnobs({none, bloom});
  EXPECT_EQ(p[0], KnobProof::kNone);
  EXPECT_EQ(p[1], KnobProof::kNone);
  EXPECT_TRUE(NeedsSoloAbs({none, bloom}));
}

TEST(Passengers, AGainWithinTheNoiseIsUndecidedOnEitherSideOfOne) {
  // LevelDB read-heavy at 128 MiB, bloom filters after three rounds: one
  // tune's 1.10x [0.99x, 1.22x], another's 0.98x [0.86x, 1.21x]; later
  // rounds measured the filter at 1.05-1.14x. Both are undecided.
  EXPECT_TRUE(Undecided(GainOf(1.10, 0.99, 1.22)));
  EXPECT_TRUE(Undecided(GainOf(0.98, 0.86, 1.21)));
  // Decided: a gain, or an interval below 1.
  EXPECT_FALSE(Undecided(GainOf(1.20, 1.05, 1.31)));
  EXPECT_FALSE(Undecided(GainOf(0.85, 0.75, 0.97)));
}

TEST(Passengers, LeaveOneOutKeepsWhatTheBundleNeeds) {
  KnobTrial needed{false, GainOf(1.20, 1.10, 1.31), std::nullopt};
  KnobTrial passenger{false, GainOf(1.00, 0.96, 1.04), std::nullopt};
  auto p = RecommendKnobs({passenger, needed});
  EXPECT_EQ(p[0], KnobProof::kNone);
  EXPECT_EQ(p[1], KnobProof::kLeaveOneOut);
  EXPECT_FALSE(NeedsSoloAbs({passenger, needed}));
}

TEST(Passengers, OfSubstitutesOnlyTheBestSoloWinnerIsKept) {
  // Each covers the other's gain: neither is needed by the bundle, both win
  // alone; one is kept, the one with the larger gain.
  KnobTrial a{false, GainOf(1.0, 0.97, 1.03), GainOf(1.15, 1.05, 1.26)};
  KnobTrial b{false, GainOf(1.0, 0.97, 1.03), GainOf(1.22, 1.10, 1.35)};
  KnobTrial lost{false, GainOf(1.0, 0.97, 1.03), GainOf(0.90, 0.80, 1.01)};
  auto p = RecommendKnobs({a, b, lost});
  EXPECT_EQ(p[0], KnobProof::kNone);
  EXPECT_EQ(p[1], KnobProof::kOwnAb);
  EXPECT_EQ(p[2], KnobProof::kNone);
  EXPECT_EQ(KnobProofName(p[1]), "own_ab");
}

TEST(Passengers, RuleKnobsStayAndDoNotCountAsJudged) {
  KnobTrial rule{true, std::nullopt, std::nullopt};
  KnobTrial judged{false, GainOf(1.0, 0.9, 1.1), std::nullopt};
  EXPECT_TRUE(NeedsSoloAbs({rule, judged}));
  EXPECT_FALSE(NeedsSoloAbs({rule}));
  auto p = RecommendKnobs({rule, judged});
  EXPECT_EQ(p[0], KnobProof::kRule);
  EXPECT_EQ(p[1], KnobProof::kNone);
}

TEST(Passengers, OneRoundIsNoEvidence) {
  // A single round has no interval: never significant.
  KnobTrial k{false, GainOf(1.5, 1.5, 1.5, 1), GainOf(1.5, 1.5, 1.5, 1)};
  EXPECT_EQ(RecommendKnobs({k, k})[0], KnobProof::kNone);
}

}  // namespace
}  // namespace disktune::tune
