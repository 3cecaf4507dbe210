// TuneConfig and CandidateSpace hold one value (or list) per row of the
// knob table, so every row, the rows added after these tests were written
// included, works through the generic code with no per-knob code in
// src/tune: these tests iterate Knobs() rather than naming knobs.
#include "src/tune/knobs.h"

#include <gtest/gtest.h>

#include <string>

#include "src/model/knob_spec.h"
#include "src/tune/rules.h"

namespace disktune::tune {
namespace {

// A value of k other than `from` that the knob's flag accepts.
KnobValue Other(const KnobSpec& k, KnobValue from) {
  Result<KnobValue> example = ParseKnobFlag(k, k.example);
  if (example.ok() && *example != from) return *example;
  return from + 1 <= k.max_value ? from + 1 : from - 1;
}

TEST(TuneConfigTest, EveryRowRoundTripsThroughEngineOptions) {
  for (const char* engine : {"leveldb", "rocksdb"}) {
    const TuneConfig d = ModelFor(engine).defaults;
    for (const KnobSpec& k : Knobs()) {
      SCOPED_TRACE(std::string(engine) + " " + std::string(k.json_key));
      const std::optional<KnobValue> def = KnobDefault(k, engine);
      // The engine's defaults are the table's, unset where it has no such
      // option (a negative count, RocksDB's unlimited, is unset too).
      if (!def || (k.unit == KnobUnit::kCount && *def < 0)) {
        EXPECT_FALSE(d.Get(k.id).has_value());
      } else {
        EXPECT_EQ(d.Get(k.id), def);
      }
      if (!def) continue;
      const KnobValue v = Other(k, *def);
      ASSERT_TRUE(CheckKnobRange(k, v).ok()) << v;
      EngineOptions o = ToEngineOptions(d);
      o.Set(k.id, v);
      const TuneConfig c = FromEngineOptions(o, d);
      EXPECT_EQ(c.Get(k.id), v);
      EXPECT_EQ(ToEngineOptions(c).Get(k.id), v);
      EXPECT_EQ(KnobValueOf(c, Knob{&k}), v);
      EXPECT_EQ(KnobValueText(c, Knob{&k}), KnobValueText(k, v));
      EXPECT_EQ(KnobValueJson(c, Knob{&k}), KnobValueToJson(k, v));
      // Only that knob differs, and copying it makes the configs equal.
      for (Knob other : AllKnobs()) {
        EXPECT_EQ(KnobDiffers(c, d, other), other.spec == &k) << other.name();
      }
      TuneConfig copy = d;
      CopyKnob(c, Knob{&k}, &copy);
      if (k.id == KnobId::kCacheBytes) {  // not a searched knob
        copy.Set(k.id, c.Get(k.id));
      }
      EXPECT_EQ(copy, c);
    }
  }
}

TEST(TuneConfigTest, ANegativeCountIsUnlimited) {
  TuneConfig c = ModelFor("leveldb").defaults;
  ASSERT_EQ(c.max_open_files(), std::optional<int>(1000));
  c.Set(KnobId::kMaxOpenFiles, -1);
  EXPECT_FALSE(c.max_open_files().has_value());
  EXPECT_FALSE(ToEngineOptions(c).max_open_files().has_value());
  EXPECT_EQ(KnobValueOf(c, Knob::Of(KnobId::kMaxOpenFiles)), -1);
  EXPECT_EQ(KnobValueText(c, Knob::Of(KnobId::kMaxOpenFiles)), "unlimited");
}

TEST(TuneConfigTest, TheTypedAccessorsReadTheRows) {
  TuneConfig c;
  c.Set(KnobId::kWriteBufferBytes, 48 * kMiB);
  c.Set(KnobId::kCompression, Compression::kZstd);
  c.Set(KnobId::kBloomBitsPerKey, 10);
  EXPECT_EQ(c.write_buffer_bytes(), 48 * kMiB);
  EXPECT_EQ(c.compression(), Compression::kZstd);
  EXPECT_EQ(c.bloom_bits_per_key(), 10);
  EXPECT_EQ(c.Get(KnobId::kCompression),
            static_cast<KnobValue>(Compression::kZstd));
}

TEST(CandidateSpaceTest, OneListPerKnobInTheOrderDecided) {
  CandidateSpace s;
  EXPECT_TRUE(s.Values(KnobId::kBlockSizeBytes).empty());
  EXPECT_FALSE(s.First(KnobId::kBlockSizeBytes).has_value());
  s.Set(KnobId::kBlockSizeBytes, std::vector<uint64_t>{16 * kKiB, 4 * kKiB});
  s.Set(KnobId::kBloomBitsPerKey, {10, 0});
  s.Set(KnobId::kBlockSizeBytes, std::vector<uint64_t>{64 * kKiB});
  ASSERT_EQ(s.knobs.size(), 2u);
  EXPECT_EQ(s.knobs[0].spec, &KnobRow(KnobId::kBlockSizeBytes));
  EXPECT_EQ(s.Values(KnobId::kBlockSizeBytes),
            std::vector<KnobValue>{64 * kKiB});
  EXPECT_EQ(s.First(KnobId::kBloomBitsPerKey), 10);
}

}  // namespace
}  // namespace disktune::tune
