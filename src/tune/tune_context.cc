// The context's plan view and the helpers the phases share.
#include "src/tune/tune_context.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "src/core/units.h"
#include "src/tune/phases.h"

namespace disktune::tune::phases {

PlanContext TuneContext::Plan(const CostModel& cost) const {
  return {&setup.workload, &cost, setup.s_min};
}

double TuneContext::FinalStepsNs() const {
  const double budget = static_cast<double>(run.req.time_budget_ns);
  const double longest = static_cast<double>(trials.longest_cleanup_ns());
  return std::min(kFinalStepsShare * budget,
                  std::max(static_cast<double>(kFinalStepsNs), longest));
}

std::string GainText(const Gain& g) {
  return disktune::GainText(g.median, g.ci95_low, g.ci95_high);
}

std::string Join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

Status ScoreTrial(const TuneContext& ctx, CostModel* cost, const TuneConfig& c,
                  double scale, const std::string& label, const char* phase,
                  std::vector<double>* scores) {
  auto s = ctx.trials.Run(c, scale, label);
  if (!s.ok()) return s.status().WithContext(phase);
  cost->Observe(scale, s->Cost());
  scores->push_back(s->ops_per_sec);
  return Status::OK();
}

bool WritesScored(const TuneContext& ctx) {
  return ctx.setup.traits.write_share >= 0.5;
}

bool SameKnobs(const TuneConfig& a, const TuneConfig& b) {
  return std::none_of(AllKnobs().begin(), AllKnobs().end(),
                      [&](Knob k) { return KnobDiffers(a, b, k); });
}

bool Guarded(const TuneContext& ctx, Knob k) {
  if (!NeedsFaithfulCopy(k)) return false;
  return k != Knob::Of(KnobId::kMaxFileBytes) ||
         ctx.setup.space.Values(KnobId::kMaxFileBytes).size() > 1;
}

bool ChangesGuarded(const TuneContext& ctx, const TuneConfig& c) {
  return std::any_of(AllKnobs().begin(), AllKnobs().end(), [&](Knob k) {
    return Guarded(ctx, k) && KnobDiffers(c, ctx.setup.baseline, k);
  });
}

double FaithfulScale(const TuneContext& ctx, const TuneConfig& c) {
  return std::max(
      ctx.trials.FirstFaithfulScale(ctx.setup.baseline, ctx.setup.s_min),
      ctx.trials.FirstFaithfulScale(c, ctx.setup.s_min));
}

std::string GuardedText(const TuneContext& ctx, const TuneConfig& c) {
  std::vector<std::string> parts;
  for (Knob k : AllKnobs()) {
    if (Guarded(ctx, k) && KnobDiffers(c, ctx.setup.baseline, k)) {
      parts.push_back(std::string(KnobName(k)) + " " + KnobValueText(c, k));
    }
  }
  return Join(parts, ", ");
}

std::optional<UnjudgedShape> Unfaithful(const TuneContext& ctx,
                                        const std::vector<UnjudgedShape>& known,
                                        const TuneConfig& c, double need,
                                        double cap) {
  UnjudgedShape u;
  u.knobs = GuardedText(ctx, c);
  for (const UnjudgedShape& v : known) {
    if (v.knobs == u.knobs) return std::nullopt;
  }
  u.needed_scale = need;
  u.affordable_scale = cap;
  const CopyFidelity cand = ctx.trials.FidelityAt(c, cap);
  const CopyFidelity base = ctx.trials.FidelityAt(ctx.setup.baseline, cap);
  u.copy = cand.faithful() ? "the defaults: " + base.Text() : cand.Text();
  return u;
}

TuneConfig WithDefaultShape(const TuneContext& ctx, TuneConfig c) {
  bool changed = false;
  for (Knob k : AllKnobs()) {
    if (Guarded(ctx, k) && KnobDiffers(c, ctx.setup.baseline, k)) {
      CopyKnob(ctx.setup.baseline, k, &c);
      changed = true;
    }
  }
  return changed ? WithBudgetCache(ctx.setup.in, ctx.setup.space, c) : c;
}

bool IsJudged(const TuneContext& ctx, const ShapeGuard& shape, Knob k,
              double scale) {
  return !(Guarded(ctx, k) && shape.deep_scale > 0 && scale < shape.deep_scale);
}

std::string UnjudgedText(const UnjudgedShape& u) {
  return "only a copy of scale " + Fixed(u.needed_scale, 3) +
         " or more shows " + u.knobs +
         " as at full size, and the budget "
         "affords " +
         Fixed(u.affordable_scale, 3) + " (" + u.copy + ")";
}

std::vector<UnjudgedShape> AllUnjudged(const SearchPhaseResult& searched,
                                       const VerifyOutcome& verified) {
  std::vector<UnjudgedShape> all = searched.unjudged;
  if (verified.unjudged) all.push_back(*verified.unjudged);
  return all;
}

}  // namespace disktune::tune::phases
