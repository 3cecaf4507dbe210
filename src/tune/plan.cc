#include "src/tune/plan.h"

#include <algorithm>

#include "src/core/units.h"
#include "src/tune/passengers.h"

namespace disktune::tune {
namespace {

// The scale as the workload runs it, in whole keys, rounded down: a scale
// fitted to a budget must not cost more once rounded.
double Rounded(const PlanContext& c, double scale) {
  const double r = EffectiveScale(*c.workload, scale);
  if (r <= scale || c.workload->num == 0) return r;
  return EffectiveScale(*c.workload,
                        scale - 1.0 / static_cast<double>(c.workload->num));
}

}  // namespace

double FitScale(const PlanContext& c, double runs, double budget_ns) {
  double lo = c.min_scale, hi = 1.0;
  if (runs * c.cost->Estimate(hi) <= budget_ns) return hi;
  // The cost model never decreases with scale, so bisection finds the
  // largest affordable scale to 2^-40.
  for (int i = 0; i < 40; i++) {
    double mid = (lo + hi) / 2;
    (runs * c.cost->Estimate(mid) <= budget_ns ? lo : hi) = mid;
  }
  return lo;
}

double KnobCheckRuns(size_t changed_knobs, size_t judged_knobs, int rounds) {
  return changed_knobs >= 2 && judged_knobs >= 1
             ? static_cast<double>((1 + judged_knobs) *
                                   static_cast<size_t>(rounds))
             : 0.0;
}

ExtraKnobRounds PlanExtraKnobRounds(const std::vector<Gain>& gains,
                                    double spare_ns, double run_ns, int done) {
  std::vector<size_t> undecided;
  for (size_t i = 0; i < gains.size(); i++) {
    if (Undecided(gains[i])) undecided.push_back(i);
  }
  std::stable_sort(undecided.begin(), undecided.end(), [&](size_t a, size_t b) {
    return gains[a].median > gains[b].median;
  });
  auto afford = [&](size_t knobs) {
    const double round_ns = run_ns * static_cast<double>(1 + knobs);
    const double fit = round_ns > 0 ? std::max(0.0, spare_ns / round_ns) : 0;
    return std::max(0, std::min(kMaxKnobCheckRounds - done,
                                static_cast<int>(std::min(fit, 1e6))));
  };
  ExtraKnobRounds out;
  size_t taken = 0;
  if (!undecided.empty() && afford(1) > 0) {
    out.rounds = afford(1);
    taken = 1;
    while (taken < undecided.size() && afford(taken + 1) == out.rounds) {
      taken++;
    }
  }
  out.knobs.assign(undecided.begin(), undecided.begin() + taken);
  out.left_out.assign(undecided.begin() + taken, undecided.end());
  return out;
}

double VerifyNs(const PlanContext& c, const TunePlan& p, double knob_runs) {
  return kAbMinRuns * c.cost->Estimate(p.ab_scale) +
         knob_runs * c.cost->Estimate(p.knob_scale);
}

TunePlan PlanTune(const PlanContext& c, const PlanShares& shares,
                  double left_ns, double rank_scale, double knob_runs) {
  TunePlan p;
  p.ab_scale = Rounded(c, FitScale(c, kAbMinRuns, shares.ab * left_ns));
  p.knob_scale =
      knob_runs > 0
          ? Rounded(c, std::min(p.ab_scale,
                                FitScale(c, knob_runs, shares.knob * left_ns)))
          : p.ab_scale;
  double verify_ns = VerifyNs(c, p, knob_runs);
  p.search_budget_ns = static_cast<uint64_t>(
      std::max(0.0, kUsableTimeShare * left_ns - verify_ns));
  p.search_min_scale = std::min(rank_scale, p.knob_scale);
  p.verify_ns = verify_ns;
  return p;
}

std::string PlanText(const PlanContext& c, const PlanShares& shares,
                     const TunePlan& p, double left_ns, size_t candidates) {
  const double committed =
      static_cast<double>(p.search_budget_ns) + p.verify_ns;
  std::string s =
      "plan: of " + FormatDuration(left_ns) +
      " left after calibration it commits " + FormatDuration(committed) + " (" +
      std::to_string(static_cast<int>(kUsableTimeShare * 100)) +
      "% at most: trial costs are estimates): " +
      FormatDuration(static_cast<double>(p.search_budget_ns)) +
      " for the search over " + std::to_string(candidates) + " candidates, " +
      FormatDuration(p.verify_ns) + " held for the knob check and " +
      std::to_string(kMinRepeats) + " A/B pairs; ";
  if (p.full_size()) {
    s += "full-size trials fit, so the search's last rung ";
    s += shares.ab_pairs_first
             ? "runs at full size, and the A/B too if its " +
                   std::to_string(kPreferredAbRepeats) +
                   " pairs fit there (else on the largest copy that "
                   "affords them)"
             : "and the A/B run at full size";
  } else {
    s += "a full-size trial costs ~" + FormatDuration(c.cost->Estimate(1.0)) +
         ", and " + std::to_string(2 * kMinRepeats) +
         " of them do not fit in the A/B's share (" +
         FormatDuration(shares.ab * left_ns) +
         "), so the search ranks on copies up to scale " +
         std::to_string(p.ab_scale).substr(0, 5);
  }
  return s;
}

CheckPlan PlanKnobCheck(const PlanContext& c, const PlanShares& shares,
                        double left_ns, double ab_scale, double check_runs,
                        size_t judged) {
  CheckPlan p;
  p.ab_scale = Rounded(
      c,
      std::min(ab_scale, FitScale(c, kAbMinRuns, shares.ab_refit * left_ns)));
  // What the knob check may use once the A/B's minimum is set aside.
  const double spare =
      kUsableTimeShare * left_ns - kAbMinRuns * c.cost->Estimate(p.ab_scale);
  const bool check = check_runs > 0;
  // Should no knob survive the check, each judged knob gets its own A/B
  // against the defaults (as many runs as the check): with two or more
  // judged, the scale fits both (the own A/Bs' kMinRepeats rounds), and
  // extra rounds come out of what is left.
  const double solo_runs =
      judged >= 2 ? KnobCheckRuns(judged, judged, kMinRepeats) : 0;
  p.knob_scale = Rounded(
      c, std::min(p.ab_scale, check ? FitScale(c, check_runs + solo_runs, spare)
                                    : p.ab_scale));
  p.knob_rounds = shares.knob_rounds;
  if (check && shares.extra_knob_rounds) {
    const double per_run = c.cost->Estimate(p.knob_scale);
    // Rounds past the minimum wait for the A/B's preferred pairs.
    const double after_ab = kUsableTimeShare * left_ns -
                            kAbReserveRuns * c.cost->Estimate(p.ab_scale);
    double rounds = kExtraKnobRoundsShare * (after_ab - solo_runs * per_run) /
                    (per_run * static_cast<double>(1 + judged));
    p.knob_rounds = std::clamp(static_cast<int>(rounds), shares.knob_rounds,
                               kMaxKnobCheckRounds);
  }
  return p;
}

AbPlan PlanAb(const PlanContext& c, const PlanShares& shares, double left_ns,
              double ab_scale, double floor_scale) {
  const double usable = kUsableTimeShare * left_ns;
  const double preferred = FitScale(c, 2.0 * kPreferredAbRepeats, usable);
  AbPlan p;
  p.scale = Rounded(
      c,
      std::max(preferred, std::min(ab_scale, FitScale(c, kAbMinRuns, usable))));
  if (shares.ab_pairs_first) {
    // One run's slack: the pairs are all the A/B has, and a trial may cost
    // more than the model says (fitted for exactly five pairs, three of five
    // read-heavy tunes ran four: in one, the pairs took ~7 s each and the
    // fifth did not fit in the 6 s left).
    const double slack = FitScale(c, 2.0 * kPreferredAbRepeats + 1, usable);
    p.scale = Rounded(c, std::min(p.scale, std::max(slack, floor_scale)));
  }
  if (shares.ab_fills_time)
    p.scale = Rounded(c, FitScale(c, kAbMinRuns, usable));
  p.repeats =
      std::clamp(static_cast<int>(usable / (2 * c.cost->Estimate(p.scale))),
                 kMinRepeats, kMaxAbRepeats);
  // Rounds go on while the next one fits in the time left (a rule on the
  // clock, not on the results).
  if (shares.ab_fills_time) p.repeats = kMaxAbRepeats;
  return p;
}

}  // namespace disktune::tune
