// The knob check: leave-one-out over the knobs the winner changed, and
// each knob's own A/B when none survives.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "src/core/units.h"
#include "src/tune/passengers.h"
#include "src/tune/phases.h"
#include "src/tune/tune_context.h"

namespace disktune::tune::phases {
namespace {

// The knob check's leave-one-out gain per changed knob (none: not judged).
using KnobGains = std::vector<std::optional<Gain>>;

// When no changed knob survived leave-one-out: each judged knob alone
// against the defaults, interleaved in rounds at the knob check's scale, if
// the rounds fit before the A/B's minimum. Sets out->knob_trials[i].alone.
Status SoloAbs(const TuneContext& ctx, double s_k, int max_rounds,
               double ab_min_ns, KnobCheckOutcome* out) {
  const SetupOutcome& setup = ctx.setup;
  const TuneConfig base =
      WithBudgetCache(setup.in, setup.space, setup.baseline);
  std::vector<size_t> solo;
  std::vector<TuneConfig> configs = {base};
  for (size_t i = 0; i < out->changed.size(); i++) {
    if (out->knob_trials[i].by_rule) continue;
    TuneConfig c = setup.baseline;
    CopyKnob(out->winner, out->changed[i], &c);
    solo.push_back(i);
    configs.push_back(WithBudgetCache(setup.in, setup.space, c));
  }
  // At the knob check's scale when the rounds fit, else at the largest
  // scale that does (no smaller than the smallest worth ranking on).
  const double n = static_cast<double>(configs.size());
  const double avail = ctx.Remaining() - ab_min_ns;
  double scale = s_k;
  if (kMinRepeats * n * out->cost.Estimate(scale) > avail) {
    scale = EffectiveScale(
        setup.workload, FitScale(ctx.Plan(out->cost), kMinRepeats * n, avail));
  }
  const double round_ns = out->cost.Estimate(scale) * n;
  if (scale < setup.s_rank || kMinRepeats * round_ns > avail) {
    out->notes.push_back(
        "no changed knob survived leave-one-out, and an A/B of each alone "
        "did not fit in the time left (~" +
        FormatDuration(kMinRepeats * out->cost.Estimate(s_k) * n) +
        " at the knob check's scale): none is recommended on its own");
    return Status::OK();
  }
  if (scale < s_k) {
    out->notes.push_back("each knob's own A/B ran at scale " + Fixed(scale, 3) +
                         ", the largest the time left affords");
  }
  std::vector<std::vector<double>> scores(configs.size());
  for (int round = 0; round < max_rounds; round++) {
    if (round >= kMinRepeats && round_ns > ctx.Remaining() - ab_min_ns) {
      break;
    }
    for (size_t i : RoundOrder(configs.size(), static_cast<size_t>(round))) {
      std::string label =
          "alone " + std::to_string(round + 1) + "/" +
          std::to_string(max_rounds) + ": " +
          (i == 0 ? std::string("defaults")
                  : std::string("only ") + KnobName(out->changed[solo[i - 1]]));
      DT_RETURN_IF_ERROR(ScoreTrial(ctx, &out->cost, configs[i], scale, label,
                                    "knob A/B", &scores[i]));
    }
  }
  // BlockedGains gives the defaults' gain over each; a knob's is its inverse.
  std::vector<Gain> gains = BlockedGains(scores);
  for (size_t j = 0; j < solo.size(); j++) {
    out->knob_trials[solo[j]].alone = Inverse(gains[j]);
  }
  return Status::OK();
}

// The progress label of the knob check's row i (0: the winner, 1 + j: it
// without changed[judged[j]]) in round `round` (from 0) of `rounds`.
std::string KnobCheckLabel(const std::vector<Knob>& changed,
                           const std::vector<size_t>& judged, size_t i,
                           int round, int rounds) {
  return "knob check " + std::to_string(round + 1) + "/" +
         std::to_string(rounds) + ": " +
         (i == 0 ? std::string("winner")
                 : std::string("without ") + KnobName(changed[judged[i - 1]]));
}

// Capacity knobs, kept on their rule when a scaled trial cannot reproduce
// what they are for (its few tables all fit in the default open files).
bool MayStayOnRule(Knob k) {
  return k == Knob::Of(KnobId::kMaxOpenFiles) ||
         k == Knob::Of(KnobId::kMaxFileBytes);
}

// A knob the check's rounds could not tell from noise (Undecided: its
// interval holds 1, whichever side its median fell on) gets more rounds:
// decided once, at this one look, for those knobs only, as many as
// kExtraKnobRoundsShare of the time before the A/B's preferred pairs
// (kAbReserveRuns; its minimum while no knob has won, below) affords, up to
// kMaxKnobCheckRounds in all; their gains then come from every round. Three
// rounds cannot hold a knob of about a tenth above 1, nor always on the
// right side of it. The interval decides who may get the rounds, not the
// median's side, which is the noise's; when the time does not buy as many
// rounds for all of them, the most promising (highest median) get them
// (PlanExtraKnobRounds). Measured: benchmarks/README.md, Tuner design
// records: Undecided knobs get more rounds.
// configs[0] is the winner, configs[1 + j] it without changed[judged[j]].
// While no knob has won (and none is kept without the check), the A/B runs
// only if an extra round makes one win,
// so the rounds may use the time down to the A/B's minimum (kAbMinRuns)
// instead of its preferred pairs: otherwise a tune whose knobs are all
// undecided keeps the defaults and leaves that time unused (the same
// record).
Status ExtendKnobCheck(const TuneContext& ctx,
                       const std::vector<TuneConfig>& configs,
                       const std::vector<size_t>& judged, double s_k,
                       double ab_reserve_ns, double ab_min_ns,
                       std::vector<std::vector<double>>* scores,
                       KnobGains* gain, KnobCheckOutcome* out) {
  const int done = static_cast<int>((*scores)[0].size());
  if (done >= kMaxKnobCheckRounds) return Status::OK();
  std::vector<Gain> now;
  for (size_t j : judged) now.push_back(*(*gain)[j]);
  // The A/B runs whatever the extra rounds show when a knob won already, or
  // when a changed knob is kept without the check: one it does not judge,
  // or a capacity knob that may stay on its rule (CheckKnobs).
  const bool ab_runs_anyway =
      std::any_of(now.begin(), now.end(),
                  [](const Gain& g) { return g.significant(); }) ||
      judged.size() < out->changed.size() ||
      std::any_of(judged.begin(), judged.end(),
                  [&](size_t i) { return MayStayOnRule(out->changed[i]); });
  const double reserve = ab_runs_anyway ? ab_reserve_ns : ab_min_ns;
  const double spare = kExtraKnobRoundsShare * (ctx.Remaining() - reserve);
  const ExtraKnobRounds plan =
      PlanExtraKnobRounds(now, spare, out->cost.Estimate(s_k), done);
  auto names_of = [&](const std::vector<size_t>& positions) {
    std::string names;
    for (size_t j : positions) {
      names += (names.empty() ? "" : ", ") +
               std::string(KnobName(out->changed[judged[j]]));
    }
    return names;
  };
  const std::vector<size_t>& unsure = plan.knobs;  // positions in `judged`
  const int extra = plan.rounds;
  if (unsure.empty()) {
    if (!plan.left_out.empty()) {
      out->notes.push_back("the knob check could not separate " +
                           names_of(plan.left_out) + " from noise in " +
                           std::to_string(done) +
                           " rounds, and no more fit before the A/B");
    }
    return Status::OK();
  }
  if (!plan.left_out.empty()) {
    out->notes.push_back("the knob check gave no more rounds to " +
                         names_of(plan.left_out) + " (within the noise after " +
                         std::to_string(done) + " rounds, but behind " +
                         names_of(unsure) +
                         ", whose rounds they would have cut)");
  }
  std::vector<size_t> rows = {0};  // rows of `configs` that run again
  for (size_t j : unsure) rows.push_back(1 + j);
  for (int r = 0; r < extra; r++) {
    for (size_t p : RoundOrder(rows.size(), static_cast<size_t>(done + r))) {
      const size_t i = rows[p];
      std::string label =
          KnobCheckLabel(out->changed, judged, i, done + r, done + extra);
      DT_RETURN_IF_ERROR(ScoreTrial(ctx, &out->cost, configs[i], s_k, label,
                                    "knob check", &(*scores)[i]));
    }
  }
  std::vector<std::vector<double>> sub;
  for (size_t i : rows) sub.push_back((*scores)[i]);
  std::vector<Gain> gains = BlockedGains(sub);
  for (size_t p = 0; p < unsure.size(); p++) {
    (*gain)[judged[unsure[p]]] = gains[p];
  }
  out->notes.push_back("the knob check ran " + std::to_string(extra) +
                       " more round(s) for " + names_of(unsure) +
                       ", within the noise after " + std::to_string(done));
  return Status::OK();
}

// Reads, when the A/B's copy is shallower than the full size: the check and
// the A/B run on copies, which do not show what a knob that shapes the LSM
// does at full size, so those knobs go back to their defaults.
void KeepShapeKnobsAtDefault(const TuneContext& ctx, double ab_scale,
                             KnobCheckOutcome* out) {
  for (Knob k : AllKnobs()) {
    if (Guarded(ctx, k) && KnobDiffers(out->winner, ctx.setup.baseline, k)) {
      out->notes.push_back(std::string(KnobName(k)) +
                           " stays at its default: the A/B runs on a copy "
                           "of scale " +
                           Fixed(ab_scale, 3) +
                           ", and only the full size shows its effect on "
                           "reads");
    }
  }
  out->winner = WithDefaultShape(ctx, out->winner);
}

// The knobs `winner` changes from the baseline.
std::vector<Knob> ChangedKnobs(const TuneContext& ctx,
                               const TuneConfig& winner) {
  std::vector<Knob> changed;
  for (Knob k : AllKnobs()) {
    if (KnobDiffers(winner, ctx.setup.baseline, k)) changed.push_back(k);
  }
  return changed;
}

// What the knob check judges (positions in `changed`), how many runs it
// takes, and its scales and rounds.
struct KnobCheckPlan {
  std::vector<size_t> judged;
  double check_runs = 0;
  CheckPlan plan;
};

// Plans the check of the `changed` knobs: every changed knob but those
// that shape the LSM when its copies are shallower than the full size.
// Re-fit the scales to what is actually left, then spend the rest on
// repeats (each knob must win on its own; none when the A/B judges every
// one); the A/B gets what remains. The check's scale depends on what it
// judges, and what it judges on its scale: at most a second fit, without
// the shape knobs.
KnobCheckPlan PlanJudgedKnobs(const TuneContext& ctx, const ShapeGuard& shape,
                              const CostModel& cost,
                              const std::vector<Knob>& changed,
                              double ab_scale) {
  KnobCheckPlan kp;
  const PlanShares& shares = *shape.shares;
  for (double at : {ab_scale, 0.0}) {
    kp.judged.clear();
    for (size_t i = 0; i < changed.size(); i++) {
      if (IsJudged(ctx, shape, changed[i], at)) kp.judged.push_back(i);
    }
    kp.check_runs =
        KnobCheckRuns(changed.size(), kp.judged.size(), shares.knob_rounds);
    kp.plan = PlanKnobCheck(ctx.Plan(cost), shares, ctx.Remaining(), ab_scale,
                            kp.check_runs, kp.judged.size());
    if (std::all_of(kp.judged.begin(), kp.judged.end(), [&](size_t i) {
          return IsJudged(ctx, shape, changed[i], kp.plan.knob_scale);
        })) {
      return kp;
    }
  }
  return kp;
}

// The knob check's plan, and out->changed; for reads, the changed knobs it
// cannot judge go back to their defaults first (see below).
KnobCheckPlan PlanCheck(const TuneContext& ctx, const ShapeGuard& shape,
                        double ab_scale, KnobCheckOutcome* out) {
  out->changed = ChangedKnobs(ctx, out->winner);
  KnobCheckPlan kp =
      PlanJudgedKnobs(ctx, shape, out->cost, out->changed, ab_scale);
  const std::vector<Knob>& changed = out->changed;
  const std::vector<size_t>& judged = kp.judged;
  if (!WritesScored(ctx) && !judged.empty() && judged.size() < changed.size()) {
    // Reads: the A/B's gain would come from the knobs the check judges, and
    // a knob that shapes the LSM, which the check's copies cannot judge,
    // would ride on it (no passengers; benchmarks/README.md, Tuner design
    // records: Shape knobs and reads).
    std::vector<std::string> names;
    for (size_t i = 0; i < changed.size(); i++) {
      if (std::find(judged.begin(), judged.end(), i) == judged.end()) {
        names.push_back(KnobName(changed[i]));
      }
    }
    out->winner = WithDefaultShape(ctx, out->winner);
    out->notes.push_back(
        Join(names, ", ") +
        " kept at the default: the knob check cannot run them at full size "
        "in the time left, the only size that shows a knob's effect on the "
        "LSM for reads, and the A/B would credit them with the gain of the "
        "knobs the check judges");
    out->changed = ChangedKnobs(ctx, out->winner);
    kp = PlanJudgedKnobs(ctx, shape, out->cost, out->changed, ab_scale);
  }
  return kp;
}

// The check's interleaved rounds: the winner and, per judged knob, the
// winner with that knob reverted; returns each changed knob's gain
// (leave-one-out).
Result<KnobGains> RunKnobCheckRounds(const TuneContext& ctx,
                                     const ShapeGuard& shape,
                                     const KnobCheckPlan& kp, double ab_min_ns,
                                     double ab_reserve_ns,
                                     KnobCheckOutcome* out) {
  const SetupOutcome& setup = ctx.setup;
  const std::vector<Knob>& changed = out->changed;
  const std::vector<size_t>& judged = kp.judged;
  const double s_k = kp.plan.knob_scale;
  auto revert = [&](TuneConfig c, Knob k) {
    CopyKnob(setup.baseline, k, &c);
    return WithBudgetCache(setup.in, setup.space, c);
  };
  KnobGains gain(changed.size(), std::nullopt);
  if (kp.check_runs <= 0) return gain;
  std::vector<TuneConfig> configs = {out->winner};
  for (size_t i : judged) configs.push_back(revert(out->winner, changed[i]));
  std::vector<std::vector<double>> scores(configs.size());
  for (int round = 0; round < kp.plan.knob_rounds; round++) {
    // Past the minimum, a round starts only if it ends before the
    // deadline (a rule on time, not on results, so it cannot bias them):
    // the rounds the check's copies were fitted for (plan.h, reads) keep
    // the A/B's minimum, any beyond them its preferred pairs
    // (benchmarks/README.md, Tuner design records: Undecided knobs get
    // more rounds).
    const double reserve =
        round < shape.shares->knob_rounds ? ab_min_ns : ab_reserve_ns;
    if (round >= kMinRepeats &&
        out->cost.Estimate(s_k) * static_cast<double>(configs.size()) >
            ctx.Remaining() - reserve) {
      break;
    }
    for (size_t i : RoundOrder(configs.size(), static_cast<size_t>(round))) {
      std::string label =
          KnobCheckLabel(changed, judged, i, round, kp.plan.knob_rounds);
      DT_RETURN_IF_ERROR(ScoreTrial(ctx, &out->cost, configs[i], s_k, label,
                                    "knob check", &scores[i]));
    }
  }
  std::vector<Gain> gains = BlockedGains(scores);
  for (size_t j = 0; j < judged.size(); j++) {
    gain[judged[j]] = gains[j];
  }
  DT_RETURN_IF_ERROR(ExtendKnobCheck(ctx, configs, judged, s_k, ab_reserve_ns,
                                     ab_min_ns, &scores, &gain, out));
  return gain;
}

// The evidence per changed knob from the check's gains. Capacity rules
// whose condition the scaled trial cannot reproduce (its few tables all fit
// in the default open files) are kept on the rule, and so is a knob that
// shapes the LSM on copies too shallow to judge it.
std::vector<KnobTrial> RecordKnobTrials(const TuneContext& ctx,
                                        const std::vector<Knob>& changed,
                                        const KnobGains& gain,
                                        const std::vector<size_t>& judged,
                                        double s_k) {
  const SetupOutcome& setup = ctx.setup;
  std::vector<KnobTrial> trials(changed.size());
  for (size_t i = 0; i < changed.size(); i++) {
    trials[i].leave_one_out = gain[i];
  }
  for (size_t i = 0; i < changed.size(); i++) {
    Knob k = changed[i];
    if (std::find(judged.begin(), judged.end(), i) == judged.end()) {
      trials[i].by_rule = true;
      continue;
    }
    bool won =
        trials[i].leave_one_out && trials[i].leave_one_out->significant();
    if (won || !MayStayOnRule(k)) {
      continue;
    }
    TuneConfig b = ctx.trials.Scaled(setup.baseline, s_k);
    uint64_t tables = ctx.trials.TablesAt(setup.baseline, s_k);
    bool reproducible = b.max_open_files() &&
                        tables > static_cast<uint64_t>(*b.max_open_files());
    if (!reproducible) trials[i].by_rule = true;
  }
  return trials;
}

// The knobs with a proof, on the baseline: the A/B's candidate.
void ChooseCandidate(const TuneContext& ctx, KnobCheckOutcome* out) {
  const SetupOutcome& setup = ctx.setup;
  const std::vector<Knob>& changed = out->changed;
  out->proofs = RecommendKnobs(out->knob_trials);
  if (changed.size() == 1 && !out->knob_trials[0].by_rule) {
    // One changed knob: the final A/B is its own A/B.
    out->proofs[0] = KnobProof::kOwnAb;
  }
  TuneConfig candidate = setup.baseline;
  for (size_t i = 0; i < changed.size(); i++) {
    if (out->proofs[i] != KnobProof::kNone) {
      CopyKnob(out->winner, changed[i], &candidate);
    }
  }
  candidate = WithBudgetCache(setup.in, setup.space, candidate);
  out->nothing_kept =
      !changed.empty() &&
      candidate == WithBudgetCache(setup.in, setup.space, setup.baseline);
  out->candidate = candidate;
}

}  // namespace

Result<KnobCheckOutcome> CheckKnobs(const TuneContext& ctx,
                                    const SearchPhaseResult& searched) {
  // out.cost is the knob check's cost model from here on: the search's,
  // which every round adds to.
  KnobCheckOutcome out(searched.cost);
  const ShapeGuard& shape = searched.shape;
  const double ab_scale = searched.ab_scale;
  out.winner = searched.winner;
  if (!WritesScored(ctx) && ab_scale < shape.deep_scale) {
    KeepShapeKnobsAtDefault(ctx, ab_scale, &out);
  }
  const KnobCheckPlan kp = PlanCheck(ctx, shape, ab_scale, &out);
  out.ab_scale = kp.plan.ab_scale;
  const double s_k = kp.plan.knob_scale;
  const double ab_min_ns = kAbMinRuns * out.cost.Estimate(out.ab_scale);
  // What knob-check rounds past the minimum leave to the A/B (plan.h).
  const double ab_reserve_ns = kAbReserveRuns * out.cost.Estimate(out.ab_scale);
  auto gain =
      RunKnobCheckRounds(ctx, shape, kp, ab_min_ns, ab_reserve_ns, &out);
  if (!gain.ok()) return gain.status();
  out.knob_trials = RecordKnobTrials(ctx, out.changed, *gain, kp.judged, s_k);
  if (out.changed.size() >= 2 && NeedsSoloAbs(out.knob_trials)) {
    DT_RETURN_IF_ERROR(SoloAbs(ctx, s_k, kp.plan.knob_rounds, ab_min_ns, &out));
  }
  ChooseCandidate(ctx, &out);
  return out;
}

}  // namespace disktune::tune::phases
