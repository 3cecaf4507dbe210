#include "src/bench/db_model.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace disktune::bench {
namespace {

constexpr int64_t kEntry = 16 + 100;  // the default shape's key + value

// Puts and deletes give the same deltas whether the model takes the
// single-writer path (plain load and store) or the shared one (locked
// read-modify-write).
class DbModelWriterTest : public ::testing::TestWithParam<bool> {};

TEST_P(DbModelWriterTest, CountsEachKeyOnce) {
  DbModel m;
  m.Reset(ValueShape{});
  m.Reserve(1000);
  m.SetSingleWriter(GetParam());
  EXPECT_EQ(m.Put(7), kEntry);
  EXPECT_EQ(m.Put(7), 0);  // an overwrite adds nothing
  EXPECT_EQ(m.Put(70), kEntry);
  EXPECT_TRUE(m.Contains(7));
  EXPECT_FALSE(m.Contains(8));
  EXPECT_EQ(m.key_end(), 71u);
  EXPECT_EQ(m.Put(3), kEntry);
  EXPECT_EQ(m.key_end(), 71u);  // never moves back
  EXPECT_EQ(m.Delete(7), -kEntry);
  EXPECT_EQ(m.Delete(7), 0);  // already gone
  EXPECT_EQ(m.Delete(8), 0);  // never there
  EXPECT_FALSE(m.Contains(7));
  EXPECT_EQ(m.Put(7), kEntry);  // back again
  EXPECT_TRUE(m.exact());
}

TEST_P(DbModelWriterTest, KeyPastCapacityMakesItInexact) {
  DbModel m;
  m.Reset(ValueShape{});
  m.Reserve(64);
  m.SetSingleWriter(GetParam());
  EXPECT_EQ(m.Put(64), 0);
  EXPECT_FALSE(m.exact());
  EXPECT_EQ(m.key_end(), 65u);
}

INSTANTIATE_TEST_SUITE_P(SingleAndShared, DbModelWriterTest, ::testing::Bool(),
                         [](const auto& info) {
                           return info.param ? "SingleWriter" : "Shared";
                         });

// Without SetSingleWriter, threads putting overlapping keys into the same
// words still count every key exactly once.
TEST(DbModelTest, ConcurrentPutsCountEveryKeyOnce) {
  constexpr uint64_t kKeys = 1 << 16;
  constexpr int kThreads = 4;
  DbModel m;
  m.Reset(ValueShape{});
  m.Reserve(kKeys);
  std::vector<int64_t> added(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      // Every thread puts every key, each starting at its own offset.
      for (uint64_t i = 0; i < kKeys; i++) {
        added[static_cast<size_t>(t)] +=
            m.Put((i + static_cast<uint64_t>(t) * 997) % kKeys);
      }
    });
  }
  for (auto& th : threads) th.join();
  int64_t total = 0;
  for (int64_t a : added) total += a;
  EXPECT_EQ(total, static_cast<int64_t>(kKeys) * kEntry);
  EXPECT_EQ(m.key_end(), kKeys);
}

}  // namespace
}  // namespace disktune::bench
