// The state the tuner's phases share (tuner.h lists the phases), and the
// helpers several phases use. Internal to src/tune: tuner.h is the API.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/core/number_text.h"
#include "src/core/progress.h"
#include "src/core/scratch_dir.h"
#include "src/tune/budget.h"
#include "src/tune/passengers.h"
#include "src/tune/plan.h"
#include "src/tune/trials.h"
#include "src/tune/tuner.h"

namespace disktune::tune::phases {

// How the knobs that shape the LSM are judged (the search decides,
// TakeShapeFromRule in phase_search.cc), and the plan's shares that follow.
struct ShapeGuard {
  const PlanShares* shares = &kPlan;
  bool shape_on_rule = false;  // knobs that shape the LSM taken from rules
  // The smallest scale at which such knobs are judged: the first at full
  // depth for writes, 1 for reads (0: no candidate changes one).
  double deep_scale = 0;
};

// What the phases share: the request, the budget, the trials and the cost
// model they measure with, Setup's rules and space, the search's shape
// decision, and the result being built (Setup fills it; RunTuner writes
// each later phase's outcome into it). Setup fills the state in place
// rather than return its part: the trials hold references to the request,
// the budget and res.workload and res.shape, so those live here first.
struct TuneState {
  TuneState(const TuneRequest& r, const ScratchDir& s, ProgressSink* p,
            TuneBudget::Counter now, TuneBudget::Counter bytes)
      : req(r),
        scratch(s),
        progress(p),
        now_ns(now),
        start_ns(now()),
        budget(r.time_budget_ns, r.write_budget_bytes, now, bytes),
        model(ModelFor(r.engine)) {}

  double Remaining() const { return budget.RemainingNs(); }
  PlanContext Plan() const { return {&res.workload, &*cost, s_min}; }

  const TuneRequest& req;
  const ScratchDir& scratch;
  ProgressSink* progress;
  TuneBudget::Counter now_ns;
  const uint64_t start_ns;
  const TuneBudget budget;
  const EngineModel& model;
  bool bytes_readable = false;
  TuneResult res;

  // Setup: the rules' input and space; the trials on res.workload.
  RuleInput in;
  CandidateSpace space;
  std::optional<Trials> trials;
  double s_min = 0;   // the smallest scale at all
  double s_rank = 0;  // the smallest scale worth ranking on
  // Calibrate's cost model.
  std::optional<CostModel> cost;
  // The search's decision on the knobs that shape the LSM.
  ShapeGuard shape;
  // Every candidate the rules proposed, with the model's prediction.
  std::vector<std::pair<TuneConfig, std::optional<double>>> predicted;
};

// A gain as "<median>x [<low>x, <high>x]" (median and 95% interval), by
// the one GainText in src/core/number_text.h.
std::string GainText(const Gain& g);
std::string Join(const std::vector<std::string>& parts, const char* sep);

// One trial of `c` at `scale` for the interleaved rounds: its cost feeds the
// cost model and its throughput goes to `*scores`. `phase` names the phase in
// an error.
Status ScoreTrial(TuneState& st, const TuneConfig& c, double scale,
                  const std::string& label, const char* phase,
                  std::vector<double>* scores);

// Writes are at least half of the scored ops: knobs that shape the LSM act
// through compaction, which copies as deep as the full size show; else
// through the level-0 files reads check, which only the full size shows.
bool WritesScored(const TuneState& st);

// No knob differs between a and b.
bool SameKnobs(const TuneConfig& a, const TuneConfig& b);

// A knob a trial judges only on a copy faithful for both sides
// (fidelity.h): one that shapes the LSM, and the table file size when the
// rules left sizes to measure (a size the open-file rule fixes is not a
// trial's decision).
bool Guarded(const TuneState& st, Knob k);

// `c` changes a guarded knob from the baseline.
bool ChangesGuarded(const TuneState& st, const TuneConfig& c);

// The smallest scale whose copy is faithful for both the baseline and `c`.
double FaithfulScale(const TuneState& st, const TuneConfig& c);

// The knobs of `c` that need a faithful copy and differ from the baseline,
// with their values: "write_buffer_bytes 28 MiB, max_write_buffer_number 4".
std::string GuardedText(const TuneState& st, const TuneConfig& c);

// That `c`'s shape was not judged: it needs a copy of `need`, the budget
// affords `cap`; nothing when `known` holds the same set of values.
std::optional<UnjudgedShape> Unfaithful(const TuneState& st,
                                        const std::vector<UnjudgedShape>& known,
                                        const TuneConfig& c, double need,
                                        double cap);

// `c` with every knob that shapes the LSM at the baseline's value, and the
// cache the budget then leaves.
TuneConfig WithDefaultShape(const TuneState& st, TuneConfig c);

// Whether a check at `scale` judges knob k: not a knob that shapes the LSM
// on copies shallower than the full size (the A/B judges it then).
bool IsJudged(const TuneState& st, const ShapeGuard& shape, Knob k,
              double scale);

// Why an unjudged shape was not judged: the copy it needs and the one the
// budget affords.
std::string UnjudgedText(const UnjudgedShape& u);

}  // namespace disktune::tune::phases
