// The memory budget is a hard limit: for every engine the tuner tunes and
// every built-in workload, at budgets from 16 MiB to 64 GiB, whatever the
// tuner can emit (the baseline, every candidate the search may pick, and
// every recommendation built from part of a candidate's changes) keeps
// write buffers (size x the number the engine holds, RocksDB's
// max_write_buffer_number, swept beyond what the rules propose), block
// cache and index/filter memory within the budget, and the engine's own form of
// it (RocksDB's OPTIONS file, LevelDB's options JSON) says the same.
#include <gtest/gtest.h>

#include <string>

#include "src/tune/engine_forms.h"
#include "src/tune/rules.h"

namespace disktune::tune {
namespace {

DeviceFacts Facts(bool fast) {
  DeviceFacts f;
  f.source = "test";
  f.rand_read_4k_p50_ns = fast ? 80000 : 4000000;
  f.seq_write_bytes_per_sec = fast ? 2e9 : 150e6;
  f.fdatasync_point = "fsync.fdatasync.4096.append";
  f.fdatasync_p50_ns = fast ? 250000 : 8000000;
  f.memory_bytes = 128 * kGiB;
  f.cpu_count = 2;
  f.snappy_bytes_per_sec = 5e8;
  f.fd_limit = 65536;
  return f;
}

// Memory the engine holds for `c` as its own form states it.
uint64_t FormMemory(std::string_view engine, const EngineModel& m,
                    const DataShape& shape, const TuneConfig& c) {
  const uint64_t index = EstimateTableMemoryBytes(shape, c);
  if (engine == "rocksdb") {
    auto ini = ParseIni(RocksDbOptionsIni(c, "test"));
    EXPECT_TRUE(ini.ok());
    if (!ini.ok()) return ~0ull;
    auto& cf = (*ini)["CFOptions \"default\""];
    auto& table = (*ini)["TableOptions/BlockBasedTable \"default\""];
    return std::stoull(cf["max_write_buffer_number"]) *
               std::stoull(cf["write_buffer_size"]) +
           std::stoull(table["block_cache"]) + index;
  }
  nlohmann::json j = LevelDbOptionsJson(c, "test")["options"];
  // LevelDB charges a cached block its contents only: what each entry holds
  // beyond them counts too.
  const uint64_t cache = j["block_cache_capacity"].get<uint64_t>();
  const uint64_t overhead =
      cache * m.cache_entry_overhead_bytes / j["block_size"].get<uint64_t>();
  return static_cast<uint64_t>(m.write_buffers) *
             j["write_buffer_size"].get<uint64_t>() +
         cache + overhead + index;
}

TEST(MemoryBudget, NothingTheTunerCanEmitExceedsTheBudget) {
  int checked = 0, refused = 0;
  for (std::string_view engine : {"leveldb", "rocksdb"}) {
    const EngineModel& m = ModelFor(engine);
    for (const std::string& name : BuiltinWorkloadNames()) {
      auto w = ResolveWorkload(name);
      ASSERT_TRUE(w.ok()) << name;
      auto shape = ShapeOf(*w, std::string(engine));
      ASSERT_TRUE(shape.ok()) << name;
      for (uint64_t budget = 16 * kMiB; budget <= 64 * kGiB; budget *= 2) {
        for (bool fast : {true, false}) {
          RuleInput in;
          in.engine = &m;
          in.workload = *w;
          in.traits = TraitsOf(*w);
          in.shape = *shape;
          in.budget_bytes = budget;
          in.facts = Facts(fast);
          CandidateSpace space = ApplyRules(in);
          std::string def;
          const TuneConfig base = BaselineConfig(in, &def);
          const auto all = EnumerateCandidates(in, base, &space);
          const std::string where = std::string(engine) + " " + name + " " +
                                    std::to_string(budget >> 20) + " MiB";
          ASSERT_FALSE(all.empty()) << where;
          if (!SplitBudget(m, budget, *shape, base, std::nullopt).ok()) {
            // Not even the baseline fits (the index blocks of a large data
            // set): RunTuner refuses the budget (TunerTest,
            // ABudgetTooSmallForTheDataIsRefused), nothing is emitted.
            refused++;
            continue;
          }
          auto fits = [&](const TuneConfig& c, const std::string& what) {
            auto split = SplitBudget(m, budget, *shape, c, std::nullopt);
            ASSERT_TRUE(split.ok())
                << where << " " << what << ": " << split.status().ToString();
            EXPECT_LE(c.cache_bytes(), split->cache_bytes)
                << where << " " << what;
            EXPECT_LE(FormMemory(engine, m, *shape, c), budget)
                << where << " " << what << " " << ConfigText(c);
            checked++;
          };
          fits(base, "baseline: " + def);
          for (const TuneConfig& c : all) {
            fits(c, "candidate");
            // RocksDB holds up to max_write_buffer_number memtables: more
            // of them take their share from the cache, or do not fit.
            for (int held : {3, 6}) {
              if (engine != "rocksdb") break;
              TuneConfig more = c;
              more.Set(KnobId::kMaxWriteBufferNumber, held);
              more = WithBudgetCache(in, space, more);
              if (SplitBudget(m, budget, *shape, more, std::nullopt).ok()) {
                fits(more, std::to_string(held) + " write buffers");
              }
            }
            // A recommendation keeps part of a candidate's changes: each
            // knob alone, the cache from WithBudgetCache as the tuner does.
            for (Knob k : AllKnobs()) {
              if (!KnobDiffers(c, base, k)) continue;
              TuneConfig part = base;
              CopyKnob(c, k, &part);
              part = WithBudgetCache(in, space, part);
              if (SplitBudget(m, budget, *shape, part, std::nullopt).ok()) {
                fits(part, std::string("only ") + KnobName(k));
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 1000);
  // Most combinations are tunable; the refusals are the small budgets.
  EXPECT_LT(refused, checked / 10);
}

TEST(MemoryBudget, EveryWriteBufferRocksDbKeepsCounts) {
  const EngineModel& m = ModelFor("rocksdb");
  DataShape shape;
  shape.live_entries = 1000000;
  TuneConfig c = m.defaults;
  c.Set(KnobId::kWriteBufferBytes, 16 * kMiB);
  auto two = SplitBudget(m, 512 * kMiB, shape, c, std::nullopt);
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(two->write_buffers_bytes, 2 * 16 * kMiB);
  c.Set(KnobId::kMaxWriteBufferNumber, 5);
  EXPECT_EQ(WriteBuffersHeld(m, c), 5);
  auto five = SplitBudget(m, 512 * kMiB, shape, c, std::nullopt);
  ASSERT_TRUE(five.ok());
  EXPECT_EQ(five->write_buffers_bytes, 5 * 16 * kMiB);
  EXPECT_EQ(five->cache_bytes, two->cache_bytes - 3 * 16 * kMiB);
  c.Set(KnobId::kMaxWriteBufferNumber, 40);  // 640 MiB of memtables
  EXPECT_FALSE(SplitBudget(m, 512 * kMiB, shape, c, std::nullopt).ok());
  // LevelDB has no such option: its two memtables.
  EXPECT_EQ(WriteBuffersHeld(ModelFor("leveldb"), ModelFor("leveldb").defaults),
            2);
}

// LevelDB charges a cached block its contents only; what each entry holds
// beyond that is budgeted too, so the configured cache is smaller than what
// the buffers leave. RocksDB charges it itself.
TEST(MemoryBudget, LevelDbCacheEntriesOverheadIsBudgeted) {
  DataShape shape;
  shape.key_bytes = 16;
  shape.value_bytes = 100;
  shape.live_entries = 1000000;
  TuneConfig c = ModelFor("leveldb").defaults;
  auto s = SplitBudget(ModelFor("leveldb"), 128 * kMiB, shape, c, std::nullopt);
  ASSERT_TRUE(s.ok());
  uint64_t left = 128 * kMiB - s->write_buffers_bytes - s->table_memory_bytes;
  EXPECT_LT(s->cache_bytes, left);
  EXPECT_NEAR(static_cast<double>(s->cache_overhead_bytes),
              static_cast<double>(s->cache_bytes) * 200.0 / 4096.0, 2.0);
  EXPECT_LE(s->total_bytes(), 128 * kMiB);
  EXPECT_GE(s->total_bytes(), 128 * kMiB - 2);
  auto r = SplitBudget(ModelFor("rocksdb"), 512 * kMiB, shape,
                       ModelFor("rocksdb").defaults, std::nullopt);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->cache_overhead_bytes, 0u);
}

TEST(MemoryBudget, RocksDbDefaultsShrinkToFitASmallBudget) {
  // 2 x 64 MiB default buffers cannot fit 64 MiB: the baseline says so and
  // holds the budget.
  const EngineModel& m = ModelFor("rocksdb");
  auto w = ResolveWorkload("write-heavy");
  ASSERT_TRUE(w.ok());
  RuleInput in;
  in.engine = &m;
  in.workload = *w;
  in.traits = TraitsOf(*w);
  in.shape = *ShapeOf(*w, "rocksdb");
  in.budget_bytes = 64 * kMiB;
  in.facts = Facts(true);
  std::string def;
  TuneConfig b = BaselineConfig(in, &def);
  EXPECT_LT(b.write_buffer_bytes(), m.defaults.write_buffer_bytes());
  EXPECT_LE(m.write_buffers * b.write_buffer_bytes() +
                EstimateTableMemoryBytes(in.shape, b) + b.cache_bytes(),
            in.budget_bytes);
  EXPECT_NE(def.find("shrunk"), std::string::npos) << def;
}

}  // namespace
}  // namespace disktune::tune
