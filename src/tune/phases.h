// The tuner's phases (tuner.h describes each), in the order RunTuner
// (tuner.cc) runs them. Each takes the shared TuneState (tune_state.h: the
// request, the budget, the trials and cost model it measures with) and the
// outcomes of the phases before it, and returns its own outcome; RunTuner
// writes that into the TuneResult. Setup builds the TuneState itself.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/core/status.h"
#include "src/tune/tune_state.h"

namespace disktune::tune::phases {

// The workload at full size, the device facts and the rules' candidates:
// fills st.res's request, facts, rules, baseline and candidates, and st's
// rule input, space and trials.
Status Setup(TuneState& st);

// The baseline at the smallest scale worth ranking on, then at 4x the
// scale while each run is cheap, gives the cost of a trial by scale.
Result<CostModel> Calibrate(TuneState& st);

// The search's outcome: the candidates it ranked (the knobs that shape the
// LSM decided first), the winner, the A/B's planned scale, and the notes.
struct SearchPhaseResult {
  ShapeGuard shape;
  std::vector<TuneConfig> candidates;
  std::vector<UnjudgedShape> unjudged;  // shapes no affordable copy shows
  SearchOutcome search;
  TuneConfig winner;
  double ab_scale = 0;
  std::vector<std::string> notes;
};

// Successive halving over st.res.candidates, its last rung no larger than
// the A/B's scale, in the time the plan leaves after verification.
// REQUIRES: st.cost (Calibrate).
Result<SearchPhaseResult> Search(TuneState& st);

// The knob check's outcome: which knobs the winner changed, the evidence
// of each, and the candidate the A/B judges.
struct KnobCheckOutcome {
  TuneConfig winner;  // the search's, shape knobs put back for reads
  std::vector<Knob> changed;
  std::vector<KnobTrial> knob_trials;  // per changed knob
  std::vector<KnobProof> proofs;       // per changed knob
  TuneConfig candidate;
  bool nothing_kept = false;  // changed knobs, none with evidence of its own
  double ab_scale = 0;
  std::vector<std::string> notes;
};

// Each knob `winner` changed is reverted on its own, in interleaved rounds
// at the knob check's scale; a knob whose revert does not measurably hurt
// is not recommended. REQUIRES: st.shape (the search's).
Result<KnobCheckOutcome> CheckKnobs(TuneState& st, const TuneConfig& winner,
                                    double ab_scale);

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
  std::optional<UnjudgedShape> unjudged;
  std::vector<std::string> notes;
};

// The candidate against the baseline, interleaved pairs at the largest
// scale the time left affords.
Result<VerifyOutcome> Verify(TuneState& st, const KnobCheckOutcome& check);

// The outcome per knob, and the recommendation's memory split.
struct Judgement {
  TuneConfig recommendation;
  bool significant = false;
  std::vector<KnobEvidence> knobs;
  std::optional<MemorySplit> memory;
  std::vector<std::string> notes;
};
Judgement Judge(const TuneState& st, const KnobCheckOutcome& check,
                const VerifyOutcome& verified);

// The verdict, the plan and the lines the terminal shows.
struct Explanation {
  std::string verdict;
  std::optional<Verification> verification;  // with its target check
  std::vector<std::string> lines;            // the explanation's
  std::vector<std::string> notes;
  std::vector<PlanEntry> measured;  // beyond those st.res holds
  std::vector<PlanEntry> left_out;  // beyond those st.res holds
  std::optional<uint64_t> bytes_written;
  uint64_t elapsed_ns = 0;
};
// REQUIRES: the Judgement written into st.res (recommendation, knobs,
// significant, memory).
Explanation Explain(const TuneState& st, const KnobCheckOutcome& check,
                    const VerifyOutcome& verified);

}  // namespace disktune::tune::phases
