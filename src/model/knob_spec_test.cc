// The engine knob table: every row is complete, unique, and round-trips
// through its flag text, its JSON and EngineOptions; the generic operations
// (same, merge, range) see every row.
#include "src/model/knob_spec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace disktune {
namespace {

// An in-range value for any row, not the LevelDB default.
KnobValue Sample(const KnobSpec& k) {
  KnobValue v = std::clamp<KnobValue>(3 << 20, k.min_value, k.max_value);
  if (k.leveldb.default_value && v == *k.leveldb.default_value) v = k.min_value;
  return v;
}

TEST(KnobSpecTest, RowsAreCompleteAndUnique) {
  std::set<std::string_view> keys, flags, names;
  for (const KnobSpec& k : Knobs()) {
    EXPECT_FALSE(k.name.empty());
    EXPECT_FALSE(k.help.empty()) << k.json_key;
    EXPECT_TRUE(keys.insert(k.json_key).second) << k.json_key;
    EXPECT_TRUE(flags.insert(k.flag).second) << k.flag;
    EXPECT_TRUE(names.insert(k.name).second) << k.name;
    EXPECT_LE(k.min_value, k.max_value) << k.json_key;
    EXPECT_EQ(FindKnob(k.json_key), &k);
    EXPECT_EQ(&KnobRow(k.id), &k);
    // A row the engines have names its option in their configuration.
    if (k.leveldb.default_value) {
      EXPECT_FALSE(k.leveldb.option.empty());
    }
    if (k.rocksdb.default_value) {
      EXPECT_FALSE(k.rocksdb.option.empty());
      EXPECT_FALSE(k.rocksdb.section.empty());
    }
    EXPECT_TRUE(ParseKnobFlag(k, k.example).ok()) << k.flag;
  }
  EXPECT_EQ(FindKnob("no_such_knob"), nullptr);
}

TEST(KnobSpecTest, EveryRowRoundTripsThroughJsonAndOptions) {
  EngineOptions o;
  for (const KnobSpec& k : Knobs()) o.Set(k.id, Sample(k));
  nlohmann::json j = KnobsToJson(o);
  EXPECT_EQ(j.size(), Knobs().size());
  EngineOptions back;
  ASSERT_TRUE(KnobsFromJson(j, "test", &back).ok());
  EXPECT_TRUE(SameKnobs(o, back));
  for (const KnobSpec& k : Knobs()) {
    EXPECT_EQ(back.Get(k.id), Sample(k)) << k.json_key;
    EngineOptions one = back;
    one.Set(k.id, std::nullopt);
    EXPECT_FALSE(SameKnobs(one, back)) << k.json_key;
    EXPECT_FALSE(KnobsToJson(one).contains(k.json_key)) << k.json_key;
  }
}

TEST(KnobSpecTest, MergeFillsOrOverwrites) {
  EngineOptions from, to;
  for (const KnobSpec& k : Knobs()) from.Set(k.id, Sample(k));
  const KnobSpec& first = Knobs().front();
  to.Set(first.id, first.min_value);
  EngineOptions fill = to;
  MergeKnobs(from, /*overwrite=*/false, &fill);
  EXPECT_EQ(fill.Get(first.id), first.min_value);
  EngineOptions over = to;
  MergeKnobs(from, /*overwrite=*/true, &over);
  EXPECT_TRUE(SameKnobs(over, from));
}

TEST(KnobSpecTest, FlagsParseUnitsAndCheckRanges) {
  const KnobSpec* wb = FindKnob("write_buffer_bytes");
  ASSERT_NE(wb, nullptr);
  EXPECT_EQ(*ParseKnobFlag(*wb, "16MiB"), 16 << 20);
  Status small = ParseKnobFlag(*wb, "1KiB").status();
  EXPECT_NE(small.message().find("--write-buffer-size must be at least 64 KiB"),
            std::string::npos)
      << small.ToString();
  EXPECT_NE(ParseKnobFlag(*wb, "16").status().message().find("e.g. "),
            std::string::npos);
  const KnobSpec* bloom = FindKnob("bloom_bits_per_key");
  ASSERT_NE(bloom, nullptr);
  EXPECT_FALSE(ParseKnobFlag(*bloom, "65").ok());
  EXPECT_FALSE(ParseKnobFlag(*bloom, "ten").ok());
  EXPECT_EQ(KnobValueText(*bloom, 0), "none");
  EXPECT_EQ(KnobValueText(*bloom, 10), "10 bits/key");
  const KnobSpec* codec = FindKnob("compression");
  ASSERT_NE(codec, nullptr);
  EXPECT_EQ(*ParseKnobFlag(*codec, "zstd"),
            static_cast<KnobValue>(Compression::kZstd));
  EXPECT_EQ(KnobValueToJson(*codec, 0), "none");
  EXPECT_FALSE(KnobValueFromJson(*codec, "brotli", "p").ok());
  const KnobSpec* files = FindKnob("max_open_files");
  ASSERT_NE(files, nullptr);
  EXPECT_EQ(KnobValueText(*files, -1), "unlimited");
  EXPECT_EQ(KnobDefault(*files, "rocksdb"), -1);
  EXPECT_EQ(KnobDefault(*files, "leveldb"), 1000);
  EXPECT_EQ(KnobDefault(*files, "sqlite3"), std::nullopt);
}

TEST(KnobSpecTest, BoolAndEnumKnobsSpeakTheirNames) {
  const KnobSpec* direct = FindKnob("direct_io_for_flush_and_compaction");
  ASSERT_NE(direct, nullptr);
  EXPECT_EQ(*ParseKnobFlag(*direct, "on"), 1);
  EXPECT_EQ(*ParseKnobFlag(*direct, "false"), 0);
  EXPECT_FALSE(ParseKnobFlag(*direct, "maybe").ok());
  EXPECT_EQ(KnobValueText(*direct, 1), "on");
  EXPECT_EQ(KnobValueToJson(*direct, 1), true);
  EXPECT_EQ(*KnobValueFromJson(*direct, false, "p"), 0);
  EXPECT_FALSE(KnobValueFromJson(*direct, 1, "p").ok());

  const KnobSpec* style = FindKnob("compaction_style");
  ASSERT_NE(style, nullptr);
  EXPECT_EQ(*ParseKnobFlag(*style, "universal"),
            static_cast<KnobValue>(CompactionStyle::kUniversal));
  Status bad = ParseKnobFlag(*style, "fifo").status();
  EXPECT_NE(bad.message().find("--compaction-style"), std::string::npos);
  EXPECT_EQ(KnobValueToJson(*style, 1), "universal");
  EXPECT_EQ(*KnobValueFromJson(*style, "level", "p"), 0);
  EXPECT_FALSE(KnobValueFromJson(*style, 0, "p").ok());
  EXPECT_FALSE(KnobValueFromJson(*style, "fifo", "p").ok());
  const KnobSpec* bottom = FindKnob("bottommost_compression");
  ASSERT_NE(bottom, nullptr);
  EXPECT_EQ(KnobValueText(*bottom, *bottom->rocksdb.default_value), "same");
  EXPECT_EQ(*ParseKnobFlag(*bottom, "zstd"),
            static_cast<KnobValue>(BottommostCompression::kZstd));
}

TEST(KnobSpecTest, RocksDbOwnKnobsHaveNoLevelDbDefault) {
  size_t own = 0;
  for (const KnobSpec& k : Knobs()) {
    if (!IsRocksDbOnly(k)) continue;
    own++;
    EXPECT_EQ(KnobDefault(k, "leveldb"), std::nullopt) << k.json_key;
    EXPECT_TRUE(k.leveldb.option.empty()) << k.json_key;
    EngineOptions o;
    o.Set(k.id, k.rocksdb.default_value);
    EXPECT_TRUE(SetsRocksDbOnlyKnob(o)) << k.json_key;
    if (k.unit == KnobUnit::kEnum) {
      EXPECT_EQ(k.choices.size(), static_cast<size_t>(k.max_value + 1));
    }
  }
  EXPECT_GE(own, 17u);
  // The table sizes and the block cache are the rows both engines share.
  EXPECT_FALSE(IsRocksDbOnly(*FindKnob("max_file_bytes")));
  EXPECT_FALSE(IsRocksDbOnly(*FindKnob("cache_bytes")));
  EXPECT_EQ(FindKnob("max_file_bytes")->rocksdb.option,
            "target_file_size_base");
}

}  // namespace
}  // namespace disktune
