// The tuner: recommend engine settings for a workload under a memory budget,
// with the evidence.
//
// The phases (phases.h, one file each: phase_*.cc, explain.cc), run in
// this order by RunTuner (tuner.cc):
//   Setup: the facts (a quick probe of the device under the scratch
//     directory, or an earlier probe's figures, and snappy's speed on this
//     CPU) and the rules (rules.h), which narrow each knob to the values
//     worth measuring.
//   Calibrate: the baseline at two small scales gives a trial's cost.
//   Search (search.h): successive halving over the combinations, with
//     short trials on a scaled copy of the workload, in the time the plan
//     (plan.h) leaves after verification.
//   CheckKnobs: leave-one-out over the knobs the winner changed (each
//     reverted on its own, in interleaved rounds); when none survives, each
//     gets an A/B of its own against the defaults. No passengers: a knob is
//     recommended only on evidence of its own (passengers.h).
//   Verify: the recommendation against the baseline ("the engine's defaults
//     at the same memory budget", rules.h BaselineConfig), >= 3 interleaved
//     repeats each, median gain with a 95% interval.
//   Judge: each knob's outcome; when the interval reaches 1 the verdict is
//     "no significant gain" and the defaults stay.
//   Explain: the verdict and the lines the terminal shows.
//
// The scaled copy: every trial runs the workload with its key space and op
// counts multiplied by a scale s <= 1 and the block cache multiplied by s
// too, so the cache holds the same share of the data as at full size. Write
// buffers and table files keep their real sizes (LevelDB's level sizes and
// the memtable's cost per insert are absolute). The A/B runs at the largest
// scale the time budget affords, and the profile says which.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/bench/runner.h"
#include "src/core/progress.h"
#include "src/core/scratch_dir.h"
#include "src/core/status.h"
#include "src/model/environment.h"
#include "src/model/probe_result.h"
#include "src/model/tune_summary.h"
#include "src/tune/budget.h"
#include "src/tune/knobs.h"
#include "src/tune/plan.h"
#include "src/tune/profile.h"
#include "src/tune/rank.h"
#include "src/tune/rules.h"
#include "src/tune/search.h"
#include "src/tune/verify.h"
#include "src/tune/workload.h"

