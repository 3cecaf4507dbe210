// Benchmark parameters: the db_bench-style flags, how scenario sets and the
// user's flags override them, and their validation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engines/engine.h"
#include "src/bench/process_stats.h"
#include "src/core/status.h"

namespace disktune::bench {

// db_bench's defaults (db_bench's scenario list).
constexpr uint64_t kDefaultNum = 1000000;
// --quick: a tenth of the data; yardsticks and pulses shrink alike.
constexpr uint64_t kQuickNum = 100000;
constexpr double kQuickScale = 0.1;
constexpr int kMaxThreads = 1024;
constexpr uint64_t kMaxValueBytes = 64ull << 20;
constexpr uint64_t kDefaultSeed = 301;  // db_bench's RandomGenerator seed

// The effective parameters of one step.
struct BenchParams {
  uint64_t num = kDefaultNum;      // key space and default op count
  std::optional<uint64_t> reads;   // ops of read scenarios (default num)
  std::optional<uint64_t> writes;  // ops of write scenarios (default num)
  int threads = 1;
  uint64_t value_size = 100;
  uint64_t key_size = 16;
  double compression_ratio = 0.5;
  uint64_t entries_per_batch = 1;
  bool sync = false;
  // 40-byte big-endian keys and 30..101-byte values (UTXO scenarios).
  bool utxo_keys = false;
  uint64_t seed = kDefaultSeed;
  uint64_t warmup_ops = 0;
  // crc32c / snappy yardsticks process db_bench's 500 MiB / 1 GiB times this.
  double cpu_bytes_scale = 1.0;
  // HyperLevelDB charts: fillrandom on 1, 2, 4 .. max_threads writers; growth
  // in `intervals` equal slices.
  int max_threads = 8;
  int intervals = 20;
  // UTXO pulse (the Bitcoin Cash UTXO pulse study, case 1).
  uint64_t pulse_reads = 90000;
  uint64_t pulse_inserts = 210000;
  uint64_t pulse_deletes = 30000;
  int pulses = 3;
  PageCachePolicy page_cache = PageCachePolicy::kAuto;
  // YCSB.
  double zipf_theta = 0.99;
  uint64_t scan_max = 100;
  EngineOptions engine;

  uint64_t Reads() const { return reads.value_or(num); }
  uint64_t Writes() const { return writes.value_or(num); }
};

// Values a scenario set, a step of a set, or the user's flags impose. Counts
// are signed so "--num -5" reaches validation and gets a clear message.
struct Overrides {
  std::optional<int64_t> num;
  std::optional<int64_t> reads;
  std::optional<int64_t> writes;
  std::optional<int64_t> threads;
  std::optional<int64_t> value_size;
  std::optional<int64_t> key_size;
  std::optional<double> compression_ratio;
  std::optional<int64_t> entries_per_batch;
  std::optional<bool> sync;
  std::optional<uint64_t> seed;
  std::optional<int64_t> warmup_ops;
  std::optional<int64_t> max_threads;
  std::optional<int64_t> intervals;
  std::optional<int64_t> pulse_reads;
  std::optional<int64_t> pulse_inserts;
  std::optional<int64_t> pulse_deletes;
  std::optional<int64_t> pulses;
  std::optional<PageCachePolicy> page_cache;
  // UTXO data set size: num = data_size / (40 + mean value 65.5).
  std::optional<uint64_t> data_size_bytes;
  // Engine knobs: only the rows of Knobs() (src/model/knob_spec.h) are read;
  // in_memory and sync are the optionals below.
  EngineOptions knobs;
  std::optional<bool> in_memory;
  // Engine settings ("lmdb.writemap" -> "off"), appended to the engine's.
  std::vector<std::pair<std::string, std::string>> engine_settings;
  // Multipliers applied after every absolute value, to the effective num
  // (key space) or op counts: large values run num/1000 entries.
  double num_scale = 1.0;
  double reads_scale = 1.0;
  double writes_scale = 1.0;
};

// Checks signs and ranges of what the user typed; InvalidArgument naming the
// flag otherwise.
Status ValidateOverrides(const Overrides& o);

// Applies the absolute values of `o` onto `p` (scales are not applied).
void ApplyOverrides(const Overrides& o, BenchParams* p);

// Checks the effective parameters of a step (after scaling).
Status ValidateParams(const BenchParams& p);

}  // namespace disktune::bench
