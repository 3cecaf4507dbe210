// The rules on crafted device facts: each knob's candidates follow from the
// fact the rule names, and every candidate fits the memory budget.
#include "src/tune/rules.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "src/core/units.h"
#include "src/model/probe_result_for_test.h"

namespace disktune::tune {
namespace {

// A device and machine: 24 GiB of memory, a 2 GB/s disk, snappy at 500 MB/s.
DeviceFacts Facts() {
  DeviceFacts f;
  f.source = "test";
  f.rand_read_4k_p50_ns = 80000;
  f.seq_write_bytes_per_sec = 2e9;
  f.fdatasync_point = "fsync.fdatasync.4096.append";
  f.fdatasync_p50_ns = 250000;
  f.memory_bytes = 24 * kGiB;
  f.cpu_count = 2;
  f.snappy_bytes_per_sec = 5e8;
  f.fd_limit = 65536;
  return f;
}

RuleInput Input(const std::string& workload, uint64_t num,
                uint64_t budget = 128 * kMiB,
                const std::string& engine = "leveldb") {
  RuleInput in;
  in.engine = &ModelFor(engine);
  auto w = ResolveWorkload(workload);
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  in.workload = *w;
  in.workload.num = num;
  in.traits = TraitsOf(in.workload);
  auto shape = ShapeOf(in.workload, engine);
  EXPECT_TRUE(shape.ok()) << shape.status().ToString();
  in.shape = *shape;
  in.budget_bytes = budget;
  in.facts = Facts();
  return in;
}

const RuleRecord* Record(const CandidateSpace& s, const std::string& rule) {
  for (const RuleRecord& r : s.records) {
    if (r.rule == rule) return &r;
  }
  return nullptr;
}

TEST(RulesTest, EveryRuleNamesItsFactAndDecides) {
  CandidateSpace s = ApplyRules(Input("mixed", 100000));
  EXPECT_EQ(s.records.size(), Rules().size());
  for (const RuleRecord& r : s.records) {
    EXPECT_FALSE(r.fact.empty()) << r.rule;
    EXPECT_FALSE(r.decision.empty()) << r.rule;
    EXPECT_FALSE(r.candidates.empty()) << r.rule;
  }
}

// The knobs the tuner judges only on copies as deep as the full size are
// knobs of the table (a misspelt name would match none): the write buffer,
// and RocksDB's memtable count and merge, level-0 triggers, level sizes and
// compaction style.
TEST(RulesTest, TheKnobsThatShapeTheLsmAreKnobs) {
  std::vector<std::string_view> shaping;
  for (Knob k : AllKnobs()) {
    if (ShapesLsm(k)) shaping.push_back(k.name());
  }
  EXPECT_EQ(shaping.size(), 9u);
  EXPECT_NE(std::find(shaping.begin(), shaping.end(), "compaction_style"),
            shaping.end());
  EXPECT_EQ(std::find(shaping.begin(), shaping.end(), "bloom_bits_per_key"),
            shaping.end());
}

TEST(RulesTest, SlowRandomReadsOnDataBeyondMemoryTurnBloomOn) {
  // 1G keys x 116 B of random fill = ~53 GB of tables on a 24 GiB
  // machine: reads reach the device, whose 4 KiB reads take 8 ms (a
  // rotating disk).
  RuleInput in = Input("read-heavy", 1000000000);
  in.facts.rand_read_4k_p50_ns = 8000000;
  CandidateSpace s = ApplyRules(in);
  ASSERT_FALSE(s.Values(KnobId::kBloomBitsPerKey).empty());
  EXPECT_EQ(s.Values(KnobId::kBloomBitsPerKey).front(), 10);
  const RuleRecord* r = Record(s, "bloom-for-point-reads");
  ASSERT_NE(r, nullptr);
  EXPECT_NE(r->fact.find("8000 us"), std::string::npos) << r->fact;
  EXPECT_NE(r->fact.find("reach the device"), std::string::npos) << r->fact;
}

TEST(RulesTest, NoPointReadsNoBloom) {
  CandidateSpace s = ApplyRules(Input("write-heavy", 1000000));
  EXPECT_EQ(s.Values(KnobId::kBloomBitsPerKey), std::vector<KnobValue>{0});
  // Without reads, block size changes only compaction's cost per block: the
  // default stays.
  EXPECT_EQ(s.Values(KnobId::kBlockSizeBytes),
            std::vector<KnobValue>{4 * kKiB});
  // Writes scored on a fast disk: an eighth of the budget first.
  ASSERT_FALSE(s.Values(KnobId::kWriteBufferBytes).empty());
  EXPECT_EQ(s.First(KnobId::kWriteBufferBytes), KnobValue{16 * kMiB});
  // Never below the default, however small the budget.
  RuleInput small = Input("write-heavy", 1000000);
  small.budget_bytes = 16 * kMiB;
  EXPECT_EQ(ApplyRules(small).First(KnobId::kWriteBufferBytes),
            KnobValue{4 * kMiB});
  // On a slow disk (2011's), large buffers first (the engines' tuning guides).
  RuleInput slow = Input("write-heavy", 1000000);
  slow.facts.seq_write_bytes_per_sec = 80e6;
  EXPECT_EQ(ApplyRules(slow).First(KnobId::kWriteBufferBytes),
            KnobValue{56 * kMiB});
}

TEST(RulesTest, CacheSizedToTheWorkingSet) {
  // 200,000 keys x (16 + 100 + 20) B = ~26 MiB of working set in 128 MiB.
  RuleInput in = Input("read-heavy", 200000);
  CandidateSpace s = ApplyRules(in);
  ASSERT_TRUE(s.cache_cap_bytes.has_value());
  double ws = static_cast<double>(in.shape.live_entries) * (16 + 100 + 20);
  EXPECT_GE(static_cast<double>(*s.cache_cap_bytes), ws);
  EXPECT_LE(static_cast<double>(*s.cache_cap_bytes), 4 * ws);
  TuneConfig base = BaselineConfig(in, nullptr);
  for (const TuneConfig& c : EnumerateCandidates(in, base, &s)) {
    if (c == base) continue;
    EXPECT_GE(static_cast<double>(c.cache_bytes()), ws) << ConfigText(c);
    EXPECT_LE(c.cache_bytes(), *s.cache_cap_bytes) << ConfigText(c);
  }

  // A working set beyond the budget: the cache takes all that is left.
  CandidateSpace big = ApplyRules(Input("read-heavy", 5000000));
  EXPECT_FALSE(big.cache_cap_bytes.has_value());
}

TEST(RulesTest, OpenFilesCoverTheTableCount) {
  // 10 GiB of data in 2 MiB tables: ~4,000 tables, above LevelDB's 1000.
  RuleInput in = Input("read-heavy", 10 * kGiB / 116);
  CandidateSpace s = ApplyRules(in);
  ASSERT_TRUE(s.First(KnobId::kMaxOpenFiles).has_value());
  TuneConfig c = in.engine->defaults;
  c.Set(KnobId::kMaxFileBytes, s.First(KnobId::kMaxFileBytes));
  EXPECT_GE(static_cast<uint64_t>(*s.First(KnobId::kMaxOpenFiles)),
            EstimateTableCount(in.shape, c));
  EXPECT_GT(*s.First(KnobId::kMaxOpenFiles), 1000);

  // Small data: the default already covers every table.
  CandidateSpace small = ApplyRules(Input("read-heavy", 100000));
  EXPECT_EQ(small.Values(KnobId::kMaxOpenFiles), std::vector<KnobValue>{1000});
}

TEST(RulesTest, FewFileDescriptorsRaiseTheTableSize) {
  RuleInput in = Input("read-heavy", 10 * kGiB / 116);
  in.facts.fd_limit = 1024;
  CandidateSpace s = ApplyRules(in);
  EXPECT_GT(s.First(KnobId::kMaxFileBytes), KnobValue{2 * kMiB});
  TuneConfig c = in.engine->defaults;
  c.Set(KnobId::kMaxFileBytes, s.First(KnobId::kMaxFileBytes));
  ASSERT_TRUE(s.First(KnobId::kMaxOpenFiles).has_value());
  EXPECT_LE(*s.First(KnobId::kMaxOpenFiles), 1024 - 64);
  EXPECT_LE(EstimateTableCount(in.shape, c),
            static_cast<uint64_t>(*s.First(KnobId::kMaxOpenFiles)));
}

TEST(RulesTest, SlowFsyncWithDurableWritesBatches) {
  // fdatasync at 2 ms: one writer commits 500 times a second; 5,000 durable
  // writes/s need batches of ceil(5000 * 1.25 / 500) = 13.
  RuleInput in = Input("sync-writes", 1000000);
  ASSERT_TRUE(in.workload.durable_writes);
  in.facts.fdatasync_p50_ns = 2000000;
  CandidateSpace s = ApplyRules(in);
  EXPECT_EQ(s.entries_per_batch, 13u);
  const RuleRecord* r = Record(s, "group-commit-for-durable-writes");
  ASSERT_NE(r, nullptr);
  EXPECT_NE(r->fact.find("2000 us"), std::string::npos) << r->fact;

  // A fast fsync keeps one entry per commit.
  in.facts.fdatasync_p50_ns = 50000;
  EXPECT_EQ(ApplyRules(in).entries_per_batch, 1u);
  // Unsynced writes are never batched by the tuner.
  RuleInput plain = Input("write-heavy", 100000);
  plain.facts.fdatasync_p50_ns = 2000000;
  EXPECT_EQ(ApplyRules(plain).entries_per_batch, 1u);
}

TEST(RulesTest, CompressionFollowsTheBottleneck) {
  RuleInput in = Input("write-heavy", 1000000);
  // Disk faster than snappy: the CPU is the bottleneck, none first.
  EXPECT_EQ(ApplyRules(in).First(KnobId::kCompression),
            static_cast<KnobValue>(Compression::kNone));
  // A slow disk: keep compressing.
  in.facts.seq_write_bytes_per_sec = 50e6;
  EXPECT_EQ(
      ApplyRules(in).Values(KnobId::kCompression),
      std::vector<KnobValue>{static_cast<KnobValue>(Compression::kSnappy)});
  // Incompressible values: none only.
  in.workload.compression_ratio = 1.0;
  in.shape.compression_ratio = 1.0;
  EXPECT_EQ(ApplyRules(in).Values(KnobId::kCompression),
            std::vector<KnobValue>{static_cast<KnobValue>(Compression::kNone)});
}

TEST(RulesTest, ScansPreferLargerBlocks) {
  CandidateSpace s = ApplyRules(Input("ycsb-e", 100000));
  ASSERT_FALSE(s.Values(KnobId::kBlockSizeBytes).empty());
  EXPECT_GT(s.First(KnobId::kBlockSizeBytes), KnobValue{4 * kKiB});
}

TEST(RulesTest, BaselineIsTheDefaultsWithTheBudgetsCache) {
  RuleInput in = Input("write-heavy", 100000);
  std::string def;
  TuneConfig b = BaselineConfig(in, &def);
  const TuneConfig& d = in.engine->defaults;
  EXPECT_EQ(b.write_buffer_bytes(), d.write_buffer_bytes());
  EXPECT_EQ(b.bloom_bits_per_key(), d.bloom_bits_per_key());
  EXPECT_EQ(b.compression(), d.compression());
  EXPECT_EQ(b.max_open_files(), d.max_open_files());
  // (128 MiB - 2 x 4 MiB - index blocks) / (1 + 200 B per 4 KiB block).
  EXPECT_LT(b.cache_bytes(), 115 * kMiB);
  EXPECT_GT(b.cache_bytes(), 113 * kMiB);
  EXPECT_NE(def.find("defaults"), std::string::npos) << def;
}

TEST(RulesTest, EveryCandidateFitsTheBudget) {
  for (const char* w : {"write-heavy", "read-heavy", "mixed", "ycsb-a"}) {
    for (uint64_t budget : {4 * kMiB, 32 * kMiB, 128 * kMiB}) {
      RuleInput in = Input(w, 1000000, budget);
      CandidateSpace s = ApplyRules(in);
      TuneConfig base = BaselineConfig(in, nullptr);
      auto all = EnumerateCandidates(in, base, &s);
      ASSERT_FALSE(all.empty());
      EXPECT_EQ(all.front(), base);
      for (size_t i = 1; i < all.size(); i++) {
        const TuneConfig& c = all[i];
        uint64_t used = 2 * c.write_buffer_bytes() +
                        EstimateTableMemoryBytes(in.shape, c) + c.cache_bytes();
        EXPECT_LE(used, budget) << w << " " << ConfigText(c);
      }
    }
  }
}

RuleInput RocksDbInput(const std::string& workload,
                       uint64_t budget = 512 * kMiB) {
  return Input(workload, 1000000, budget, "rocksdb");
}

// The values the RocksDB rules left for `key`.
// The one candidate `e` (an enum of a RocksDB knob), as Own() lists it.
template <typename E>
std::vector<KnobValue> Only(E e) {
  return {static_cast<KnobValue>(e)};
}

std::vector<KnobValue> Own(const CandidateSpace& s, std::string_view key) {
  return s.Values(FindKnob(key)->id);
}

// Under a budget RocksDB's default 2 x 64 MiB write buffers overrun, the
// baseline's buffers shrink, and the rule starts from the shrunk size: its
// candidates never hold the unshrunk default, and on a fast disk (where no
// rule tries buffers larger than a quarter of the budget) every one of them
// fits beside the cache.
TEST(RocksDbRulesTest, WriteBufferCandidatesFitABudgetTheDefaultsOverrun) {
  for (double write_bps : {200e6, 2e9}) {
    for (const char* w : {"write-heavy", "mixed", "read-heavy"}) {
      RuleInput in = Input(w, 20000000, 64 * kMiB, "rocksdb");
      in.facts.seq_write_bytes_per_sec = write_bps;
      EXPECT_EQ(BaselineWriteBufferBytes(in), 8 * kMiB);
      CandidateSpace s = ApplyRules(in);
      ASSERT_FALSE(s.Values(KnobId::kWriteBufferBytes).empty()) << w;
      for (uint64_t x : s.Values(KnobId::kWriteBufferBytes)) {
        EXPECT_NE(x, in.engine->defaults.write_buffer_bytes()) << w;
        if (write_bps < 1e9) continue;  // large buffers are tried first
        TuneConfig c = in.engine->defaults;
        c.Set(KnobId::kWriteBufferBytes, x);
        EXPECT_TRUE(
            SplitBudget(*in.engine, in.budget_bytes, in.shape, c, std::nullopt)
                .ok())
            << w << " " << x;
      }
    }
  }
}

TEST(RocksDbRulesTest, EveryOwnKnobHasARuleOnlyForRocksDb) {
  CandidateSpace leveldb = ApplyRules(Input("mixed", 100000));
  for (const KnobCandidates& kc : leveldb.knobs) {
    EXPECT_FALSE(IsRocksDbOnly(*kc.spec)) << kc.spec->json_key;
  }
  CandidateSpace s = ApplyRules(RocksDbInput("mixed"));
  EXPECT_EQ(s.records.size(), Rules().size() + RocksDbRules().size());
  for (const RuleRecord& r : s.records) {
    EXPECT_FALSE(r.fact.empty()) << r.rule;
    EXPECT_FALSE(r.decision.empty()) << r.rule;
    EXPECT_FALSE(r.candidates.empty()) << r.rule;
  }
  for (const KnobSpec& k : Knobs()) {
    if (!IsRocksDbOnly(k)) continue;
    std::vector<KnobValue> v = Own(s, k.json_key);
    ASSERT_FALSE(v.empty()) << k.json_key;
    for (KnobValue x : v) EXPECT_TRUE(CheckKnobRange(k, x).ok()) << k.json_key;
  }
}

TEST(RocksDbRulesTest, BackgroundJobsFollowTheCpus) {
  RuleInput in = RocksDbInput("write-heavy");
  in.facts.cpu_count = 8;
  EXPECT_EQ(Own(ApplyRules(in), "max_background_jobs"),
            std::vector<KnobValue>{7});
  in.facts.cpu_count = 2;
  EXPECT_EQ(Own(ApplyRules(in), "max_background_jobs"),
            std::vector<KnobValue>{2});
  in.facts.cpu_count = 64;
  EXPECT_EQ(Own(ApplyRules(in), "max_background_jobs"),
            std::vector<KnobValue>{16});
  RuleInput reads = RocksDbInput("read-heavy");
  reads.facts.cpu_count = 8;
  EXPECT_EQ(Own(ApplyRules(reads), "max_background_jobs"),
            std::vector<KnobValue>{2});
}

TEST(RocksDbRulesTest, SyncChunksFollowTheFsyncCost) {
  RuleInput in = RocksDbInput("write-heavy");
  // 10 x 250 us x 2 GB/s = 5 MB: 8 MiB.
  EXPECT_EQ(Own(ApplyRules(in), "bytes_per_sync"),
            std::vector<KnobValue>{8 * kMiB});
  EXPECT_EQ(Own(ApplyRules(in), "wal_bytes_per_sync"),
            std::vector<KnobValue>{8 * kMiB});
  // 10 x 20 us x 2 GB/s = 400 KB: the 512 KiB floor.
  in.facts.fdatasync_p50_ns = 20000;
  EXPECT_EQ(Own(ApplyRules(in), "bytes_per_sync"),
            std::vector<KnobValue>{512 * kKiB});
  // Not measured: RocksDB's tuning guide's 1 MiB.
  in.facts.fdatasync_p50_ns.reset();
  EXPECT_EQ(Own(ApplyRules(in), "bytes_per_sync"),
            std::vector<KnobValue>{1 * kMiB});
  // Synced commits already sync the log.
  in.workload.durable_writes = true;
  EXPECT_EQ(Own(ApplyRules(in), "wal_bytes_per_sync"),
            std::vector<KnobValue>{0});
  EXPECT_EQ(Own(ApplyRules(RocksDbInput("read-heavy")), "bytes_per_sync"),
            std::vector<KnobValue>{0});
}

TEST(RocksDbRulesTest, WritesRaiseMemtablesAndLevel0Triggers) {
  CandidateSpace s = ApplyRules(RocksDbInput("write-heavy"));
  // Measured: four memtables against RocksDB's two.
  EXPECT_EQ(Own(s, "max_write_buffer_number"), (std::vector<KnobValue>{4, 2}));
  EXPECT_EQ(Own(s, "level0_slowdown_writes_trigger"),
            std::vector<KnobValue>{32});
  EXPECT_EQ(Own(s, "level0_stop_writes_trigger"), std::vector<KnobValue>{48});
  // Level 1 about level 0 at its trigger: the first buffer x 4.
  ASSERT_FALSE(s.Values(KnobId::kWriteBufferBytes).empty());
  const uint64_t l0 =
      static_cast<uint64_t>(*s.First(KnobId::kWriteBufferBytes)) * 4;
  std::vector<KnobValue> l1 = Own(s, "max_bytes_for_level_base");
  ASSERT_EQ(l1.size(), 1u);
  EXPECT_GE(static_cast<uint64_t>(l1[0]), l0);
  EXPECT_LT(static_cast<uint64_t>(l1[0]), 2 * l0);
  // Decided for the smallest buffer the rules left, which the decision
  // names (a budget too small for a third 64 MiB memtable still holds four
  // of its smallest buffer in half of it).
  CandidateSpace small = ApplyRules(RocksDbInput("write-heavy", 160 * kMiB));
  EXPECT_EQ(Own(small, "max_write_buffer_number"),
            (std::vector<KnobValue>{4, 2}));
  const std::vector<KnobValue>& buffers =
      small.Values(KnobId::kWriteBufferBytes);
  const uint64_t smallest =
      static_cast<uint64_t>(*std::min_element(buffers.begin(), buffers.end()));
  for (const RuleRecord& r : small.records) {
    if (r.rule != "memtables-for-write-bursts") continue;
    EXPECT_NE(
        r.decision.find("4 x " + FormatBytes(static_cast<double>(smallest))),
        std::string::npos)
        << r.decision;
  }
  // Under one the default two overrun, the buffers shrink to an eighth of
  // the budget each, and four of them take half of it.
  CandidateSpace tiny = ApplyRules(RocksDbInput("write-heavy", 32 * kMiB));
  EXPECT_EQ(Own(tiny, "max_write_buffer_number"),
            (std::vector<KnobValue>{4, 2}));
  // Reads compact level 0 sooner and leave the writers' triggers.
  CandidateSpace reads = ApplyRules(RocksDbInput("read-heavy"));
  EXPECT_EQ(Own(reads, "level0_file_num_compaction_trigger"),
            std::vector<KnobValue>{2});
  EXPECT_EQ(Own(reads, "level0_slowdown_writes_trigger"),
            std::vector<KnobValue>{20});
  EXPECT_EQ(Own(reads, "max_write_buffer_number"), std::vector<KnobValue>{2});
}

TEST(RocksDbRulesTest, DeviceDecidesReadaheadAndDirectIo) {
  RuleInput in = RocksDbInput("mixed");
  CandidateSpace s = ApplyRules(in);
  EXPECT_EQ(Own(s, "direct_io_for_flush_and_compaction"),
            std::vector<KnobValue>{0});
  EXPECT_EQ(Own(s, "compaction_readahead_bytes"), std::vector<KnobValue>{0});
  in.facts.rotational = true;
  EXPECT_EQ(Own(ApplyRules(in), "compaction_readahead_bytes"),
            std::vector<KnobValue>{2 * kMiB});
  // Data beyond memory: compaction bypasses the page cache the reads need,
  // and reads ahead itself.
  in.facts.rotational = false;
  in.facts.memory_bytes = 64 * kMiB;
  s = ApplyRules(in);
  EXPECT_EQ(Own(s, "direct_io_for_flush_and_compaction"),
            std::vector<KnobValue>{1});
  EXPECT_EQ(Own(s, "compaction_readahead_bytes"),
            std::vector<KnobValue>{2 * kMiB});
  // No scored writes: compactions do not run in the scored steps, so the
  // readahead stays at its default even on a spinning disk.
  RuleInput reads = RocksDbInput("read-heavy");
  reads.facts.rotational = true;
  EXPECT_EQ(Own(ApplyRules(reads), "compaction_readahead_bytes"),
            std::vector<KnobValue>{0});
}

// Mapped reads are measured where reads dominate and the tables fit in the
// page cache; never where the data exceeds memory, nor for writers.
TEST(RocksDbRulesTest, MappedReadsWhenTablesFitMemory) {
  RuleInput reads = RocksDbInput("read-heavy");
  EXPECT_EQ(Own(ApplyRules(reads), "allow_mmap_reads"),
            (std::vector<KnobValue>{1, 0}));
  reads.facts.memory_bytes = 64 * kMiB;
  EXPECT_EQ(Own(ApplyRules(reads), "allow_mmap_reads"),
            std::vector<KnobValue>{0});
  EXPECT_EQ(Own(ApplyRules(RocksDbInput("write-heavy")), "allow_mmap_reads"),
            std::vector<KnobValue>{0});
}

TEST(RocksDbRulesTest, CodecsPerLevelFollowTheBottleneck) {
  RuleInput in = RocksDbInput("write-heavy");
  // 2 GB/s disk, snappy at 500 MB/s: the CPU limits writes.
  CandidateSpace s = ApplyRules(in);
  EXPECT_EQ(Own(s, "compression_per_level"),
            Only(CompressionPerLevel::kNoneToL1));
  EXPECT_EQ(Own(s, "bottommost_compression"),
            Only(BottommostCompression::kSameAsOthers));
  // A 100 MB/s disk: compress the last level harder.
  in.facts.seq_write_bytes_per_sec = 100e6;
  s = ApplyRules(in);
  EXPECT_EQ(Own(s, "bottommost_compression"),
            Only(BottommostCompression::kZstd));
  EXPECT_EQ(Own(s, "compression_per_level"),
            Only(CompressionPerLevel::kUniform));
}

TEST(RocksDbRulesTest, UniversalCompactionOnlyForWriteOnlyWorkloads) {
  const auto level = static_cast<KnobValue>(CompactionStyle::kLevel);
  const auto universal = static_cast<KnobValue>(CompactionStyle::kUniversal);
  EXPECT_EQ(Own(ApplyRules(RocksDbInput("write-heavy")), "compaction_style"),
            (std::vector<KnobValue>{level, universal}));
  for (const char* w : {"read-heavy", "mixed", "ycsb-a", "ycsb-e"}) {
    EXPECT_EQ(Own(ApplyRules(RocksDbInput(w)), "compaction_style"),
              std::vector<KnobValue>{level})
        << w;
  }
}

TEST(RocksDbRulesTest, CandidatesCarryOwnKnobsOnlyForRocksDb) {
  for (const char* w : {"write-heavy", "mixed"}) {
    RuleInput lin = Input(w, 1000000, 512 * kMiB);
    CandidateSpace ls = ApplyRules(lin);
    for (const TuneConfig& c :
         EnumerateCandidates(lin, BaselineConfig(lin, nullptr), &ls)) {
      EXPECT_FALSE(SetsRocksDbOnlyKnob(ToEngineOptions(c))) << ConfigText(c);
    }
  }
  RuleInput in = RocksDbInput("write-heavy");
  CandidateSpace s = ApplyRules(in);
  TuneConfig base = BaselineConfig(in, nullptr);
  auto all = EnumerateCandidates(in, base, &s);
  bool four = false, universal = false;
  for (const TuneConfig& c : all) {
    four |= c.Get(KnobId::kMaxWriteBufferNumber) == 4;
    universal |= c.Get(KnobId::kCompactionStyle) ==
                 static_cast<KnobValue>(CompactionStyle::kUniversal);
    uint64_t used = static_cast<uint64_t>(WriteBuffersHeld(*in.engine, c)) *
                        c.write_buffer_bytes() +
                    EstimateTableMemoryBytes(in.shape, c) + c.cache_bytes();
    EXPECT_LE(used, in.budget_bytes) << ConfigText(c);
  }
  EXPECT_TRUE(four);
  EXPECT_TRUE(universal);
  // The baseline keeps RocksDB's defaults.
  for (const KnobSpec& k : Knobs()) {
    if (!IsRocksDbOnly(k)) continue;
    EXPECT_EQ(base.Get(k.id), ModelFor("rocksdb").defaults.Get(k.id))
        << k.json_key;
  }
}

// The probe points the rules read, named `names[i]`, with the params the
// probes give them.
std::vector<ProbeResult> FactPoints(const std::vector<std::string>& names) {
  std::vector<ProbeResult> probes = {
      testing::BlockPoint(names[0], "rand_read", 4096, 1),
      testing::BlockPoint(names[1], "seq_write", 1 << 20, 1),
      testing::FdatasyncPoint(names[2], 16384, "overwrite"),
      testing::FdatasyncPoint(names[3], 4096, "append")};
  probes[0].latency_ns = LatencySummary{};
  probes[0].latency_ns->p50 = 90000;
  probes[0].latency_ns->p99 = 200000;
  probes[1].bytes_per_sec = 3e8;
  probes[2].latency_ns->p50 = 999;
  probes[3].latency_ns->p50 = 300000;
  // Faster, but not the scratch directory's own cache state or filesystem.
  probes.push_back(probes[3]);
  probes[4].name = names[4];
  probes[4].params.write_cache = CacheState::kOff;
  probes[4].latency_ns->p50 = 10;
  probes.push_back(probes[3]);
  probes[5].name = names[5];
  probes[5].params.filesystem = "xfs";
  probes[5].latency_ns->p50 = 10;
  return probes;
}

TEST(RulesTest, FactsComeFromTheProbePointsParams) {
  for (const auto& names : std::vector<std::vector<std::string>>{
           {"rand_read.4k.qd1", "seq_write.1m.qd1",
            "fsync.fdatasync.16384.overwrite", "fsync.fdatasync.4096.append",
            "fsync.cache_off.fdatasync.4096.append",
            "fsync.fs.xfs.fdatasync.4096.append"},
           // Renamed points are found all the same.
           {"lat", "bw", "sync-a", "sync-b", "sync-c", "sync-d"}}) {
    Environment env;
    env.system.memory_bytes = 8 * kGiB;
    DeviceFacts f = FactsFromProbes(FactPoints(names), env, "test");
    EXPECT_EQ(f.rand_read_4k_p50_ns, 90000u);
    EXPECT_EQ(f.seq_write_bytes_per_sec, 3e8);
    EXPECT_EQ(f.fdatasync_point, names[3]);
    EXPECT_EQ(f.fdatasync_p50_ns, 300000u);
    EXPECT_EQ(f.memory_bytes, 8 * kGiB);
  }
}

// Under --throttle the facts are held to the class's limits, as the
// predictor's figures are; the source says what was lowered.
TEST(RulesTest, FactsUnderAClassAreHeldToItsLimits) {
  Environment env;
  env.system.memory_bytes = 8 * kGiB;
  ThrottleRecord rec;
  rec.spec.class_name = "hdd";
  rec.spec.limits.read_iops = rec.spec.limits.write_iops = 150;
  rec.spec.limits.read_bytes_per_sec = rec.spec.limits.write_bytes_per_sec =
      150000000;
  env.throttle = rec;
  DeviceFacts f = FactsFromProbes(
      FactPoints({"rand_read.4k.qd1", "seq_write.1m.qd1", "a", "b", "c", "d"}),
      env, "test");
  EXPECT_EQ(f.seq_write_bytes_per_sec, 1.5e8);  // 3e8 measured
  EXPECT_EQ(f.rand_read_4k_p50_ns, 6666667u);   // 90 us measured
  EXPECT_EQ(f.fdatasync_p50_ns, 300000u);       // a sync is not capped
  EXPECT_NE(f.source.find("held to the class's limits: seq_write_bytes_per_sec "
                          "300,000,000 -> 150,000,000"),
            std::string::npos)
      << f.source;
  env.throttle.reset();
  DeviceFacts native = FactsFromProbes(
      FactPoints({"rand_read.4k.qd1", "seq_write.1m.qd1", "a", "b", "c", "d"}),
      env, "test");
  EXPECT_EQ(native.seq_write_bytes_per_sec, 3e8);
  EXPECT_EQ(native.source, "test");
}

// Every figure the class caps reaches its fact: the read bandwidth and IOPS
// as well as the write bandwidth and the QD1 read's floor; a figure not
// measured stays unmeasured.
TEST(RulesTest, EveryCappedFigureReachesItsFact) {
  Environment env;
  ThrottleRecord rec;
  rec.spec.limits.read_iops = rec.spec.limits.write_iops = 150;
  rec.spec.limits.read_bytes_per_sec = rec.spec.limits.write_bytes_per_sec =
      150000000;
  env.throttle = rec;
  std::vector<ProbeResult> probes =
      FactPoints({"rand_read.4k.qd1", "seq_write.1m.qd1", "a", "b", "c", "d"});
  probes[0].iops = 11000;
  ProbeResult seq_read;
  seq_read.probe = "seq_read";
  seq_read.params.block_size_bytes = 1 << 20;
  seq_read.params.queue_depth = 1;
  seq_read.bytes_per_sec = 4e8;
  probes.push_back(seq_read);
  DeviceFacts f = FactsFromProbes(probes, env, "test");
  EXPECT_EQ(f.seq_write_bytes_per_sec, 1.5e8);  // 3e8 measured
  EXPECT_EQ(f.seq_read_bytes_per_sec, 1.5e8);   // 4e8 measured
  EXPECT_EQ(f.rand_read_iops, 150.0);           // 11,000 measured
  EXPECT_EQ(f.rand_read_4k_p50_ns, 6666667u);   // 90 us measured
  // No rule reads the p99: it keeps what was measured.
  EXPECT_EQ(f.rand_read_4k_p99_ns, 200000u);
  for (const char* figure :
       {"seq_write_bytes_per_sec", "seq_read_bytes_per_sec", "read_iops",
        "read_latency_ns"}) {
    EXPECT_NE(f.source.find(figure), std::string::npos) << f.source;
  }

  // Without the read points, their facts stay unmeasured under a class too.
  std::vector<ProbeResult> writes(probes.begin() + 1, probes.end() - 1);
  DeviceFacts w = FactsFromProbes(writes, env, "test");
  EXPECT_EQ(w.seq_write_bytes_per_sec, 1.5e8);
  EXPECT_FALSE(w.seq_read_bytes_per_sec);
  EXPECT_FALSE(w.rand_read_iops);
  EXPECT_FALSE(w.rand_read_4k_p50_ns);
}

// FactPoints with the means the model reads and the sequential read it
// needs besides: a run that holds the model's points.
std::vector<ProbeResult> ModelPoints() {
  std::vector<ProbeResult> probes = FactPoints(
      {"rand_read.4k.qd1", "seq_write.1m.qd1",
       "fsync.fdatasync.16384.overwrite", "fsync.fdatasync.4096.append",
       "fsync.cache_off.fdatasync.4096.append",
       "fsync.fs.xfs.fdatasync.4096.append"});
  probes[0].latency_ns->mean = 100000;
  probes[3].latency_ns->mean = 400000;
  ProbeResult seq_read;
  seq_read.name = "seq_read.1m.qd1";
  seq_read.probe = "seq_read";
  seq_read.params.block_size_bytes = 1 << 20;
  seq_read.params.queue_depth = 1;
  seq_read.bytes_per_sec = 4e8;
  probes.push_back(seq_read);
  return probes;
}

// The predictor's figures are bench's, from the same run: under a class,
// its IOPS limits and its loop device's request geometry and readahead,
// the figures held to its limits, the sync from the model's point; without
// the model's points, none (the predictor builds its own from the facts).
TEST(RulesTest, FactsCarryTheModelsFiguresFromTheRun) {
  Environment env;
  DeviceInfo device;
  device.read_ahead_kb = 128;
  env.device = device;
  DeviceFacts native = FactsFromProbes(ModelPoints(), env, "test");
  ASSERT_TRUE(native.model_figures);
  EXPECT_DOUBLE_EQ(native.model_figures->read_ahead_bytes, 128 << 10);
  EXPECT_DOUBLE_EQ(native.model_figures->write_iops_limit, 0);
  EXPECT_DOUBLE_EQ(native.model_figures->request_bytes, 0);
  EXPECT_DOUBLE_EQ(native.model_figures->sync_ns, 400000);  // the mean
  EXPECT_DOUBLE_EQ(native.model_figures->read_ns, 100000);

  ThrottleRecord rec;
  rec.spec.class_name = "hdd";
  rec.spec.limits.read_iops = 150;
  rec.spec.limits.write_iops = 100;
  rec.spec.limits.write_bytes_per_sec = 150000000;
  rec.request_bytes = 64 << 10;
  rec.read_ahead_bytes = 2560 << 10;
  env.throttle = rec;
  DeviceFacts hdd = FactsFromProbes(ModelPoints(), env, "test");
  ASSERT_TRUE(hdd.model_figures);
  const predict::DiskFigures& d = *hdd.model_figures;
  EXPECT_DOUBLE_EQ(d.read_iops_limit, 150);
  EXPECT_DOUBLE_EQ(d.write_iops_limit, 100);
  EXPECT_DOUBLE_EQ(d.request_bytes, 64 << 10);
  EXPECT_DOUBLE_EQ(d.read_ahead_bytes, 2560 << 10);
  // 3e8 measured, held to 100 write IOPS x the probe's 1 MiB request.
  EXPECT_DOUBLE_EQ(d.seq_write_Bps, 100.0 * (1 << 20));
  EXPECT_DOUBLE_EQ(d.read_ns, 1e9 / 150);  // 100 us measured
  EXPECT_FALSE(d.capped.empty());
  // The facts' JSON does not carry them.
  DeviceFacts bare = hdd;
  bare.model_figures.reset();
  EXPECT_EQ(FactsToJson(hdd), FactsToJson(bare));

  std::vector<ProbeResult> no_seq_read = ModelPoints();
  no_seq_read.pop_back();
  EXPECT_FALSE(FactsFromProbes(no_seq_read, env, "test").model_figures);
}

TEST(KnobsTest, MemoryModel) {
  DataShape shape;
  shape.live_entries = 1000000;
  TuneConfig c = ModelFor("leveldb").defaults;
  // (16 + 8 + 3 + 50) x 1.1 bytes per entry.
  EXPECT_NEAR(static_cast<double>(EstimateDbBytes(shape, c)), 84.7e6, 1e6);
  c.Set(KnobId::kBloomBitsPerKey, 10);
  uint64_t with_filter = EstimateTableMemoryBytes(shape, c);
  c.Set(KnobId::kBloomBitsPerKey, 0);
  // 10 bits per key of 1.1M keys.
  EXPECT_NEAR(
      static_cast<double>(with_filter - EstimateTableMemoryBytes(shape, c)),
      1.1e6 * 10 / 8, 1e3);
  auto split =
      SplitBudget(ModelFor("leveldb"), 16 * kMiB, shape, c, std::nullopt);
  ASSERT_TRUE(split.ok());
  EXPECT_EQ(split->total_bytes(), 16 * kMiB);
  c.Set(KnobId::kWriteBufferBytes, 8 * kMiB);
  EXPECT_FALSE(
      SplitBudget(ModelFor("leveldb"), 16 * kMiB, shape, c, std::nullopt).ok());
}

// LevelDB's levels hold 10 MiB, 100 MiB, 1000 MiB, ...; RocksDB's start at
// 256 MiB.
TEST(KnobsTest, LsmDepth) {
  const EngineModel& l = ModelFor("leveldb");
  EXPECT_EQ(LsmDepth(l, 0), 1);
  EXPECT_EQ(LsmDepth(l, 10 * kMiB), 1);
  EXPECT_EQ(LsmDepth(l, 10 * kMiB + 1), 2);
  EXPECT_EQ(LsmDepth(l, 110 * kMiB), 2);
  EXPECT_EQ(LsmDepth(l, 110 * kMiB + 1), 3);
  EXPECT_EQ(LsmDepth(l, 1ull << 50), 6);  // levels 1..6, no more
  const EngineModel& r = ModelFor("rocksdb");
  EXPECT_EQ(LsmDepth(r, 256 * kMiB), 1);
  EXPECT_EQ(LsmDepth(r, 300 * kMiB), 2);
  // The write-heavy benchmark's 4M keys (3.46M live, 85 bytes each): 3.
  DataShape shape;
  shape.live_entries = 3458658;
  EXPECT_EQ(LsmDepth(l, EstimateDbBytes(shape, l.defaults)), 3);
}

// LevelDB syncs each table it finishes: on a disk whose sync costs more
// than half of writing a 2 MiB table (a 7,200 rpm drive: ~8 ms, 150 MB/s)
// larger tables are measured against the default; on a fast disk not.
TEST(RulesTest, TheTableSizeFollowsTheSyncRate) {
  RuleInput fast = Input("write-heavy", 1000000);
  CandidateSpace f = ApplyRules(fast);
  EXPECT_EQ(f.Values(KnobId::kMaxFileBytes), std::vector<KnobValue>{2 * kMiB});
  RuleInput hdd = fast;
  hdd.facts.fdatasync_p50_ns = 8000000;
  hdd.facts.seq_write_bytes_per_sec = 150e6;
  hdd.facts.rotational = true;
  CandidateSpace h = ApplyRules(hdd);
  EXPECT_EQ(h.Values(KnobId::kMaxFileBytes),
            (std::vector<KnobValue>{16 * kMiB, 2 * kMiB}));
  const RuleRecord* r = Record(h, "table-file-size");
  ASSERT_NE(r, nullptr);
  EXPECT_NE(r->fact.find("125 syncs/s"), std::string::npos) << r->fact;
  EXPECT_NE(r->decision.find("measure 16 MiB tables"), std::string::npos)
      << r->decision;
  // Every candidate holds one of the two sizes.
  std::vector<TuneConfig> cands =
      EnumerateCandidates(hdd, BaselineConfig(hdd, nullptr), &h);
  bool larger = false;
  for (const TuneConfig& c : cands) larger |= c.max_file_bytes() == 16 * kMiB;
  EXPECT_TRUE(larger);
  // RocksDB syncs in bytes_per_sync chunks: no such rule.
  RuleInput rocks = RocksDbInput("write-heavy");
  rocks.facts = hdd.facts;
  EXPECT_EQ(ApplyRules(rocks).Values(KnobId::kMaxFileBytes).size(), 1u);
}

TEST(RocksDbRulesTest, SpinningDisksGetLargerBlocksAndReadaheadWithinTheQueue) {
  RuleInput in = RocksDbInput("write-heavy");
  in.facts.rotational = true;
  in.facts.max_sectors_kb = 512;
  CandidateSpace s = ApplyRules(in);
  // RocksDB's wiki: >= 2 MiB, but no larger than max_sectors_kb.
  EXPECT_EQ(Own(s, "compaction_readahead_bytes"),
            std::vector<KnobValue>{512 * 1024});
  in.facts.max_sectors_kb = 4096;
  EXPECT_EQ(Own(ApplyRules(in), "compaction_readahead_bytes"),
            std::vector<KnobValue>{2 * 1024 * 1024});
  // A slow device measures a far higher level-0 stop trigger.
  in.facts.seq_write_bytes_per_sec = 125e6;
  EXPECT_EQ(Own(ApplyRules(in), "level0_stop_writes_trigger"),
            (std::vector<KnobValue>{256, 48}));
  // Reads that reach a spinning disk: 64 KiB blocks first.
  RuleInput reads = Input("read-heavy", 1000000, 128 * kMiB, "rocksdb");
  reads.facts.rotational = true;
  reads.facts.memory_bytes = 64 * kMiB;  // the data exceeds memory
  CandidateSpace r = ApplyRules(reads);
  ASSERT_FALSE(r.Values(KnobId::kBlockSizeBytes).empty());
  EXPECT_EQ(r.First(KnobId::kBlockSizeBytes), KnobValue{64 * kKiB});
}

}  // namespace
}  // namespace disktune::tune