namespace disktune::tune {

inline constexpr uint64_t kMinMemoryBudgetBytes = 1 * kMiB;
inline constexpr uint64_t kSecondNs = 1000000000ull;
// Below this nothing can be verified: calibration, a minimal search and the
// knob check and A/B (2 x 3 runs at least) of the smallest trials.
inline constexpr uint64_t kMinTimeBudgetNs = 30 * kSecondNs;
inline constexpr uint64_t kDefaultTimeBudgetNs = 600 * kSecondNs;
// The time budget is the whole run's (benchmarks/README.md, "LevelDB
// write-heavy on the hdd class, at a size the class binds (one run)": tunes
// that ran to the end of their budget took longer than it): it counts from
// the command's start (TuneRequest::started_ns: opening a class's device
// comes out of it), and the phases plan within it less what they keep for
// the steps after the last trial (writing the profile files, putting a
// class's device back, removing the scratch directory): the larger of
// kFinalStepsNs and the longest removal of a trial's copy measured so far
// (the scratch directory goes the same way), at most kFinalStepsShare of
// the budget. A trial's cost counts the removal of its copy too
// (TrialScore::cleanup_ns), so the last pair is priced as it runs.
inline constexpr uint64_t kFinalStepsNs = 5 * kSecondNs;
inline constexpr double kFinalStepsShare = 0.1;
// `disktune tune --quick`'s time budget (`run --quick` gives its tuner 60 s
// and a write budget instead, src/cli/run_command.cc).
inline constexpr uint64_t kQuickTimeBudgetNs = 120 * kSecondNs;
// The tuner's seam to the machine: a test gives fakes and drives the whole
// tuner (every phase) in milliseconds, deterministically.
struct TuneEnv {
  // Runs one trial: `config` as scaled for `scale`. Unset: a bench run in
  // the scratch directory. Set: also no CPU measurement for the rules.
  TrialFn trial;
  // The clock and the bytes-written counter of the budget. Unset: the
  // monotonic clock and the process's write count (/proc/self/io).
  std::function<uint64_t()> now_ns;
  std::function<uint64_t()> bytes_written;
};

struct TuneRequest {
  std::string engine = "leveldb";
  Workload workload;  // resolved (ResolveWorkload)
  uint64_t memory_budget_bytes = 128 * kMiB;
  // The loaded data (keys + values) at full size; unset = the workload's num.
  std::optional<uint64_t> data_size_bytes;
  uint64_t time_budget_ns = kDefaultTimeBudgetNs;
  // Bytes the tuner may write in all, its own probe included (budget.h);
  // 0 = no limit but time.
  uint64_t write_budget_bytes = 0;
  bool quick = false;
  // From an earlier probe (--probe-result, or `run`'s own probes). Unset:
  // the tuner probes the scratch directory's device first (~10 s).
  std::optional<DeviceFacts> facts;
  // The scratch directory's environment (its filesystem and resolved
  // device), as the caller's Session collected it (src/app/session.h), for
  // the tuner's own probe. Unset: the tuner collects it.
  std::optional<Environment> environment;
  // AvailableEngines() and NewEngine in production.
  std::vector<EngineInfo> available;
  bench::EngineFactory factory;
  // Predicts each candidate's ops/s so trials go to those it cannot
  // separate (rank.h); nullptr = the tuner's internal estimate. Not owned.
  const ThroughputModel* model = nullptr;
  // The machine's memory (the budget may not exceed it); 0 = read it.
  uint64_t machine_memory_bytes = 0;
  // When the run started, by the budget's clock (TuneEnv::now_ns): the time
  // budget counts from there, so what the caller did first (opening a
  // class's device) comes out of it too. Unset: when RunTuner is called.
  std::optional<uint64_t> started_ns;
  TuneEnv env;
};

// Bad input, checked before anything runs: InvalidArgument with one clear
// sentence (the minimum or maximum named).
Status ValidateTuneRequest(const TuneRequest& request);

// One knob's outcome.
struct KnobEvidence {
  Knob knob;
  // kDefault, kWon, kNoGain or kRule (kBudget and kSet are the
  // recommendation's words for knobs the tuner did not judge).
  model::KnobOutcome outcome = model::KnobOutcome::kDefault;
  // Why a changed knob is (or was to be) recommended (passengers.h); kNone
  // when it is not.
  model::KnobProof evidence = model::KnobProof::kNone;
  std::optional<Gain> gain;
  std::string reason;
};

struct Verification {
  std::string compared;  // "recommendation", "search winner"
  double scale = 0;
  uint64_t num = 0;
  uint64_t trial_cache_bytes = 0;  // the recommendation's, at `scale`
  // The copy for the candidate and the baseline (fidelity.h).
  std::string candidate_copy;
  std::string baseline_copy;
  bool faithful = true;  // for every knob the candidate changes
  std::vector<double> baseline_ops_per_sec;
  std::vector<double> candidate_ops_per_sec;
  Gain gain;
  std::optional<bool> target_met;
};

// Knob values no trial judged: the budget could not afford a copy of the
// workload that shows them (fidelity.h), so they kept their defaults.
struct UnjudgedShape {
  std::string knobs;  // "write_buffer_bytes 28 MiB, max_write_buffer_number 4"
  double needed_scale = 0;      // the smallest faithful copy
  double affordable_scale = 0;  // the largest copy the budget affords
  std::string copy;             // that copy, as fidelity.h describes it
};

// What the plan did with one candidate the rules proposed: measured (at
// which scales) or left out (why), with the model's prediction.
struct PlanEntry {
  std::string candidate;  // ConfigText
  std::vector<double> scales;
  std::string reason;  // left out only
  std::optional<double> predicted_ops_per_sec;
};

struct TuneResult {
  std::string engine;
  Workload workload;  // full size, with the recommended batch
  WorkloadTraits traits;
  DataShape shape;
  uint64_t memory_budget_bytes = 0;
  uint64_t time_budget_ns = 0;
  uint64_t write_budget_bytes = 0;        // 0 = none
  std::optional<uint64_t> bytes_written;  // the process's count (budget.h)
  bool quick = false;
  DeviceFacts facts;
  // When the tuner probed: the results and the environment, for a report.
  std::vector<ProbeResult> probes;
  std::optional<Environment> environment;
  std::vector<RuleRecord> rules;
  TuneConfig baseline;
  std::string baseline_definition;
  std::vector<TuneConfig> candidates;
  SearchOutcome search;
  TuneConfig winner;          // the search's best
  TuneConfig recommendation;  // what survived the knob check and the A/B
  MemorySplit memory;         // of the recommendation
  std::vector<KnobEvidence> knobs;
  std::optional<Verification> verification;
  std::vector<UnjudgedShape> unjudged;
  std::string ranking_model;  // ThroughputModel::name()
  std::vector<PlanEntry> measured;
  std::vector<PlanEntry> left_out;
  bool significant = false;
  std::string verdict;
  std::vector<std::string> explanation;  // the lines the terminal shows
  std::vector<std::string> notes;
  uint64_t elapsed_ns = 0;
};

// Runs the whole tuning in `scratch` (trial databases and probe files live
// there and are removed as it goes). Aborted on SIGINT/SIGTERM.
Result<TuneResult> RunTuner(const TuneRequest& request,
                            const ScratchDir& scratch, ProgressSink* progress);

// The object a report carries under "tune" and a profile under "tune":
// engine, workload, budget and verdict, the recommendation, the evidence.
// TuneResultToSummary is the typed form (src/model/tune_summary.h); the
// JSON is its TuneSummaryToJson.
model::TuneSummary TuneResultToSummary(const TuneResult& r);
nlohmann::json TuneResultToJson(const TuneResult& r);

// The profile `disktune tune --out` writes: the workload (full size, the
// recommended batch), the recommended engine options (the budget's cache
// and every knob that won; absent knobs keep the engine's defaults) and
// the evidence.
Profile TuneResultToProfile(const TuneResult& r, const std::string& name);

// The header comment of the engine forms.
std::string EngineFormsHeader(const TuneResult& r, const std::string& name);

}  // namespace disktune::tune
