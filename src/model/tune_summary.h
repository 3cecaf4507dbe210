// The tune object a report and a profile carry (`"tune"`): the tuner's
// recommendation with its evidence, as typed values. src/tune fills it
// (tune_result_json.cc) and writes it with TuneSummaryToJson; reports/ read
// it back with TuneSummaryFromJson and render the struct.
// reports/schema/report.v1.schema.json describes the same object
// (tune_summary_schema_test holds the two together).
//
// A knob value stays JSON (an integer, a string or a boolean, as its knob's
// row in src/model/knob_spec.h writes it): this library sits below the engines.
// Evidence the renderers only show as it is (baseline, device facts,
// workload, rules, unjudged shapes, plan; the search's rungs and tie) stays
// JSON too, in TuneEvidence::other and SearchSummary.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/core/status.h"
#include "src/model/knob_outcome.h"

namespace disktune::model {

// A measured gain: the median ratio candidate/baseline, its 95% interval and
// the repeats it came from.
struct GainFigure {
  double median = 1;
  double ci95_low = 1;
  double ci95_high = 1;
  int repeats = 0;
};

// One option of the recommendation, with why it has its value.
struct TunedOption {
  std::string knob;        // JSON key, "write_buffer_bytes"
  std::string name;        // "write buffer"
  nlohmann::json value;    // as the knob's row writes it
  std::string value_text;  // "64 MiB"
  std::optional<nlohmann::json> default_value;  // the engine's default
  bool changed = false;
  KnobOutcome outcome = KnobOutcome::kDefault;  // written as "verdict"
  std::string reason;                           // "" = not written
  KnobProof evidence = KnobProof::kNone;        // kNone = not written
  std::optional<GainFigure> gain;
};

// What the recommendation's memory goes to.
struct MemorySplit {
  uint64_t write_buffers_bytes = 0;
  std::optional<uint64_t> table_memory_bytes;
  uint64_t cache_bytes = 0;
  uint64_t total_bytes = 0;
};

struct TuneRecommendation {
  // Every knob the engine has, by JSON key, kept or changed.
  nlohmann::json engine_options = nlohmann::json::object();
  std::vector<TunedOption> options;
  std::optional<int64_t> entries_per_batch;  // written when not 1
  std::vector<std::string> changed;          // knob names, from the baseline
  MemorySplit memory;
  std::vector<std::string> explanation;  // the lines the terminal shows
};

// One knob the tuner judged: its default, the search's value, the
// recommended one and the outcome (written as "status").
struct JudgedKnob {
  std::string knob;
  nlohmann::json default_value;
  nlohmann::json searched;
  nlohmann::json recommended;
  KnobOutcome outcome = KnobOutcome::kDefault;
  std::string reason;
  KnobProof evidence = KnobProof::kNone;
  std::optional<GainFigure> gain;
};

// The interleaved runs of the recommendation against the baseline. Fields a
// result written before they existed lacks are optional.
struct VerificationSummary {
  std::string compared;  // "recommendation", "search winner"
  double scale = 0;
  uint64_t num = 0;
  std::optional<uint64_t> trial_cache_bytes;
  std::optional<std::string> candidate_copy;
  std::optional<std::string> baseline_copy;
  std::optional<bool> faithful;
  std::optional<std::string> order;
  std::vector<double> baseline_ops_per_sec;
  std::vector<double> candidate_ops_per_sec;
  // Written flat: repeats, median_gain, ci95_low, ci95_high.
  GainFigure gain;
  bool significant = false;
  std::optional<double> target_writes_per_sec;
  std::optional<bool> target_met;
};

// The search: its method and size, and the winner. The rungs, a tie's
// head-to-head and the winner's options stay as written. Members a result
// written before they existed lacks are optional.
struct SearchSummary {
  std::string method;  // "successive_halving"
  std::optional<int> eta;
  int candidates = 0;
  int trials = 0;
  std::optional<uint64_t> elapsed_ns;
  std::optional<bool> truncated;
  std::optional<nlohmann::json> rungs;
  std::optional<nlohmann::json> tie;
  std::string winner;  // ConfigText; "" = not written
  std::optional<nlohmann::json> winner_engine_options;
};

struct TuneEvidence {
  std::vector<JudgedKnob> knobs;
  std::optional<SearchSummary> search;
  std::optional<VerificationSummary> verification;
  std::vector<std::string> notes;
  // The rest of the evidence object, member by member, as written.
  nlohmann::json other = nlohmann::json::object();
};

struct TuneSummary {
  std::optional<std::string> tool_version;
  std::optional<std::string> created_at;
  std::string engine;
  std::string workload;
  uint64_t memory_budget_bytes = 0;
  std::optional<uint64_t> data_size_bytes;
  std::optional<uint64_t> time_budget_ns;
  std::optional<uint64_t> elapsed_ns;
  std::optional<uint64_t> write_budget_bytes;
  std::optional<uint64_t> bytes_written;
  std::optional<bool> quick;
  std::string verdict;
  TuneRecommendation recommendation;
  std::optional<TuneEvidence> evidence;
};

nlohmann::json GainFigureToJson(const GainFigure& g);
nlohmann::json TuneSummaryToJson(const TuneSummary& t);
// Corruption naming the member (`tune.recommendation.options[2].verdict`)
// for a document without the tune object's shape.
Result<TuneSummary> TuneSummaryFromJson(const nlohmann::json& j);

}  // namespace disktune::model
