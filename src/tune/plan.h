// The tuner's time plan: how large a copy of the workload each phase can
// afford, from the cost model and the time left. Pure functions (no clock,
// no trials), so the arithmetic is tested on its own.
//
// Verification is planned first: the A/B (kMinRepeats pairs at least) at
// the largest scale its share of the time affords, the knob check at the
// largest scale its share affords (no larger than the A/B's), and the
// search gets the rest, its last rung no larger than the A/B's (a ranking
// made only on small copies can miss what the full size rewards).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "src/tune/search.h"
#include "src/tune/workload.h"

namespace disktune::tune {

inline constexpr int kMinRepeats = 3;
// Spare time buys repeats (narrower intervals), up to these: the knob check
// compares many configs at once and pools their noise, the A/B only two.
inline constexpr int kMaxKnobCheckRounds = 8;
inline constexpr int kMaxAbRepeats = 8;
// Rounds the search adds when its last rung's leader is not the rules'
// first choice of the top two (SearchBudget::tie_rounds): with the rung's
// own trials, three pairs.
inline constexpr int kSearchTieRounds = 2;
// Time left before the A/B buys scale first, until this many pairs fit.
inline constexpr int kPreferredAbRepeats = 5;
// Of the time left, the share a plan may commit: trial costs are estimates
// (the cost model is fitted to a few runs), and the rest absorbs their error
// so the tune ends inside its budget.
inline constexpr double kUsableTimeShare = 0.95;
// Of the spare time after the A/B's preferred pairs, the share that buys
// extra knob-check rounds; the rest is left for more A/B pairs.
inline constexpr double kExtraKnobRoundsShare = 0.55;
// Knob-check rounds past the minimum come out of the time the A/B's
// kPreferredAbRepeats pairs leave, not its kMinRepeats: the A/B decides
// whether anything is recommended, an extra round only which knobs
// (benchmarks/README.md, Tuner design records: Extra knob-check rounds and
// the A/B's pairs).
inline constexpr double kAbReserveRuns = 2.0 * kPreferredAbRepeats;
// The A/B's minimum: kMinRepeats pairs.
inline constexpr double kAbMinRuns = 2.0 * kMinRepeats;
// Rounds the knob check's scale is fitted for when reads are scored: more
// rounds on smaller copies. Three rounds give a 95% interval of +-2.5
// standard deviations of a pair's log-ratio (Student's t with 2 degrees of
// freedom), six +-1.05; and a read's pair spreads less on a smaller copy
// (why was not measured: perhaps less compaction left running under the
// reads after a smaller fill). Measured: benchmarks/README.md, Tuner design
// records: Knob-check rounds for reads.
inline constexpr int kReadKnobRounds = 6;

// How the plan shares the time after calibration between the A/B, the knob
// check and the search (which gets the rest).
struct PlanShares {
  double ab;               // of the time left, for the A/B's 3 pairs
  double knob;             // for the knob check's 3 rounds
  double ab_refit;         // for the A/B when re-fitted after the search
  bool extra_knob_rounds;  // spare time buys knob-check rounds
  bool ab_fills_time;      // the A/B takes the largest scale 3 pairs afford
                           // and adds pairs while time remains
  // Rounds the knob check's scale is fitted for (and runs, when they fit
  // before the A/B's minimum).
  int knob_rounds = kMinRepeats;
  // The A/B takes kPreferredAbRepeats pairs before a larger copy (PlanAb).
  bool ab_pairs_first = false;
};
inline constexpr PlanShares kPlan = {0.4, 0.25, 0.6, true, false};
// When the A/B alone judges the knobs that shape the LSM, taken from the
// rules (the tuner's TakeShapeFromRule): a write buffer shows more of its
// effect the deeper the copy, so the A/B gets most of the time, at the
// largest scale it affords (benchmarks/README.md, Tuner design records:
// Write buffers and the A/B's scale).
inline constexpr PlanShares kPlanShapeOnRule = {0.7, 0.1, 0.85, false, true};
// Reads scored (knobs that shape the LSM stay at their defaults): kPlan,
// with the knob check fitted for kReadKnobRounds rounds, and the A/B's
// preferred pairs bought before scale. A read's gain barely moves with the
// copy's size while three pairs leave a wide interval (benchmarks/README.md,
// Tuner design records: A read's gain and the copy's size).
constexpr PlanShares ForReads(PlanShares shares) {
  shares.knob_rounds = kReadKnobRounds;
  shares.ab_pairs_first = true;
  return shares;
}
inline constexpr PlanShares kPlanReads = ForReads(kPlan);

// What the arithmetic needs: the workload (its scales are rounded to whole
// keys), the cost model and the smallest scale worth a trial.
struct PlanContext {
  const Workload* workload = nullptr;
  const CostModel* cost = nullptr;
  double min_scale = 0;  // the smallest scale at all
};

// The largest scale at which `runs` trials cost at most `budget_ns` (the
// full size when it fits, min_scale when nothing does). The plans below
// round what they return as the workload runs it (EffectiveScale).
double FitScale(const PlanContext& c, double runs, double budget_ns);

// Runs of a knob check: the winner and it without each judged knob,
// `rounds` times; none with fewer than two changed knobs (the A/B is then
// each knob's test) or none to judge.
double KnobCheckRuns(size_t changed_knobs, size_t judged_knobs,
                     int rounds = kMinRepeats);

// The knob check's extra rounds (ExtendKnobCheck), decided once from the
// judged knobs' gains after `done` rounds: only undecided knobs (Undecided,
// passengers.h) may get them, most promising (highest median) first;
// `spare_ns` buys rounds of the winner and their reverts, each run costing
// `run_ns`, up to kMaxKnobCheckRounds in all. A knob joins only if the
// rounds of those before it stay as many: a knob behind in the check's
// rounds does not cut the rounds of one ahead.
struct ExtraKnobRounds {
  std::vector<size_t> knobs;     // indices into the gains, that get them
  std::vector<size_t> left_out;  // undecided, but no rounds for them
  int rounds = 0;                // 0 when not one fits
};
ExtraKnobRounds PlanExtraKnobRounds(const std::vector<Gain>& gains,
                                    double spare_ns, double run_ns, int done);

// The plan made before the search.
struct TunePlan {
  double ab_scale = 0;
  double knob_scale = 0;
  uint64_t search_budget_ns = 0;
  double search_min_scale = 0;
  // The time held for the knob check's and the A/B's minimum runs.
  double verify_ns = 0;
  // Full-size trials fit: the search's last rung and the A/B rank at scale 1.
  bool full_size() const { return ab_scale >= 1.0; }
};
// `left_ns`: the time after calibration; `rank_scale`: the smallest scale
// worth ranking on; `knob_runs`: KnobCheckRuns of the knobs that may change.
TunePlan PlanTune(const PlanContext& c, const PlanShares& shares,
                  double left_ns, double rank_scale, double knob_runs);

// The verification's minimum at the plan's scales, as the cost model prices
// them now: the A/B's kMinRepeats pairs and `knob_runs` knob-check runs.
double VerifyNs(const PlanContext& c, const TunePlan& p, double knob_runs);

// What the plan will use of `left_ns` and why, in one sentence for the
// profile's notes: the search's share and scales, the time held for
// verification, and whether full-size trials fit (and if not, what one
// costs against the A/B's share).
std::string PlanText(const PlanContext& c, const PlanShares& shares,
                     const TunePlan& p, double left_ns, size_t candidates);

// The plan re-fitted after the search, to the time actually left.
struct CheckPlan {
  double ab_scale = 0;
  double knob_scale = 0;
  int knob_rounds = kMinRepeats;
};
// `ab_scale`: the scale planned before the search (never exceeded);
// `check_runs`: KnobCheckRuns of the knobs the winner changed;
// `judged`: how many of them the check judges.
CheckPlan PlanKnobCheck(const PlanContext& c, const PlanShares& shares,
                        double left_ns, double ab_scale, double check_runs,
                        size_t judged);

// The A/B re-fitted to what is left after the knob check: time the search
// and the check did not use buys a larger copy (kPreferredAbRepeats pairs
// at the largest scale that affords them) and then pairs; `ab_scale` is the
// scale planned so far. With shares.ab_pairs_first, the A/B runs its
// preferred pairs on a smaller copy than `ab_scale` rather than fewer on
// it, but no smaller than `floor_scale` (the smallest copy that judges what
// the candidate changes). The pair count is fixed before the first run
// (from the time, not from results), so stopping cannot favour a verdict.
struct AbPlan {
  double scale = 0;
  int repeats = kMinRepeats;
};
AbPlan PlanAb(const PlanContext& c, const PlanShares& shares, double left_ns,
              double ab_scale, double floor_scale = 0);

}  // namespace disktune::tune
