// The scenario table and the context a scenario body runs in.
//
// A scenario is a row {name, help, db use, body}: the runner looks rows up by
// name, opens or recreates the database as the row says, and calls the body,
// which drives the engine through Worker threads. `disktune list` and --help
// are generated from the same table.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engines/engine.h"
#include "src/bench/db_model.h"
#include "src/bench/key_value.h"
#include "src/bench/params.h"
#include "src/core/clock.h"
#include "src/core/histogram.h"
#include "src/core/rng.h"
#include "src/core/status.h"
#include "src/model/bench_result.h"

namespace disktune::bench {

class SpaceGuard;

class ScenarioRun;

enum class DbUse {
  kFresh,     // destroy and recreate the database first (fillseq)
  kExisting,  // run on what earlier scenarios left (overwrite, readrandom)
  kNone,      // CPU only, no database (crc32c)
};

// How a scenario picks its keys; the distribution its result reports.
enum class KeyOrder {
  kNone,        // no database (CPU yardsticks)
  kSequential,  // key order (fillseq, readseq, utxo-load)
  kUniform,     // uniform random
  kHot,         // the first 1% of keys (readhot)
  kZipfian,     // YCSB's zipfian 0.99
  kLatest,      // YCSB D: the most recently inserted keys
};
// "sequential", "uniform", "hot", "zipfian", "latest"; "" for kNone.
const char* KeyOrderName(KeyOrder k);

// How many threads a step starts at most.
enum class ThreadCount {
  kThreads,           // --threads
  kThreadsAndWriter,  // --threads readers plus one writer
  kMaxThreads,        // every count up to --max-threads, one after another
};

struct ScenarioSpec {
  std::string_view name;
  std::string_view help;
  DbUse db;
  // Needs keys in the database: refused on an empty one.
  bool needs_data;
  // Ops are so cheap (an iterator step, a CRC of 4 KiB) that reading the
  // clock around each would distort them: sample ~1 in 32 ops instead.
  bool cheap_ops;
  // Where the scenario comes from: "db_bench", "utxo", "hyperleveldb",
  // "ycsb", "inmemory".
  std::string_view origin;
  // db_bench's per-scenario rules (fillsync: num/1000, fill100K: 100 KB
  // values).
  void (*adjust)(BenchParams* p);
  Status (*run)(ScenarioRun& run);
  // What the runner and the tuner know of a scenario besides its body; they
  // read these columns, never the scenario's name.
  KeyOrder keys;
  ThreadCount threads;
  // A read scenario: its result reports found / reads even when none were
  // counted (an empty database).
  bool reads;
  // Runs in UTXO pulses: its ops are pulse-reads x pulses, its writes
  // pulse-inserts x pulses, and each pulse reads from a cold page cache.
  bool pulsed;
  // Writes each key exactly once (a load), in whatever order: the live
  // entries it leaves are its writes.
  bool each_key_once;
};

// The whole table, in db_bench's order first.
std::span<const ScenarioSpec> Scenarios();
// nullptr when unknown.
const ScenarioSpec* FindScenario(std::string_view name);
// "fillseq, fillbatch, ..." for error messages.
std::string ScenarioNames();

// What a set of threads measured together.
struct PhaseStats {
  uint64_t ops = 0;
  uint64_t bytes = 0;
  uint64_t user_write_bytes = 0;
  uint64_t found = 0;
  uint64_t reads = 0;
  uint64_t thread_ns = 0;  // summed over threads
  uint64_t wall_start_ns = UINT64_MAX;
  uint64_t wall_end_ns = 0;
  int threads = 0;
  Histogram hist;
  std::map<std::string, std::pair<uint64_t, Histogram>> per_op;

  uint64_t wall_ns() const {
    return wall_end_ns > wall_start_ns ? wall_end_ns - wall_start_ns : 0;
  }
  void Merge(const PhaseStats& other);
};

// One thread of a scenario. Counters are private to the thread and merged
// into PhaseStats when it finishes, so workers share no cache lines.
class Worker {
 public:
  Worker(ScenarioRun* run, int index, uint64_t seed);

  int index() const { return index_; }
  Rng& rng() { return rng_; }
  Engine* engine();
  const BenchParams& params() const;
  WriteOptions write_options() const;
  DbModel& model();

  // Key k as the scenario formats it (db_bench decimal, or UTXO 40-byte
  // big-endian), in a buffer reused by this thread.
  const std::string& Key(uint64_t k);
  // Value length for key k: the step's value size, or the UTXO length.
  size_t ValueLength(uint64_t k) const;
  std::string_view Value(size_t len) { return values_.Next(len); }

