// Rules: what the device facts and the workload say about each knob, before
// anything is measured (the engines' tuning guides). Each rule is a row {name,
// the fact it uses, function}; it narrows a knob to the candidates worth
// measuring, most promising first, and records the fact and its decision so the
// profile can show why a value was (or was not) tried.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "src/model/environment.h"
#include "src/model/probe_result.h"
#include "src/predict/model.h"
#include "src/tune/knobs.h"
#include "src/tune/workload.h"

namespace disktune::tune {

// What the probes (and a CPU yardstick) measured; absent = not measured.
struct DeviceFacts {
  std::string source;  // "quick probe (this run)", "--probe-result FILE"
  std::optional<uint64_t> rand_read_4k_p50_ns;
  std::optional<uint64_t> rand_read_4k_p99_ns;
  std::optional<double> seq_write_bytes_per_sec;
  std::string fdatasync_point;  // the probe point the sync figures come from
  std::optional<uint64_t> fdatasync_p50_ns;
  std::optional<uint64_t> fdatasync_p99_ns;
  std::optional<bool> rotational;
  // 4 KiB random reads per second at the deepest queue measured.
  std::optional<double> rand_read_iops;
  std::optional<double> seq_read_bytes_per_sec;
  // The largest request the block layer sends the device (KiB).
  std::optional<uint64_t> max_sectors_kb;
  // The device class the facts were measured under (`--throttle`), "" =
  // the device as it is.
  std::string throttle;
  uint64_t memory_bytes = 0;
  int cpu_count = 1;
  // snappy compression speed of one core on the workload's values.
  std::optional<double> snappy_bytes_per_sec;
  uint64_t fd_limit = 1024;  // RLIMIT_NOFILE (soft) of this process
  // The predictor's figures as bench's predictions take them from the same
  // probe run (predict::DiskFiguresFromRun: the class's limits and request
  // geometry, the readahead window, the table sync); nullopt when the run
  // lacks the model's points or the facts were not built from a probe run.
  // Not part of the facts' JSON: the figures above are what the profile
  // shows.
  std::optional<predict::DiskFigures> model_figures;
};

// Picks the figures the rules use out of a probe run: rand_read.4k.qd1,
// seq_write.1m.qd1, the 4 KiB appending fdatasync point (or the closest
// fdatasync point there is); and the predictor's figures from the whole run
// (model_figures), when it holds the model's points.
DeviceFacts FactsFromProbes(const std::vector<ProbeResult>& probes,
                            const Environment& env, std::string source);
nlohmann::json FactsToJson(const DeviceFacts& f);

struct RuleInput {
  const EngineModel* engine = nullptr;
  Workload workload;  // full size
  WorkloadTraits traits;
  DataShape shape;  // full size
  uint64_t budget_bytes = 0;
  DeviceFacts facts;
};

// One rule's decision, as the profile shows it.
struct RuleRecord {
  std::string rule;
  std::string knob;
  std::string fact;
  std::string decision;
  std::vector<nlohmann::json> candidates;
};

// The values the rules left for one knob, preferred first: one value fixes
// the knob, more are measured.
struct KnobCandidates {
  const KnobSpec* spec = nullptr;
  std::vector<KnobValue> values;
};

// What the rules decided: a map from knob to its candidate values, and the
// settings that are not knobs of the table.
struct CandidateSpace {
  // In the order the rules decided them; a knob no rule decided keeps the
  // baseline's value. A count of -1 is unlimited (max_open_files).
  std::vector<KnobCandidates> knobs;
  uint64_t entries_per_batch = 1;
  // A cache above the working set buys nothing.
  std::optional<uint64_t> cache_cap_bytes;
  std::vector<RuleRecord> records;

  // The values left for `id`; empty when no rule decided it.
  const std::vector<KnobValue>& Values(KnobId id) const;
  // The preferred value for `id`, if a rule decided it.
  std::optional<KnobValue> First(KnobId id) const;
  // Replaces the values of `id` (keeping its place), or adds them.
  void Set(KnobId id, std::vector<KnobValue> values);
  template <typename T>
  requires(std::is_integral_v<T> ||
           std::is_enum_v<T>) void Set(KnobId id,
                                       const std::vector<T>& values) {
    std::vector<KnobValue> v;
    for (T x : values) v.push_back(static_cast<KnobValue>(x));
    Set(id, std::move(v));
  }
};

struct Rule {
  std::string_view name;
  // The knob's row; unset = the entries per synced batch (no row).
  std::optional<KnobId> knob;
  std::string_view fact;  // what it reads, for `disktune list` and docs
  void (*apply)(const RuleInput& in, CandidateSpace* space, RuleRecord* rec);
};
// In the order they run (table size before open files, bloom before the
// memory split).
std::span<const Rule> Rules();
// The rules for RocksDB's own knobs (rocksdb_rules.cc), run after Rules()
// when the engine is rocksdb: they read the write buffers Rules() left.
std::span<const Rule> RocksDbRules();

CandidateSpace ApplyRules(const RuleInput& in);

// "The engine's defaults at the same memory budget": every knob at the
// engine's default, except the block cache, which gets what the budget
// leaves after the default write buffers and index blocks (when that is
// smaller than kMinCacheBytes, the engine's default cache). `definition`
// gets the sentence the profile states.
TuneConfig BaselineConfig(const RuleInput& in, std::string* definition);
// The baseline's write buffer: the engine's default, shrunk when the
// default buffers alone overrun the budget (the rules start from it too).
uint64_t BaselineWriteBufferBytes(const RuleInput& in);

// Every combination of the space's values that fits the budget, with its
// cache computed, ordered by preference (sum of ranks), the baseline first.
// Adds a "memory-budget" record to `space`.
std::vector<TuneConfig> EnumerateCandidates(const RuleInput& in,
                                            const TuneConfig& baseline,
                                            CandidateSpace* space);

// The cache a config gets under the budget (what EnumerateCandidates does
// for one config), or the baseline's rule when `baseline_rule`.
TuneConfig WithBudgetCache(const RuleInput& in, const CandidateSpace& space,
                           TuneConfig c);

nlohmann::json RuleRecordToJson(const RuleRecord& r);

}  // namespace disktune::tune
