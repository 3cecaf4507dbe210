// `run`'s budget for its tuner: the 4 GiB --quick limit less what the run
// wrote before the tuner, never below the tuner's minimum.
#include "src/tune/run_budget.h"

#include <gtest/gtest.h>

#include "src/tune/budget.h"
#include "src/tune/tuner.h"

namespace disktune::tune {
namespace {

TEST(RunBudgetTest, QuickWriteBudgetIsWhatTheLimitLeaves) {
  EXPECT_EQ(QuickTuneWriteBudget(uint64_t{1} << 30),
            kRunQuickWriteLimitBytes - (uint64_t{1} << 30) -
                kRunQuickWriteReserveBytes);
  // The probes and the bench used it all: the tuner's floor, not zero.
  EXPECT_EQ(QuickTuneWriteBudget(uint64_t{5} << 30), kMinWriteBudgetBytes);
  EXPECT_EQ(QuickTuneWriteBudget(std::nullopt),
            kRunQuickFallbackTuneWriteBytes);
  // Under a throttle, half the limit.
  EXPECT_EQ(QuickTuneWriteBudget(uint64_t{1} << 30,
                                 kRunQuickThrottledWriteLimitBytes),
            kRunQuickThrottledWriteLimitBytes - (uint64_t{1} << 30) -
                kRunQuickWriteReserveBytes);
}

TEST(RunBudgetTest, QuickRunsGiveTheTunerAMinute) {
  EXPECT_EQ(RunTuneTimeBudgetNs(true), 60 * kSecondNs);
  EXPECT_EQ(RunTuneTimeBudgetNs(false), kDefaultTimeBudgetNs);
}

}  // namespace
}  // namespace disktune::tune