  // Restarts the clock and counters (after an untimed warm-up).
  void ResetTiming();
  // Brackets one engine call. With every-op timing BeforeOp() costs nothing:
  // the time since the previous OpDone() is the sample, as db_bench measures.
  void BeforeOp() {
    if (!sample_all_ && --countdown_ == 0) {
      sampling_ = true;
      t0_ = NowNanos();
    }
  }
  // `entries` operations finished in one engine call moving `bytes` bytes.
  void OpDone(uint64_t entries = 1, uint64_t bytes = 0,
              const char* op = nullptr);
  // Cheap ops sample one in about `mean` (at random, so no stride aliases
  // with the data) instead of the default one in 32.
  void SampleEvery(uint32_t mean) {
    sample_every_ = std::max<uint32_t>(mean, 1);
    Resample();
  }
  // For loops that run cheap ops in batches (scans): how many ops to run
  // untimed before the next one the latency sampler times, which the next
  // BeforeOp() then starts. 0 when every op is timed.
  uint64_t TakeUntimedRun() {
    if (sample_all_) return 0;
    uint64_t n = countdown_ - 1;
    countdown_ = 1;
    return n;
  }
  // Counts ops run outside BeforeOp/OpDone (see TakeUntimedRun).
  void UntimedOpsDone(uint64_t entries, uint64_t bytes) {
    stats_.ops += entries;
    stats_.bytes += bytes;
  }
  void AddFound(uint64_t found, uint64_t reads) {
    stats_.found += found;
    stats_.reads += reads;
  }
  void AddUserWriteBytes(uint64_t n) { stats_.user_write_bytes += n; }
  // Records a put/delete of key k in the model.
  void ModelPut(uint64_t k);
  void ModelDelete(uint64_t k);

  // True when the run must stop: SIGINT/SIGTERM, another thread failed,
  // free space fell below the headroom, or the free-space guard is gone.
  bool ShouldStop() const;
  // The status a body returns when ShouldStop() says so.
  Status StopStatus() const;

  // Called by the runner.
  void Finish();
  PhaseStats& stats() { return stats_; }
  int64_t live_bytes_delta() const { return live_bytes_delta_; }
  int64_t live_keys_delta() const { return live_keys_delta_; }

 private:
  void Resample() {
    countdown_ = 1 + static_cast<uint32_t>(rng_.Uniform(2 * sample_every_ - 1));
  }
  static constexpr uint32_t kSampleEvery = 32;
  uint32_t sample_every_ = kSampleEvery;

  ScenarioRun* run_;
  int index_;
  Rng rng_;
  KeyFormat keys_;
  std::string key_buf_;
  ValuePool::Cursor values_;
  PhaseStats stats_;
  bool sample_all_;
  bool sampling_ = false;
  uint32_t countdown_ = 1;
  uint64_t t0_ = 0;
  uint64_t last_ = 0;
  int64_t live_bytes_delta_ = 0;
  int64_t live_keys_delta_ = 0;
};

// Context of one scenario run: the engine, parameters, result being filled,
// and helpers to run threads and reopen the database.
class ScenarioRun {
 public:
  ScenarioRun(const ScenarioSpec& spec, const BenchParams& params,
              Engine* engine, DbModel* model, const std::string& db_path,
              const ValuePool* pool, uint64_t* thread_seed_counter,
              BenchResult* result);

  const ScenarioSpec& spec() const { return spec_; }
  const BenchParams& params() const { return params_; }
  Engine* engine() { return engine_; }
  DbModel& model() { return *model_; }
  const ValuePool& pool() const { return *pool_; }
  const std::string& db_path() const { return db_path_; }
  BenchResult& result() { return *result_; }

  using Body = std::function<Status(Worker&)>;
  // Runs `body` on `threads` threads started together; their counters are
  // merged into `into` (the scenario's main stats by default). Returns the
  // first error; the other threads stop at their next ShouldStop().
  Status Parallel(int threads, const Body& body, PhaseStats* into = nullptr);
  // Threads split `total` ops as evenly as possible; thread i gets
  // Share(total, threads, i).
  static uint64_t Share(uint64_t total, int threads, int i);

  // Closes and reopens the database with the step's options.
  Status Reopen();
  // Like Reopen() but evicts the DB files from the page cache in between.
  // Where the reopen starts flushes or compactions (RocksDB compacts level 0
  // when replaying its log adds a file there), they run to their end, at
  // most kSettleMaxNs, untimed, and the cache is evicted again: their reads
  // and output would otherwise leave the database in the page cache the
  // timed reads should find empty (benchmarks/README.md, "Prediction
  // accuracy"). `info` says so in its note.
  Status ReopenCold(PageCacheInfo* info);
  static constexpr uint64_t kSettleMaxNs = 600'000'000'000;
  static constexpr uint64_t kSettleSliceNs = 1'000'000'000;
  // Destroys the database and opens an empty one (for sweeps).
  Status Recreate();
  // Runs Engine::FinishWriteBenchmark() after the writers are done and
  // counts it in the scenario's wall time, as the engine's own benchmark
  // counts it in its write benchmark's time.
  Status FinishWrites();

  PhaseStats& main() { return main_; }
  void SetMessage(std::string m) { message_ = std::move(m); }
  const std::string& message() const { return message_; }
  uint64_t NextThreadSeed() { return params_.seed + 1000 + (*seed_counter_)++; }

  // Workers poll this; set when a thread fails.
  std::atomic<bool>& failed() { return failed_; }
  // The free-space watch of the running Parallel() (null outside one).
  const SpaceGuard* space() const { return space_; }

 private:
  // Closes the database and evicts its files from the page cache, saying
  // how in `info`; reopens it if the eviction fails.
  Status CloseAndEvict(PageCacheInfo* info);
  const ScenarioSpec& spec_;
  const BenchParams& params_;
  Engine* engine_;
  DbModel* model_;
  std::string db_path_;
  const ValuePool* pool_;
  uint64_t* seed_counter_;
  BenchResult* result_;
  PhaseStats main_;
  std::string message_;
  std::atomic<bool> failed_{false};
  const SpaceGuard* space_ = nullptr;
};

}  // namespace disktune::bench
