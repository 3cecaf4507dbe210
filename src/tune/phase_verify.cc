// Verify: the candidate against the baseline in interleaved pairs.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "src/core/units.h"
#include "src/tune/phases.h"
#include "src/tune/tune_context.h"

namespace disktune::tune::phases {
namespace {

// What one A/B pair at `scale` is expected to cost.
double PairNs(const CostModel& cost, double scale) {
  return 2 * cost.Estimate(scale);
}

// The A/B's first pair measures what a pair costs at its scale. When the
// pairs still needed for kMinRepeats would overrun the budget, returns the
// scale the measured cost affords (the A/B starts again there: pairs at
// two scales are not one comparison), or 0 when none does. The plan's
// scale comes from the cost model's curve beyond the largest copy it had
// seen, fitted to every candidate's trials, and writes grow faster than it:
// a copy big enough to flush and compact its tables writes many times what
// a copy half its size does, and more with small write buffers, and
// before this check the A/B overran its write budget (benchmarks/README.md,
// "run --quick: at most 4 GiB written"). The
// new scale does not trust the curve again: a trial's cost is convex in its
// size, so the line from the fixed cost (an empty copy) to the measured
// pair bounds what a smaller pair costs. No copy below `floor_scale` (the
// A/B of a knob that shapes the LSM) is one: the A/B stops instead.
double RefitAbScale(const TuneContext& ctx, const CostModel& cost, double s_v,
                    double planned_ns, double first_pair_ns, double floor_scale,
                    std::vector<std::string>* notes) {
  const double s_rank = ctx.setup.s_rank;
  const double left = ctx.Remaining();
  if ((kMinRepeats - 1) * first_pair_ns <= left) return s_v;
  const double fixed = std::min(2 * cost.fixed_ns(), first_pair_ns);
  const double per_pair = kUsableTimeShare * left / kMinRepeats;
  double scale = 0;
  if (per_pair > fixed && first_pair_ns > fixed) {
    scale = EffectiveScale(ctx.setup.workload,
                           s_v * (per_pair - fixed) / (first_pair_ns - fixed));
  }
  const std::string first = "the A/B's first pair at scale " + Fixed(s_v, 3) +
                            " cost " + FormatDuration(first_pair_ns) +
                            " of the budget, not the ~" +
                            FormatDuration(planned_ns) + " planned; ";
  if (scale < std::max(s_rank, floor_scale) || scale >= s_v) {
    const std::string copy =
        scale >= s_rank && scale < floor_scale
            ? "a copy as deep as the full size (scale " +
                  Fixed(floor_scale, 3) +
                  ", where a knob the recommendation changes acts on the LSM)"
            : "a copy worth measuring";
    notes->push_back(first + std::to_string(kMinRepeats) + " pairs of " + copy +
                     " did not fit in the " + FormatDuration(left) +
                     " left: the A/B stopped");
    return 0;
  }
  notes->push_back(first + "it started again at scale " + Fixed(scale, 3) +
                   ", which the measured cost affords in what was left");
  return scale;
}

// The budget cannot afford a copy that shows what the candidate does to the
// LSM or the cache (`floor_scale`): those knobs keep their defaults,
// unjudged (out->unjudged names them unless `known` does).
void PutBackShape(const TuneContext& ctx,
                  const std::vector<UnjudgedShape>& known, double floor_scale,
                  VerifyOutcome* out) {
  const SetupOutcome& setup = ctx.setup;
  if (auto u =
          Unfaithful(ctx, known, out->candidate, floor_scale, out->ab_scale)) {
    out->unjudged = std::move(*u);
  }
  for (Knob k : AllKnobs()) {
    if (Guarded(ctx, k) && KnobDiffers(out->candidate, setup.baseline, k)) {
      out->unfaithful.push_back(k);
    }
  }
  out->notes.push_back(
      "the A/B affords a copy of scale " + Fixed(out->ab_scale, 3) +
      ", and only copies from scale " + Fixed(floor_scale, 3) + " show what " +
      GuardedText(ctx, out->candidate) + " does at full size (" +
      ctx.trials.FidelityAt(out->candidate, out->ab_scale).Text() +
      " at that scale): they keep their defaults");
  out->candidate = WithDefaultShape(ctx, out->candidate);
  out->nothing_kept =
      out->candidate == WithBudgetCache(setup.in, setup.space, setup.baseline);
}

}  // namespace

Result<VerifyOutcome> Verify(const TuneContext& ctx,
                             const SearchPhaseResult& searched,
                             const KnobCheckOutcome& check) {
  const SetupOutcome& setup = ctx.setup;
  const ShapeGuard& shape = searched.shape;
  // The A/B's own copy of the knob check's cost model: its pairs add to it.
  CostModel cost = check.cost;
  VerifyOutcome out;
  out.candidate = check.candidate;
  out.nothing_kept = check.nothing_kept;
  // A smaller copy than planned must still judge a knob that shapes the
  // LSM, should the candidate change one: no copy smaller than the first
  // faithful one for both sides (fidelity.h), after a restart on an
  // overrun (RefitAbScale) too, which then stops rather than judge on a
  // copy that cannot show the knob.
  bool shaped = !check.changed.empty() && ChangesGuarded(ctx, out.candidate);
  // Reads: such a knob passed a knob check at full size (KeepShapeForReads).
  double floor_scale =
      shaped ? std::max(FaithfulScale(ctx, out.candidate),
                        WritesScored(ctx) ? 0.0 : shape.deep_scale)
             : 0.0;
  AbPlan plan = PlanAb(ctx.Plan(cost), *shape.shares, ctx.Remaining(),
                       check.ab_scale, floor_scale);
  out.ab_scale = plan.scale;
  if (check.changed.empty() || out.nothing_kept) return out;
  if (shaped && out.ab_scale < floor_scale) {
    PutBackShape(ctx, searched.unjudged, floor_scale, &out);
    shaped = false;
    floor_scale = 0;
    if (out.nothing_kept) return out;
  }
  Verification& v = out.v;
  v.compared = "recommendation";
  const TuneConfig* pair[2] = {&setup.baseline, &out.candidate};
  for (bool refitted = false;;) {
    const double s_v = out.ab_scale;
    ctx.run.progress->Info(
        "tune: A/B against the baseline at scale " + Fixed(s_v, 3) + ", " +
        (shape.shares->ab_fills_time ? "up to " : "") +
        std::to_string(plan.repeats) + " interleaved repeats each");
    v.scale = s_v;
    v.num = static_cast<uint64_t>(*WorkloadOverrides(setup.workload, s_v).num);
    v.trial_cache_bytes = ctx.trials.Scaled(out.candidate, s_v).cache_bytes();
    {
      const CopyFidelity c = ctx.trials.FidelityAt(out.candidate, s_v);
      const CopyFidelity b = ctx.trials.FidelityAt(setup.baseline, s_v);
      v.candidate_copy = c.Text();
      v.baseline_copy = b.Text();
      v.faithful = !shaped || (c.faithful() && b.faithful());
    }
    v.baseline_ops_per_sec.clear();
    v.candidate_ops_per_sec.clear();
    double refit = s_v;
    for (int round = 0; round < plan.repeats; round++) {
      if (round >= kMinRepeats && PairNs(cost, s_v) > ctx.Remaining()) break;
      const double before = ctx.run.budget.UsedNs();
      const double planned = PairNs(cost, s_v);
      for (size_t i : RoundOrder(2, static_cast<size_t>(round))) {
        std::string label = "A/B " + std::to_string(round + 1) + "/" +
                            std::to_string(plan.repeats) + ": " +
                            (i == 0 ? "baseline" : "recommendation");
        DT_RETURN_IF_ERROR(ScoreTrial(
            ctx, &cost, *pair[i], s_v, label, "verification",
            i == 0 ? &v.baseline_ops_per_sec : &v.candidate_ops_per_sec));
      }
      if (round == 0 && !refitted) {
        refit = RefitAbScale(ctx, cost, s_v, planned,
                             ctx.run.budget.UsedNs() - before, floor_scale,
                             &out.notes);
        if (refit != s_v) break;
      }
    }
    if (refit == s_v) break;
    refitted = true;
    if (refit == 0) {
      v.gain = PairedGain(v.candidate_ops_per_sec, v.baseline_ops_per_sec);
      out.significant = false;  // one pair is no verdict
      return out;
    }
    out.ab_scale = refit;
    plan.repeats = kMinRepeats;  // no more than the measured cost affords
  }
  v.gain = PairedGain(v.candidate_ops_per_sec, v.baseline_ops_per_sec);
  out.significant = v.gain.significant();
  return out;
}

}  // namespace disktune::tune::phases
