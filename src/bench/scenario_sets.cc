#include "src/bench/scenario_sets.h"

namespace disktune::bench {
namespace {

constexpr uint64_t kMiB = 1 << 20;

Overrides Cache(uint64_t bytes) {
  Overrides o;
  o.knobs.Set(KnobId::kCacheBytes, bytes);
  return o;
}

// The 2011 page's 128 MB experiments: `write_buffer` + `cache` bytes.
Overrides MemorySplit(uint64_t write_buffer, uint64_t cache) {
  Overrides o = Cache(cache);
  o.knobs.Set(KnobId::kWriteBufferBytes, write_buffer);
  return o;
}

SetStep Step(std::string_view name) { return SetStep{name, Overrides{}}; }

SetStep Step(std::string_view name, Overrides o) { return SetStep{name, o}; }

// db_bench's default benchmark list (leveldb 1.23 FLAGS_benchmarks).
std::vector<SetStep> DbBenchList() {
  return {Step("fillseq"),     Step("fillsync"),    Step("fillrandom"),
          Step("overwrite"),   Step("readrandom"),  Step("readrandom"),
          Step("readseq"),     Step("readreverse"), Step("compact"),
          Step("readrandom"),  Step("readseq"),     Step("readreverse"),
          Step("fill100K"),    Step("crc32c"),      Step("snappycomp"),
          Step("snappyuncomp")};
}

// The 2011 LevelDB benchmark page's experiments, one set each.
void Add2011Sets(const std::vector<SetStep>& db_bench_list,
                 std::vector<ScenarioSet>* sets) {
  // The 2011 page's write experiments run fillseq then fillrandom; its read
  // experiments fill, overwrite and read.
  const std::vector<SetStep> writes = {Step("fillseq"), Step("fillrandom")};
  const std::vector<SetStep> reads = {Step("fillrandom"), Step("overwrite"),
                                      Step("readrandom"), Step("readrandom"),
                                      Step("readseq")};
  // The 2011 page gives each engine 4 MB of cache memory. (Its text splits
  // LevelDB's 4 MB into 2 MB write buffer + 2 MB cache; db_bench was run with
  // --cache_size=4 MB and the default write buffer, which is what we do.)
  sets->push_back({"baseline-2011",
                   "the 2011 LevelDB benchmark page, baseline: the default "
                   "list, 4 MB cache, 1M entries "
                   "(the second readrandom lets compactions settle)",
                   Cache(4 * kMiB), db_bench_list});
  {
    Overrides o = Cache(4 * kMiB);
    o.value_size = 100000;
    o.writes_scale = 0.001;  // "we stop after writing 1000 values"
    sets->push_back({"large-values",
                     "the 2011 LevelDB benchmark page, large values: "
                     "100,000-byte values, num/1000 writes, "
                     "sequential and random",
                     o, writes});
  }
  sets->push_back({"batch-writes",
                   "the 2011 LevelDB benchmark page, batch writes: 1000 "
                   "batches of 1000 entries, sequential "
                   "and random",
                   Cache(4 * kMiB),
                   {Step("fillbatch"), Step("fillrandbatch")}});
  {
    Overrides o = Cache(4 * kMiB);
    o.sync = true;
    o.writes_scale = 0.01;  // "we stop after 10,000 writes"
    sets->push_back({"sync-writes",
                     "the 2011 LevelDB benchmark page, synchronous writes: "
                     "num/100 writes, each synced "
                     "(the 2011 run turned the drive's write cache off)",
                     o, writes});
  }
  Overrides uncompressed = Cache(4 * kMiB);
  uncompressed.knobs.Set(KnobId::kCompression, Compression::kNone);
  sets->push_back({"compression-off",
                   "the 2011 LevelDB benchmark page, writes without "
                   "compression, sequential and random",
                   uncompressed, writes});
  sets->push_back({"more-memory",
                   "the 2011 LevelDB benchmark page, 128 MB split "
                   "write-buffer-heavy: 120 MB write buffer "
                   "+ 8 MB cache, writes",
                   MemorySplit(120 * kMiB, 8 * kMiB), writes});
  sets->push_back({"larger-cache",
                   "the 2011 LevelDB benchmark page, 128 MB split "
                   "cache-heavy: 8 MB write buffer + 120 MB "
                   "cache, reads",
                   MemorySplit(8 * kMiB, 120 * kMiB), reads});
  sets->push_back({"reads-uncompressed",
                   "the 2011 LevelDB benchmark page, reads from a DB written "
                   "without compression",
                   uncompressed, reads});
}

// The 2011 page's whole engine comparison in one run, each experiment's
// steps carrying that experiment's overrides (reports/findings_2011.cc
// tells them apart by those values); `sets` holds those experiments.
ScenarioSet Compare2011Set(const std::vector<ScenarioSet>& sets) {
  ScenarioSet all{"compare-2011",
                  "the 2011 LevelDB benchmark page's engine comparison: "
                  "baseline, large values, batch, sync, no compression, "
                  "more memory and larger cache; run it on leveldb,sqlite3,"
                  "kyotocabinet and the report lists each 2011 finding "
                  "with the ratio measured here",
                  Overrides{},
                  {}};
  for (const ScenarioSet& s : sets) {
    if (s.name == "db_bench") continue;
    std::vector<SetStep> steps = s.steps;
    if (s.name == "baseline-2011") {
      steps = {Step("fillseq"),    Step("fillrandom"), Step("overwrite"),
               Step("readrandom"), Step("readrandom"), Step("readseq")};
    }
    for (const SetStep& step : steps) {
      all.steps.push_back(Step(step.scenario, s.overrides));
    }
  }
  return all;
}

// The UTXO pulse write-up's two cases.
void AddUtxoSets(std::vector<ScenarioSet>* sets) {
  Overrides t1, t8, t16;
  t1.threads = 1;
  t8.threads = 8;
  t16.threads = 16;
  const std::vector<SetStep> pulses = {
      Step("utxo-load"), Step("utxo-pulse", t1), Step("utxo-pulse", t8),
      Step("utxo-pulse", t16)};
  sets->push_back({"utxo",
                   "the UTXO pulse write-up (RocksDB vs LevelDB), UTXO pulse: "
                   "load, then pulses of sorted reads on 1, 8 "
                   "and 16 threads from a cold page cache, with inserts and "
                   "deletes",
                   Overrides{}, pulses});
  Overrides reads_only;
  reads_only.pulse_inserts = 0;
  reads_only.pulse_deletes = 0;
  sets->push_back({"utxo-reads",
                   "the UTXO pulse write-up (RocksDB vs LevelDB), case 2 (the "
                   "one the seed measured): reads only",
                   reads_only, pulses});
}

ScenarioSet HyperLevelDbSet() {
  Overrides o;
  o.knobs.Set(KnobId::kWriteBufferBytes, 64 * kMiB);
  return {"hyperleveldb",
          "the HyperLevelDB benchmarks: fillrandom with "
          "1..max-threads writers, and "
          "throughput per interval as the DB grows (64 MB write "
          "buffer)",
          o,
          {Step("fillrandom-threads"), Step("fillrandom-growth")}};
}

ScenarioSet InMemorySet() {
  Overrides o;
  o.in_memory = true;
  Overrides small;
  small.num_scale = 0.2;  // 200,000 of 1,000,000
  Overrides into_existing;
  into_existing.writes_scale = 0.2;
  return {"inmemory",
          "the LMDB/BDB/SQLite microbench: in-memory mode: 100K values and "
          "batches then random "
          "reads; 200K random writes into an empty DB and into one "
          "of num entries",
          o,
          {Step("fillrand100K"), Step("readrandom"), Step("fillrandbatch"),
           Step("readrandom"), Step("fillrandom", small), Step("fillseq"),
           Step("overwrite", into_existing)}};
}

std::vector<ScenarioSet> MakeSets() {
  std::vector<ScenarioSet> sets;
  const std::vector<SetStep> db_bench_list = DbBenchList();
  sets.push_back({"db_bench",
                  "db_bench's default benchmark list with the engine's "
                  "default options",
                  Overrides{}, db_bench_list});
  Add2011Sets(db_bench_list, &sets);
  sets.push_back(Compare2011Set(sets));
  AddUtxoSets(&sets);
  sets.push_back(HyperLevelDbSet());
  sets.push_back(InMemorySet());
  sets.push_back(
      {"ycsb",
       "YCSB core workloads after a load: A, B, C, F, D, E "
       "(YCSB's recommended order)",
       Overrides{},
       {Step("ycsb-load"), Step("ycsb-a"), Step("ycsb-b"), Step("ycsb-c"),
        Step("ycsb-f"), Step("ycsb-d"), Step("ycsb-e")}});
  return sets;
}

}  // namespace

std::span<const ScenarioSet> ScenarioSets() {
  static const std::vector<ScenarioSet> kSets = MakeSets();
  return kSets;
}

const ScenarioSet* FindScenarioSet(std::string_view name) {
  for (const ScenarioSet& s : ScenarioSets()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::string ScenarioSetNames() {
  std::string out;
  for (const ScenarioSet& s : ScenarioSets()) {
    if (!out.empty()) out += ", ";
    out += s.name;
  }
  return out;
}

}  // namespace disktune::bench
