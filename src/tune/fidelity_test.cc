#include "src/tune/fidelity.h"

#include <gtest/gtest.h>

namespace disktune::tune {
namespace {

DataShape Keys(uint64_t n) {
  DataShape s;
  s.live_entries = n;
  return s;
}

TEST(ExpectedLevels, CountsMemtableLevelZeroAndTheLevelsBelow) {
  const EngineModel& m = ModelFor("leveldb");
  TuneConfig c = m.defaults;  // 4 MiB buffer, level 1 of 10 MiB, x10
  EXPECT_EQ(ExpectedLevels(m, c, 3 * kMiB), 0);    // in the memtable
  EXPECT_EQ(ExpectedLevels(m, c, 12 * kMiB), 1);   // level 0 (< 4 x 4 MiB)
  EXPECT_EQ(ExpectedLevels(m, c, 20 * kMiB), 3);   // level 0, 1 and 2
  EXPECT_EQ(ExpectedLevels(m, c, 500 * kMiB), 4);  // past 10 + 100 MiB
  c.Set(KnobId::kWriteBufferBytes, 28 * kMiB);
  EXPECT_EQ(ExpectedLevels(m, c, 26 * kMiB), 0);
}

TEST(ExpectedLevels, ReadsRocksDbsLevelOneSizeAndTriggerFromTheConfig) {
  const EngineModel& m = ModelFor("rocksdb");
  TuneConfig c = m.defaults;
  c.Set(KnobId::kWriteBufferBytes, 8 * kMiB);
  EXPECT_EQ(ExpectedLevels(m, c, 80 * kMiB), 2);  // level 0 + 256 MiB level 1
  c.Set(KnobId::kMaxBytesForLevelBase, 32 * kMiB);
  EXPECT_EQ(ExpectedLevels(m, c, 80 * kMiB), 3);
  c.Set(KnobId::kLevel0FileNumCompactionTrigger, 16);
  EXPECT_EQ(ExpectedLevels(m, c, 80 * kMiB), 1);  // 16 x 8 MiB in level 0
}

// The reported case: LevelDB ycsb-a at 64 MiB, 1M keys, a 28 MiB write
// buffer judged on a copy of 0.167 of the size.
TEST(CopyFidelity, ACopySmallerThanTheMemtablesIsNotFaithful) {
  const EngineModel& m = ModelFor("leveldb");
  TuneConfig full = m.defaults;
  full.Set(KnobId::kWriteBufferBytes, 28 * kMiB);
  full.Set(KnobId::kCacheBytes, 7 * kMiB);
  TuneConfig trial = full;
  trial.Set(KnobId::kCacheBytes, full.cache_bytes() / 6);
  CopyFidelity f =
      FidelityOf(m, Keys(1000000), Keys(167000), full, trial, 0.167);
  EXPECT_FALSE(f.data_exceeds_memory()) << f.Text();
  EXPECT_EQ(f.levels, 0);
  EXPECT_GE(f.full_levels, 1);  // 85 MB: three flushed 28 MiB buffers
  EXPECT_FALSE(f.faithful());
  // The full size is always faithful; a copy of most of it here too.
  EXPECT_TRUE(
      FidelityOf(m, Keys(1000000), Keys(1000000), full, full, 1.0).faithful());
  trial.Set(KnobId::kCacheBytes, full.cache_bytes() * 9 / 10);
  EXPECT_TRUE(
      FidelityOf(m, Keys(1000000), Keys(900000), full, trial, 0.9).faithful());
}

TEST(CopyFidelity, AFullSizeThatFitsInMemoryAsksOnlyForTheLevels) {
  const EngineModel& m = ModelFor("leveldb");
  TuneConfig full = m.defaults;
  full.Set(KnobId::kCacheBytes, 512 * kMiB);  // holds every block at full size
  TuneConfig trial = full;
  trial.Set(KnobId::kCacheBytes, full.cache_bytes() / 2);
  CopyFidelity f = FidelityOf(m, Keys(1000000), Keys(500000), full, trial, 0.5);
  EXPECT_TRUE(f.full_fits_memory);
  EXPECT_EQ(f.faithful(), f.levels >= f.full_levels) << f.Text();
}

TEST(NeedsFaithfulCopy, TheKnobsThatShapeTheLsmAndTheTableSize) {
  EXPECT_TRUE(NeedsFaithfulCopy(KnobNamed("write_buffer_bytes")));
  EXPECT_TRUE(NeedsFaithfulCopy(KnobNamed("max_file_bytes")));
  EXPECT_TRUE(NeedsFaithfulCopy(KnobNamed("compaction_style")));
  EXPECT_FALSE(NeedsFaithfulCopy(KnobNamed("bloom_bits_per_key")));
  EXPECT_FALSE(NeedsFaithfulCopy(KnobNamed("compression")));
}

}  // namespace
}  // namespace disktune::tune
