// Search: the shape-knob guards, then successive halving over the
// candidates.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "src/core/units.h"
#include "src/tune/phases.h"
#include "src/tune/tune_context.h"

namespace disktune::tune::phases {
namespace {

// The values the rules left for knob k, preferred first.
std::vector<KnobValue> RuleValues(const CandidateSpace& space, Knob k) {
  if (k.spec == nullptr) return {};
  return space.Values(k.spec->id);
}

// Scored reads after the writes (read-heavy: a fill, then point reads): a
// read checks every level-0 file the fill's last flushes left, and how many
// that is (the flushes modulo the level-0 trigger, give or take one for the
// memtable's overhead) differs between a copy and the full size
// (benchmarks/README.md, Tuner design records: Shape knobs and reads). So
// for reads a knob that shapes the LSM is judged at
// full size only: the search ranks no lower, and when full-size trials do
// not fit, such knobs keep their defaults.
void KeepShapeForReads(const TuneContext& ctx, double s_search,
                       SearchPhaseResult* out) {
  const TuneConfig& baseline = ctx.setup.baseline;
  if (s_search >= 1.0) {
    out->shape.deep_scale = 1.0;
    return;
  }
  const size_t before = out->candidates.size();
  // Each candidate with those knobs put back (the rules fix some of them
  // in every candidate), once.
  std::vector<std::string> names;
  for (Knob k : AllKnobs()) {
    if (Guarded(ctx, k) &&
        std::any_of(
            out->candidates.begin(), out->candidates.end(),
            [&](const TuneConfig& c) { return KnobDiffers(c, baseline, k); })) {
      names.push_back(KnobName(k));
    }
  }
  std::vector<TuneConfig> kept;
  for (const TuneConfig& candidate : out->candidates) {
    TuneConfig c = WithDefaultShape(ctx, candidate);
    if (std::find(kept.begin(), kept.end(), c) == kept.end()) {
      kept.push_back(c);
    }
  }
  out->candidates = std::move(kept);
  out->notes.push_back(
      "knobs that shape the LSM kept at their defaults, not ranked (" +
      Join(names, ", ") +
      "): a read checks the level-0 files the fill's last flushes left, "
      "which a copy smaller than the full size does not reproduce, and "
      "trials go up to scale " +
      Fixed(s_search, 3) + " only; the search ranked " +
      std::to_string(out->candidates.size()) + " of " + std::to_string(before) +
      " candidates");
}

// Each knob that shapes the LSM, with values left by the rules, takes the
// rule's first value some of `kept` holds (else the defaults'): `kept` loses
// the candidates without it; `taken` and `untried` name the values.
void TakeRuleValues(const TuneContext& ctx, std::vector<TuneConfig>* kept,
                    std::vector<std::string>* taken,
                    std::vector<std::string>* untried) {
  const TuneConfig& baseline = ctx.setup.baseline;
  for (Knob k : AllKnobs()) {
    if (!Guarded(ctx, k) || k.spec == nullptr) continue;
    auto holds = [k](KnobValue v) {
      return [k, v](const TuneConfig& c) { return KnobValueOf(c, k) == v; };
    };
    std::vector<KnobValue> values = RuleValues(ctx.setup.space, k);
    if (values.size() < 2) continue;
    auto pick = std::find_if(values.begin(), values.end(), [&](KnobValue v) {
      return v != KnobValueOf(baseline, k) &&
             std::any_of(kept->begin(), kept->end(), holds(v));
    });
    if (pick == values.end())
      pick = std::find(values.begin(), values.end(), KnobValueOf(baseline, k));
    if (pick == values.end()) continue;
    const KnobValue v = *pick;
    std::erase_if(*kept, [&](const TuneConfig& c) { return !holds(v)(c); });
    taken->push_back(std::string(k.spec->name) + " " +
                     disktune::KnobValueText(*k.spec, v));
    // The defaults' value is measured anyway, in the baseline.
    for (KnobValue u : values) {
      if (u != v && u != KnobValueOf(baseline, k)) {
        untried->push_back(std::string(k.spec->name) + " " +
                           disktune::KnobValueText(*k.spec, u));
      }
    }
  }
}

// Knobs that shape the LSM are never ranked or judged on copies that fill
// fewer LSM levels than the full size. A larger write buffer pays off as
// level 0 absorbing flushes while the deeper levels compact, and a trial
// whose LSM is a level shallower lacks those compactions; RocksDB's
// compaction style likewise (benchmarks/README.md, Tuner design records:
// Shape knobs and the LSM's depth).
//
// Sets out->shape.deep_scale, the smallest scale whose copy fills as many
// levels as the full size (for a write-heavy workload whose candidates
// change such a knob). When the search's copies are shallower still, or a first
// rung of every candidate at deep_scale does not fit `search_ns` (the search
// would rank a handful of the rules' candidates: 3 of 24 in `run --quick`),
// each such knob gets the rule's first value some candidate holds, the search
// ranks the other knobs, and the A/B, given the larger share of
// kPlanShapeOnRule at the largest scale it affords, judges them; otherwise
// the search ranks no lower than deep_scale.
void TakeShapeFromRule(const TuneContext& ctx, double s_search,
                       double search_ns, SearchPhaseResult* out) {
  const TuneConfig& baseline = ctx.setup.baseline;
  const Trials& trials = ctx.trials;
  auto changes_shape = [&](const TuneConfig& c) {
    return ChangesGuarded(ctx, c);
  };
  if (std::none_of(out->candidates.begin() + 1, out->candidates.end(),
                   changes_shape)) {
    return;
  }
  if (!WritesScored(ctx)) {
    KeepShapeForReads(ctx, s_search, out);
    return;
  }
  const int full_depth = trials.FidelityAt(baseline, 1.0).full_levels;
  // The copy each candidate needs to be judged on (fidelity.h).
  auto need_of = [&](const TuneConfig& c) {
    return changes_shape(c) ? FaithfulScale(ctx, c) : 0.0;
  };
  out->shape.deep_scale = 0;
  for (const TuneConfig& c : out->candidates) {
    out->shape.deep_scale = std::max(out->shape.deep_scale, need_of(c));
  }
  const double deep_rung_ns = static_cast<double>(out->candidates.size()) *
                              out->cost.Estimate(out->shape.deep_scale);
  const bool shallow = s_search < out->shape.deep_scale;
  out->shape.shape_on_rule = shallow || deep_rung_ns > search_ns;
  if (!out->shape.shape_on_rule) return;
  out->shape.shares = &kPlanShapeOnRule;
  const size_t before = out->candidates.size();
  // The largest copy the A/B affords with the larger share it gets when
  // it judges these knobs: a candidate whose shape needs a larger one
  // keeps the defaults' shape (no verdict on a copy that cannot show it).
  const double ab_cap = PlanTune(ctx.Plan(out->cost), kPlanShapeOnRule,
                                 ctx.Remaining(), ctx.setup.s_rank, 0)
                            .ab_scale;
  std::vector<TuneConfig> kept;
  for (size_t i = 1; i < out->candidates.size(); i++) {
    const TuneConfig& c = out->candidates[i];
    const double need = need_of(c);
    TuneConfig k = c;
    if (need > ab_cap) {
      // No unjudged shape is known before the search.
      if (auto u = Unfaithful(ctx, out->unjudged, c, need, ab_cap)) {
        out->unjudged.push_back(std::move(*u));
      }
      k = WithDefaultShape(ctx, c);
    }
    if (!SameKnobs(k, baseline) &&
        std::find(kept.begin(), kept.end(), k) == kept.end()) {
      kept.push_back(k);
    }
  }
  std::vector<std::string> taken, untried;
  TakeRuleValues(ctx, &kept, &taken, &untried);
  out->shape.deep_scale = 0;
  for (const TuneConfig& c : kept) {
    out->shape.deep_scale = std::max(out->shape.deep_scale, need_of(c));
  }
  kept.insert(kept.begin(), out->candidates.front());
  out->candidates = std::move(kept);
  if (out->shape.deep_scale == 0) {
    // Nothing that shapes the LSM is left to judge: the plan's usual
    // shares, and the search ranks the rest.
    out->shape.shape_on_rule = false;
    out->shape.shares = &kPlan;
    out->notes.push_back(
        "knobs that shape the LSM kept at their defaults: the budget "
        "affords an A/B up to scale " +
        Fixed(ab_cap, 3) +
        ", smaller than any copy that shows them (see copy_fidelity); the "
        "search ranked " +
        std::to_string(out->candidates.size()) + " of " +
        std::to_string(before) + " candidates");
    return;
  }
  out->notes.push_back(
      "knobs that shape the LSM taken from the rules, not ranked: " +
      (taken.empty() ? std::string("each has one value") : Join(taken, ", ")) +
      (untried.empty() ? "" : "; not tried: " + Join(untried, ", ")) + ". " +
      (shallow
           ? "Trials go up to scale " + Fixed(s_search, 3) +
                 ", and only copies from scale " +
                 Fixed(out->shape.deep_scale, 3) +
                 " keep the full size's data over memory and its " +
                 std::to_string(full_depth) + " LSM level(s)"
           : "Faithful copies (from scale " + Fixed(out->shape.deep_scale, 3) +
                 ", " + std::to_string(full_depth) + " LSM levels) cost ~" +
                 FormatDuration(deep_rung_ns) +
                 " for one trial of each candidate, more than the "
                 "search's " +
                 FormatDuration(search_ns)) +
      ", and these knobs act in the deepest compactions, so the A/B "
      "judges them; the search ranked " +
      std::to_string(out->candidates.size()) + " of " + std::to_string(before) +
      " candidates");
}

// The search's winner, with a note on its tie; when the defaults ranked
// first, the best alternative instead.
void ChooseWinner(const TuneConfig& baseline, SearchPhaseResult* out) {
  out->winner = out->candidates[out->search.winner];
  if (out->search.tie) {
    const HeadToHead& h = *out->search.tie;
    const std::string partner =
        h.leaner() ? "a candidate near it with less memtable memory"
                   : "the rules' preferred candidate near it";
    const std::string level =
        h.leaner() ? "not significant, so the leaner one wins: the same "
                     "throughput for less memory"
        : h.leader_leaner()
            ? "not significant, and the leader holds less memtable memory: "
              "it stands"
            : "not significant, so the rules' preference decides";
    out->notes.push_back(
        "the last rung's leader (" + ConfigText(out->candidates[h.leader]) +
        ") against " + partner + " (" +
        ConfigText(out->candidates[h.preferred]) + "), " +
        std::to_string(h.gain.repeats) + " pairs at scale " +
        Fixed(h.scale, 3) + ": " + GainText(h.gain) + "; " +
        (h.gain.significant() ? std::string("the leader stands") : level));
  }
  if (SameKnobs(out->winner, baseline)) {
    // The defaults ranked first. Verify the best alternative against them
    // rather than stop: "nothing beats the defaults" then rests on an A/B.
    for (auto rung = out->search.rungs.rbegin();
         rung != out->search.rungs.rend(); ++rung) {
      double best = 0;
      std::optional<size_t> pick;
      for (size_t i = 0; i < rung->candidates.size(); i++) {
        const TuneConfig& c = out->candidates[rung->candidates[i]];
        if (rung->ops_per_sec[i] > best && !SameKnobs(c, baseline)) {
          best = rung->ops_per_sec[i];
          pick = rung->candidates[i];
        }
      }
      if (pick) {
        out->winner = out->candidates[*pick];
        out->notes.push_back(
            "the defaults ranked first in the search; the best alternative (" +
            ConfigText(out->winner) + ") was verified against them");
        break;
      }
    }
  }
}

}  // namespace

Result<SearchPhaseResult> Search(const TuneContext& ctx, CostModel cost) {
  const SetupOutcome& setup = ctx.setup;
  // out.cost is the search's cost model from here on: the plans read it
  // and every trial adds to it.
  SearchPhaseResult out(std::move(cost));
  out.candidates = setup.candidates;
  const PlanContext pc = ctx.Plan(out.cost);
  const double left = ctx.Remaining();
  // Reads scored: the knob check gets more rounds on smaller copies (plan.h).
  if (!WritesScored(ctx)) out.shape.shares = &kPlanReads;
  // The search stays at the scale whose LSM depth was checked.
  const TunePlan first = PlanTune(pc, *out.shape.shares, left, setup.s_rank, 0);
  const double s_search = first.ab_scale;
  TakeShapeFromRule(ctx, s_search, static_cast<double>(first.search_budget_ns),
                    &out);
  // Knobs that may change, and of them those the knob check would judge.
  size_t varying = 0, varying_judged = 0;
  for (Knob k : AllKnobs()) {
    bool any = std::any_of(
        out.candidates.begin(), out.candidates.end(),
        [&](const TuneConfig& c) { return KnobDiffers(c, setup.baseline, k); });
    varying += any ? 1 : 0;
    varying_judged += any && IsJudged(ctx, out.shape, k, s_search) ? 1 : 0;
  }
  const double knob_runs =
      KnobCheckRuns(varying, varying_judged, out.shape.shares->knob_rounds);
  const TunePlan plan =
      PlanTune(pc, *out.shape.shares, left, setup.s_rank, knob_runs);
  out.ab_scale = plan.ab_scale;
  TunePlan shown = plan;
  shown.ab_scale = s_search;  // the search ranks no larger than this
  out.notes.push_back(
      PlanText(pc, *out.shape.shares, shown, left, out.candidates.size()));

  SearchBudget sb;
  sb.budget_ns = plan.search_budget_ns;
  sb.max_scale = s_search;
  sb.min_scale = plan.search_min_scale;
  sb.tie_rounds = kSearchTieRounds;
  const EngineModel& model = ctx.run.model;
  sb.memtable_bytes = [&model](const TuneConfig& c) {
    return MemtableBytes(model, c);
  };
  // The tie's rounds come out of the time the verification's minimum (the
  // knob check's rounds and the A/B's pairs, at their planned scales, as
  // the cost model now prices them) leaves.
  sb.tie_left_ns = [&ctx, &pc, &plan, knob_runs] {
    return kUsableTimeShare * ctx.Remaining() - VerifyNs(pc, plan, knob_runs);
  };
  if (out.shape.deep_scale > 0 && !out.shape.shape_on_rule) {
    // Knobs that shape the LSM are ranked: no rung shallower than the full
    // size.
    sb.min_scale =
        std::max(sb.min_scale, std::min(out.shape.deep_scale, s_search));
  }
  int trial_no = 0;
  const Workload& w = setup.workload;
  TrialFn trial_fn = [&](const TuneConfig& c, double scale) {
    trial_no++;
    return ctx.trials.Run(
        c, EffectiveScale(w, scale),
        "search trial " + std::to_string(trial_no) + ": " + ConfigText(c));
  };
  ctx.run.progress->Info(
      "tune: successive halving over " + std::to_string(out.candidates.size()) +
      " candidates, " + FormatDuration(static_cast<double>(sb.budget_ns)) +
      " for the search, trials up to scale " + Fixed(plan.knob_scale, 3) +
      "; A/B at scale " + Fixed(out.ab_scale, 3));
  // The search's clock is the budget's: it advances with writes too.
  auto search = SuccessiveHalving(out.candidates, sb, &out.cost, trial_fn,
                                  [&] { return ctx.run.budget.ClockNs(); });
  if (!search.ok()) return search.status();
  out.search = *search;
  ChooseWinner(setup.baseline, &out);
  ctx.run.progress->Info("tune: search winner after " +
                         std::to_string(out.search.trials) +
                         " trials: " + ConfigText(out.winner));
  for (const std::string& n : out.search.notes) out.notes.push_back(n);
  return out;
}

}  // namespace disktune::tune::phases
