// What the tuner's phases (phases.h) read and none of them changes, and the
// helpers several phases use. Internal to src/tune: tuner.h is the API.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/core/number_text.h"
#include "src/core/progress.h"
#include "src/core/scratch_dir.h"
#include "src/tune/budget.h"
#include "src/tune/plan.h"
#include "src/tune/trials.h"
#include "src/tune/tuner.h"

namespace disktune::tune::phases {

struct SetupOutcome;  // phases.h

// The run: the request, where it runs and against what budget. RunTuner
// builds it before the first phase and keeps it until the last: the trials
// hold references to the request, the scratch directory, the budget and
// the progress sink, so these live here, for the whole run, and no phase's
// output (a value, moved as the phases hand it on) holds them.
struct TuneRun {
  TuneRun(const TuneRequest& r, const ScratchDir& s, ProgressSink* p,
          TuneBudget::Counter now, TuneBudget::Counter bytes, bool readable)
      : req(r),
        scratch(s),
        progress(p),
        now_ns(std::move(now)),
        start_ns(now_ns()),
        budget(r.time_budget_ns, r.write_budget_bytes, now_ns, bytes,
               r.started_ns),
        model(ModelFor(r.engine)),
        bytes_readable(readable) {}

  // The trials of `w` at full size (its data `shape`). REQUIRES: this run,
  // w and shape outlive them (they hold references to all three).
  Trials TrialsOn(const Workload& w, const DataShape& shape) const {
    return Trials(req, w, shape, scratch, budget, progress);
  }

  const TuneRequest& req;
  const ScratchDir& scratch;
  ProgressSink* const progress;
  const TuneBudget::Counter now_ns;
  const uint64_t start_ns;
  const TuneBudget budget;
  const EngineModel& model;
  // The budget counts real bytes: the process's (/proc/self/io readable)
  // or the test's.
  const bool bytes_readable;
};

// What the phases after Setup read: the run, Setup's outcome (the workload,
// the rules' input and space, the baseline, the candidates) and the trials
// on that workload. Each phase's own results are its return value. The cost
// model goes from phase to phase as a value: a phase that runs trials adds
// them to its own copy, and Search and CheckKnobs return theirs for the
// next. The trials are the one thing a phase acts on through the context:
// they run the engine and number the progress lines.
struct TuneContext {
  const TuneRun& run;
  const SetupOutcome& setup;
  Trials& trials;

  // What the phases may still plan for: the budget's rest less what is kept
  // for the run's final steps (FinalStepsNs).
  double Remaining() const {
    return std::max(0.0, run.budget.RemainingNs() - FinalStepsNs());
  }
  // What the run keeps for its steps after the last trial (tuner.h,
  // kFinalStepsNs).
  double FinalStepsNs() const;
  // The plan's view of the workload, with `cost` as the phase now has it.
  PlanContext Plan(const CostModel& cost) const;
};

// How the knobs that shape the LSM are judged (the search decides,
// TakeShapeFromRule in phase_search.cc), and the plan's shares that follow.
struct ShapeGuard {
  const PlanShares* shares = &kPlan;
  bool shape_on_rule = false;  // knobs that shape the LSM taken from rules
  // The smallest scale at which such knobs are judged: the first at full
  // depth for writes, 1 for reads (0: no candidate changes one).
  double deep_scale = 0;
};

// A gain as "<median>x [<low>x, <high>x]" (median and 95% interval), by
// the one GainText in src/core/number_text.h.
std::string GainText(const Gain& g);
std::string Join(const std::vector<std::string>& parts, const char* sep);

// One trial of `c` at `scale` for the interleaved rounds: its cost feeds
// `*cost` (the calling phase's cost model) and its throughput goes to
// `*scores`. `phase` names the phase in an error.
Status ScoreTrial(const TuneContext& ctx, CostModel* cost, const TuneConfig& c,
                  double scale, const std::string& label, const char* phase,
                  std::vector<double>* scores);

// Writes are at least half of the scored ops: knobs that shape the LSM act
// through compaction, which copies as deep as the full size show; else
// through the level-0 files reads check, which only the full size shows.
bool WritesScored(const TuneContext& ctx);

// No knob differs between a and b.
bool SameKnobs(const TuneConfig& a, const TuneConfig& b);

// A knob a trial judges only on a copy faithful for both sides
// (fidelity.h): one that shapes the LSM, and the table file size when the
// rules left sizes to measure (a size the open-file rule fixes is not a
// trial's decision).
bool Guarded(const TuneContext& ctx, Knob k);

// `c` changes a guarded knob from the baseline.
bool ChangesGuarded(const TuneContext& ctx, const TuneConfig& c);

// The smallest scale whose copy is faithful for both the baseline and `c`.
double FaithfulScale(const TuneContext& ctx, const TuneConfig& c);

// The knobs of `c` that need a faithful copy and differ from the baseline,
// with their values: "write_buffer_bytes 28 MiB, max_write_buffer_number 4".
std::string GuardedText(const TuneContext& ctx, const TuneConfig& c);

// That `c`'s shape was not judged: it needs a copy of `need`, the budget
// affords `cap`; nothing when `known` holds the same set of values.
std::optional<UnjudgedShape> Unfaithful(const TuneContext& ctx,
                                        const std::vector<UnjudgedShape>& known,
                                        const TuneConfig& c, double need,
                                        double cap);

// `c` with every knob that shapes the LSM at the baseline's value, and the
// cache the budget then leaves.
TuneConfig WithDefaultShape(const TuneContext& ctx, TuneConfig c);

// Whether a check at `scale` judges knob k: not a knob that shapes the LSM
// on copies shallower than the full size (the A/B judges it then).
bool IsJudged(const TuneContext& ctx, const ShapeGuard& shape, Knob k,
              double scale);

// Why an unjudged shape was not judged: the copy it needs and the one the
// budget affords.
std::string UnjudgedText(const UnjudgedShape& u);

}  // namespace disktune::tune::phases
