#include "src/core/plan_clock.h"

#include <gtest/gtest.h>

namespace disktune {
namespace {

constexpr uint64_t kMs = 1'000'000;

PlannedStep Work(double units, uint64_t min_ns = 0,
                 uint64_t max_ns = UINT64_MAX) {
  PlannedStep s;
  s.kind = "sync_io";
  s.fixed_ns = 50 * kMs;
  s.work = units;
  s.min_ns = min_ns;
  s.max_ns = max_ns;
  return s;
}

PlannedStep Fixed(uint64_t ns) {
  PlannedStep s;
  s.kind = "block";
  s.fixed_ns = ns;
  return s;
}

TEST(PlanClockTest, SumsThePlanFromTheStepOn) {
  PlanClock c;
  c.SetPrior("sync_io", 1 * kMs);
  c.Add(Fixed(1000 * kMs));
  c.Add(Work(300, 250 * kMs, 1000 * kMs));   // 300 ms of work
  c.Add(Work(100, 250 * kMs, 1000 * kMs));   // held to its 250 ms minimum
  c.Add(Work(3000, 250 * kMs, 1000 * kMs));  // cut at its 1 s cap
  EXPECT_EQ(c.ExpectedNs(1), 350 * kMs);
  EXPECT_EQ(c.ExpectedNs(2), 300 * kMs);
  EXPECT_EQ(c.ExpectedNs(3), 1050 * kMs);
  EXPECT_EQ(c.RemainingNs(0), 2700 * kMs);
  EXPECT_EQ(c.RemainingNs(3), 1050 * kMs);
  EXPECT_EQ(c.RemainingNs(4), 0u);
}

TEST(PlanClockTest, AMeasuredRateReplacesThePrior) {
  PlanClock c;
  c.SetPrior("sync_io", 1 * kMs);
  c.Add(Work(300, 0, 100'000 * kMs));
  c.Add(Work(1000, 0, 100'000 * kMs));
  // The first step did its 300 units in 50 ms + 1.2 s: 4 ms per unit.
  c.Done(0, 1250 * kMs, 300);
  EXPECT_EQ(c.ExpectedNs(1), 4050 * kMs);
}

TEST(PlanClockTest, ACappedStepStillTellsTheRate) {
  PlanClock c;
  c.SetPrior("sync_io", 1 * kMs);
  c.Add(Work(3000, 0, 1000 * kMs));
  c.Add(Work(10000, 0, 60'000 * kMs));
  // Cut at its cap after 100 units: 10 ms per unit, so the next one takes
  // its whole minute.
  c.Done(0, 1050 * kMs, 100);
  EXPECT_EQ(c.ExpectedNs(1), 60'050 * kMs);
}

TEST(PlanClockTest, FixedStepsScaleByMeasuredOverExpected) {
  PlanClock c;
  c.Add(Fixed(1000 * kMs));
  c.Add(Fixed(1000 * kMs));
  c.Add(Fixed(1000 * kMs));
  c.Done(0, 1200 * kMs, 0);
  EXPECT_EQ(c.RemainingNs(1), 2400 * kMs);
  // Bounded: one stalled step does not multiply the rest without limit.
  c.Done(1, 100'000 * kMs, 0);
  EXPECT_EQ(c.ExpectedNs(2), 3000 * kMs);
}

TEST(PlanClockTest, AStepThatDidNothingTeachesNothing) {
  PlanClock c;
  c.SetPrior("sync_io", 1 * kMs);
  c.Add(Work(100));
  c.Add(Work(100));
  c.Done(0, 5 * kMs, 0);  // failed at once
  EXPECT_EQ(c.ExpectedNs(1), 150 * kMs);
}

TEST(PlanClockTest, ALongStepUpdatesFromItsOwnPace) {
  PlanClock c;
  c.SetPrior("sync_io", 1 * kMs);
  c.Add(Work(10000, 0, 60'000 * kMs));  // planned 50 ms + 10 s
  c.Add(Fixed(1000 * kMs));
  // 2 s into its work it did 1,000 units: 2 ms each, 18 s to go, then 1 s.
  EXPECT_EQ(c.RemainingWithin(0, 2050 * kMs, 1000), 19'000 * kMs);
  // Never past its cap.
  EXPECT_EQ(c.RemainingWithin(0, 2050 * kMs, 100), 59'000 * kMs);
}

TEST(PlanClockTest, AGuessedRateLearnsFromTheOtherGuesses) {
  PlanClock c;
  c.SetPrior("fillseq", 1000, true);
  c.SetPrior("readrandom", 2000, true);
  c.SetPrior("sync_io", 1 * kMs);  // calibrated: not a guess
  PlannedStep a, b, d;
  a.kind = "fillseq";
  a.work = 1000;
  b.kind = "readrandom";
  b.work = 1000;
  d.kind = "sync_io";
  d.work = 10;
  c.Add(a);
  c.Add(b);
  c.Add(d);
  // fillseq ran 3x slower than guessed: readrandom's guess triples too.
  c.Done(0, 3 * kMs, 1000);
  EXPECT_EQ(c.ExpectedNs(1), 6 * kMs);
  EXPECT_EQ(c.ExpectedNs(2), 10 * kMs);
}

}  // namespace
}  // namespace disktune
