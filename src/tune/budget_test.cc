// The tuner's budget with a fake clock and a fake byte counter.
#include "src/tune/budget.h"

#include <gtest/gtest.h>

namespace disktune::tune {
namespace {

struct Fake {
  uint64_t ns = 1000;
  uint64_t bytes = 500;
  TuneBudget Make(uint64_t time_ns, uint64_t write_bytes) {
    return TuneBudget(
        time_ns, write_bytes, [this] { return ns; }, [this] { return bytes; });
  }
};

TEST(TuneBudgetTest, WithoutWriteLimitOnlyTimeCounts) {
  Fake f;
  TuneBudget b = f.Make(60, 0);
  f.ns += 20;
  f.bytes += 1ull << 40;
  EXPECT_DOUBLE_EQ(b.UsedNs(), 20);
  EXPECT_DOUBLE_EQ(b.RemainingNs(), 40);
  EXPECT_EQ(b.ClockNs(), 1020u);
  EXPECT_DOUBLE_EQ(b.CostNs(7, 1ull << 40), 7);
  EXPECT_FALSE(b.WritesBind());
  EXPECT_EQ(b.BytesWritten(), 1ull << 40);
}

TEST(TuneBudgetTest, WritesUseTheBudgetAtItsOwnRate) {
  Fake f;
  // 60 ns for 600 bytes: 10 bytes cost 1 ns.
  TuneBudget b = f.Make(60, 600);
  f.ns += 10;
  f.bytes += 300;  // half the write budget after a sixth of the time
  EXPECT_DOUBLE_EQ(b.UsedNs(), 30);
  EXPECT_DOUBLE_EQ(b.RemainingNs(), 30);
  EXPECT_EQ(b.ClockNs(), 1030u);
  EXPECT_TRUE(b.WritesBind());
  EXPECT_DOUBLE_EQ(b.CostNs(5, 100), 10);
  EXPECT_DOUBLE_EQ(b.CostNs(50, 100), 50);
  f.bytes += 1000;  // over the limit: nothing left, never negative
  EXPECT_DOUBLE_EQ(b.RemainingNs(), 0);
}

TEST(TuneBudgetTest, TimeBindsWhenWritesAreFew) {
  Fake f;
  TuneBudget b = f.Make(60, 600);
  f.ns += 45;
  f.bytes += 60;
  EXPECT_DOUBLE_EQ(b.UsedNs(), 45);
  EXPECT_FALSE(b.WritesBind());
  // A counter that goes backwards (another process's view) counts nothing.
  f.bytes = 0;
  EXPECT_EQ(b.BytesWritten(), 0u);
}

}  // namespace
}  // namespace disktune::tune
