// BenchResult: everything one scenario run on one engine measured, as a plain
// value. Serialised with nlohmann::json (snake_case keys, units in the names);
// a figure that was not measured is std::nullopt and absent from the JSON,
// never 0.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/core/histogram.h"
#include "src/core/status.h"
#include "src/model/engine_options.h"

namespace disktune::bench {

enum class RunStatus {
  kOk,
  kPartial,  // stopped early (error or interrupt) after some operations
  kFailed,   // no usable measurement
  kSkipped,  // not run, with the reason in `error`
};
const char* RunStatusName(RunStatus s);

// The parameters the scenario actually ran with (after set overrides,
// --quick scaling and per-scenario rules like fillsync's num/1000).
struct ResultParams {
  uint64_t num = 0;  // key space: keys are 0..num-1
  uint64_t ops = 0;  // operations the scenario was asked to do
  int threads = 1;
  uint64_t key_size_bytes = 16;
  uint64_t value_size_bytes = 100;  // mean for variable sizes (UTXO)
  double compression_ratio = 0.5;
  uint64_t entries_per_batch = 1;
  bool sync = false;
  bool fresh_db = false;
  uint64_t seed = 0;
  uint64_t warmup_ops = 0;
  std::string distribution;  // "sequential", "uniform", "zipfian", ...
  bool serialized = false;   // engine not thread-safe: calls went one at a time
};

struct ThreadPoint {
  int threads = 0;
  uint64_t ops = 0;
  uint64_t elapsed_ns = 0;
  double ops_per_sec = 0;
  double micros_per_op = 0;
};

struct IntervalPoint {
  uint64_t ops_done = 0;  // cumulative, at the end of the interval
  uint64_t ops = 0;       // in this interval
  uint64_t end_ns = 0;    // since the scenario started
  double ops_per_sec = 0;
};

struct PulsePoint {
  int pulse = 0;
  int threads = 0;
  uint64_t read_ops = 0;
  uint64_t found = 0;
  uint64_t read_elapsed_ns = 0;
  uint64_t inserts = 0;
  uint64_t deletes = 0;
  uint64_t write_elapsed_ns = 0;
  std::optional<uint64_t> peak_rss_bytes;
  std::optional<double> cpu_percent;  // (user+sys) / wall during the reads
  std::optional<uint64_t> resident_bytes_before_reads;
};

struct OpLatency {
  std::string op;  // "read", "update", "insert", "scan", "read_modify_write"
  uint64_t ops = 0;
  std::optional<LatencySummary> latency_ns;
};

struct RepeatStat {
  double median = 0;
  double min = 0;
  double max = 0;
  // Student-t 95% confidence interval of the mean; absent for one repeat.
  std::optional<double> ci95_low;
  std::optional<double> ci95_high;
  std::vector<double> values;
};

struct RepeatStats {
  int count = 0;
  RepeatStat ops_per_sec;
  RepeatStat micros_per_op;
  std::optional<RepeatStat> bytes_per_sec;
};

struct BenchMetrics {
  uint64_t ops = 0;
  uint64_t elapsed_ns = 0;   // wall time
  double micros_per_op = 0;  // summed per-thread time / ops (db_bench)
  double ops_per_sec = 0;    // ops / wall time
  std::optional<double> bytes_per_sec;  // bytes / wall time
  std::optional<uint64_t> bytes;
  std::optional<LatencySummary> latency_ns;
  std::optional<uint64_t> found;
  std::optional<uint64_t> reads;
  std::optional<uint64_t> cpu_user_ns;
  std::optional<uint64_t> cpu_system_ns;
  std::optional<uint64_t> peak_rss_bytes;
  std::string peak_rss_scope;  // "scenario" (VmHWM reset before) or "process"
  // The largest RssAnon sampled while the scenario ran (AnonRssSampler):
  // the resident set without file-backed pages such as mapped tables.
  std::optional<uint64_t> peak_anon_rss_bytes;
  std::optional<uint64_t> user_write_bytes;
  std::optional<uint64_t> device_write_bytes;
  // Bytes the process passed to write calls while the scenario ran (WAL,
  // tables, manifest), on any filesystem: in memory what the engine writes
  // before any device sees it (src/predict reads it from the calibration).
  std::optional<uint64_t> write_call_bytes;
  std::optional<double> write_amplification;
  std::optional<uint64_t> db_size_bytes;
  std::optional<uint64_t> live_data_bytes;
  std::optional<double> space_amplification;
  // db_bench's trailing message: "(1000 ops)", "(0x8a9136aa)", ...
  std::string message;
};

struct PageCacheInfo {
  std::string policy;  // requested: "auto", "fadvise", "drop", "keep"
  std::string method;  // done: "fadvise_dontneed", "drop_caches", ...
  std::optional<uint64_t> resident_bytes_after;
  std::string note;
};

// What src/predict's model expected of this figure from the disk's probe
// figures and the engine's in-memory CPU cost, and how the measurement
// compares. Plain data here; the model lives in src/predict.
struct Prediction {
  double ops_per_sec = 0;
  // "cpu", "read_iops", "read_bandwidth", "write_bandwidth", "sync_latency"
  // or "write_stall": the resource whose ceiling is lowest.
  std::string bound;
  // Every resource's ceiling for this figure, ops/s (the chart's lines).
  std::vector<std::pair<std::string, double>> ceilings_ops_per_sec;
  // The probe figures and engine facts the model used, with units in names.
  nlohmann::json inputs = nlohmann::json::object();
  // measured ops_per_sec / predicted; absent before the figure is measured.
  std::optional<double> measured_over_predicted;
  // When |ratio - 1| > 25%: the likeliest cause the evidence shows.
  std::string miss_cause;
};

struct BenchResult {
  std::string engine;
  std::string scenario;
  std::string set;  // the scenario set it ran in, "" when named directly
  int step = 0;     // position in the run's sequence, from 1
  RunStatus status = RunStatus::kOk;
  std::string error;
  ResultParams params;
  EngineOptions engine_options;
  std::vector<std::pair<std::string, std::string>> unsupported_knobs;
  // Every engine setting in force (Engine::Settings()), in the engine's order.
  std::vector<std::pair<std::string, std::string>> engine_settings;
  BenchMetrics metrics;
  std::string engine_stats;
  std::vector<std::pair<std::string, std::string>> engine_properties;
  std::optional<PageCacheInfo> page_cache;
  std::vector<ThreadPoint> thread_series;
  std::vector<IntervalPoint> interval_series;
  std::vector<PulsePoint> pulses;
  std::vector<OpLatency> op_latency;
  std::optional<RepeatStats> repeats;
  std::optional<Prediction> prediction;
  std::vector<std::string> notes;
};

// db_bench's terminal line: "fillseq      :       1.853 micros/op;   59.7 MB/s"
// (MB/s as db_bench computes it: MiB of bytes over wall time).
std::string FormatDbBenchLine(const BenchResult& r);

void to_json(nlohmann::json& j, const BenchResult& r);
// Throws nlohmann::json::exception on a type mismatch; BenchResultFromJson
// returns Corruption instead.
void from_json(const nlohmann::json& j, BenchResult& r);
Result<BenchResult> BenchResultFromJson(const nlohmann::json& j);
// Not named to_json: these types live in other modules, which may define
// their own serialisers.
nlohmann::json LatencyToJson(const LatencySummary& s);
LatencySummary LatencyFromJson(const nlohmann::json& j);
// Only the knobs that were set: an absent knob kept the engine's default.
nlohmann::json EngineOptionsToJson(const EngineOptions& o);
EngineOptions EngineOptionsFromJson(const nlohmann::json& j);
nlohmann::json PredictionToJson(const Prediction& p);
Prediction PredictionFromJson(const nlohmann::json& j);

}  // namespace disktune::bench
