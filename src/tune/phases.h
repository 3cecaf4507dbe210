// The tuner's phases (tuner.h describes each), in the order RunTuner
// (tuner.cc) runs them, one file each. Each reads the run or the context
// (tune_context.h) and the outcomes of the phases before it, all const, and
// returns its own outcome; none writes into another's. RunTuner alone
// assembles the TuneResult from those outcomes.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/core/status.h"
#include "src/tune/passengers.h"
#include "src/tune/tune_context.h"

namespace disktune::tune::phases {

// Setup's outcome: the workload at full size, the device facts, the rules
// and their candidates as the model ranked them.
struct SetupOutcome {
  Workload workload;  // at full size (--data-size applied)
  WorkloadTraits traits;
  DataShape shape;
  DeviceFacts facts;
  // When Setup probed: the results and the environment, for a report.
  std::vector<ProbeResult> probes;
  std::optional<Environment> environment;
  RuleInput in;
  CandidateSpace space;
  std::vector<RuleRecord> rules;
  TuneConfig baseline;
  std::string baseline_definition;
  // The candidates left for trials (the model's ranking left out the rest).
  std::vector<TuneConfig> candidates;
  // Every candidate the rules proposed, with the model's prediction.
  std::vector<std::pair<TuneConfig, std::optional<double>>> predicted;
  std::string ranking_model;
  std::vector<PlanEntry> left_out;  // by the model's ranking
  double s_min = 0;                 // the smallest scale at all
  double s_rank = 0;                // the smallest scale worth ranking on
  std::vector<std::string> notes;
};

// The workload at full size, the device facts (probed unless the request
// has them) and the rules' candidates, ranked by the model (rank.h).
Result<SetupOutcome> Setup(const TuneRun& run);

// The baseline at the smallest scale worth ranking on, then at 4x the
// scale while each run is cheap, gives the cost of a trial by scale.
Result<CostModel> Calibrate(const TuneContext& ctx);

// The search's outcome: the candidates it ranked (the knobs that shape the
// LSM decided first), the winner, the A/B's planned scale, and the notes.
struct SearchPhaseResult {
  explicit SearchPhaseResult(CostModel c) : cost(std::move(c)) {}

  ShapeGuard shape;
  std::vector<TuneConfig> candidates;
  std::vector<UnjudgedShape> unjudged;  // shapes no affordable copy shows
  SearchOutcome search;
  TuneConfig winner;
  double ab_scale = 0;
  std::vector<std::string> notes;
  CostModel cost;  // Calibrate's, with the search's trials observed
};

// Successive halving over Setup's candidates, its last rung no larger than
// the A/B's scale, in the time the plan leaves after verification. `cost`
// is Calibrate's.
Result<SearchPhaseResult> Search(const TuneContext& ctx, CostModel cost);

// The knob check's outcome: which knobs the winner changed, the evidence
// of each, and the candidate the A/B judges.
struct KnobCheckOutcome {
  explicit KnobCheckOutcome(CostModel c) : cost(std::move(c)) {}

  TuneConfig winner;  // the search's, shape knobs put back for reads
  std::vector<Knob> changed;
  std::vector<KnobTrial> knob_trials;  // per changed knob
  std::vector<KnobProof> proofs;       // per changed knob
  TuneConfig candidate;
  bool nothing_kept = false;  // changed knobs, none with evidence of its own
  double ab_scale = 0;
  std::vector<std::string> notes;
  CostModel cost;  // the search's, with the knob check's trials observed
};

// Each knob the search's winner changed is reverted on its own, in
// interleaved rounds at the knob check's scale; a knob whose revert does
// not measurably hurt is not recommended.
Result<KnobCheckOutcome> CheckKnobs(const TuneContext& ctx,
                                    const SearchPhaseResult& searched);

// The A/B's outcome: the candidate it judged (shape knobs no affordable
// copy shows put back), its pairs, and the scale it ran at.
struct VerifyOutcome {
  Verification v;
  bool significant = false;
  double ab_scale = 0;
  TuneConfig candidate;
  bool nothing_kept = false;
  // Changed knobs put back before the A/B: no copy it affords shows them.
  std::vector<Knob> unfaithful;
  // Their values, unless the search's unjudged shapes name them already.
  std::optional<UnjudgedShape> unjudged;
  std::vector<std::string> notes;
};

// The knob check's candidate against the baseline, interleaved pairs at
// the largest scale the time left affords (its trials refine a copy of the
// knob check's cost model).
Result<VerifyOutcome> Verify(const TuneContext& ctx,
                             const SearchPhaseResult& searched,
                             const KnobCheckOutcome& check);

// The shapes no trial judged: the search's, then the A/B's.
std::vector<UnjudgedShape> AllUnjudged(const SearchPhaseResult& searched,
                                       const VerifyOutcome& verified);

// The outcome per knob, and the recommendation's memory split.
struct Judgement {
  TuneConfig recommendation;
  bool significant = false;
  std::vector<KnobEvidence> knobs;
  std::optional<MemorySplit> memory;
  std::vector<std::string> notes;
};
Judgement Judge(const TuneContext& ctx, const SearchPhaseResult& searched,
                const KnobCheckOutcome& check, const VerifyOutcome& verified);

// The verdict, the plan and the lines the terminal shows.
struct Explanation {
  std::string verdict;
  std::optional<Verification> verification;  // with its target check
  std::vector<std::string> lines;            // the explanation's
  std::vector<std::string> notes;
  std::vector<PlanEntry> measured;
  std::vector<PlanEntry> left_out;  // beyond Setup's
  std::optional<uint64_t> bytes_written;
  uint64_t elapsed_ns = 0;
};
Explanation Explain(const TuneContext& ctx, const SearchPhaseResult& searched,
                    const KnobCheckOutcome& check,
                    const VerifyOutcome& verified, const Judgement& judged);

}  // namespace disktune::tune::phases
