// The helpers the phases share.
#include "src/tune/tune_state.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "src/core/units.h"

namespace disktune::tune::phases {

std::string GainText(const Gain& g) {
  return disktune::GainText(g.median, g.ci95_low, g.ci95_high);
}

std::string Join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

Status ScoreTrial(TuneState& st, const TuneConfig& c, double scale,
                  const std::string& label, const char* phase,
                  std::vector<double>* scores) {
  auto s = st.trials->Run(c, scale, label);
  if (!s.ok()) return s.status().WithContext(phase);
  st.cost->Observe(scale, s->Cost());
  scores->push_back(s->ops_per_sec);
  return Status::OK();
}

bool WritesScored(const TuneState& st) {
  return st.res.traits.write_share >= 0.5;
}

bool SameKnobs(const TuneConfig& a, const TuneConfig& b) {
  return std::none_of(AllKnobs().begin(), AllKnobs().end(),
                      [&](Knob k) { return KnobDiffers(a, b, k); });
}

bool Guarded(const TuneState& st, Knob k) {
  if (!NeedsFaithfulCopy(k)) return false;
  return k != Knob::Of(KnobId::kMaxFileBytes) ||
         st.space.Values(KnobId::kMaxFileBytes).size() > 1;
}

bool ChangesGuarded(const TuneState& st, const TuneConfig& c) {
  return std::any_of(AllKnobs().begin(), AllKnobs().end(), [&](Knob k) {
    return Guarded(st, k) && KnobDiffers(c, st.res.baseline, k);
  });
}

double FaithfulScale(const TuneState& st, const TuneConfig& c) {
  return std::max(st.trials->FirstFaithfulScale(st.res.baseline, st.s_min),
                  st.trials->FirstFaithfulScale(c, st.s_min));
}

std::string GuardedText(const TuneState& st, const TuneConfig& c) {
  std::vector<std::string> parts;
  for (Knob k : AllKnobs()) {
    if (Guarded(st, k) && KnobDiffers(c, st.res.baseline, k)) {
      parts.push_back(std::string(KnobName(k)) + " " + KnobValueText(c, k));
    }
  }
  return Join(parts, ", ");
}

std::optional<UnjudgedShape> Unfaithful(const TuneState& st,
                                        const std::vector<UnjudgedShape>& known,
                                        const TuneConfig& c, double need,
                                        double cap) {
  UnjudgedShape u;
  u.knobs = GuardedText(st, c);
  for (const UnjudgedShape& v : known) {
    if (v.knobs == u.knobs) return std::nullopt;
  }
  u.needed_scale = need;
  u.affordable_scale = cap;
  const CopyFidelity cand = st.trials->FidelityAt(c, cap);
  const CopyFidelity base = st.trials->FidelityAt(st.res.baseline, cap);
  u.copy = cand.faithful() ? "the defaults: " + base.Text() : cand.Text();
  return u;
}

TuneConfig WithDefaultShape(const TuneState& st, TuneConfig c) {
  bool changed = false;
  for (Knob k : AllKnobs()) {
    if (Guarded(st, k) && KnobDiffers(c, st.res.baseline, k)) {
      CopyKnob(st.res.baseline, k, &c);
      changed = true;
    }
  }
  return changed ? WithBudgetCache(st.in, st.space, c) : c;
}

bool IsJudged(const TuneState& st, const ShapeGuard& shape, Knob k,
              double scale) {
  return !(Guarded(st, k) && shape.deep_scale > 0 && scale < shape.deep_scale);
}

std::string UnjudgedText(const UnjudgedShape& u) {
  return "only a copy of scale " + Fixed(u.needed_scale, 3) +
         " or more shows " + u.knobs +
         " as at full size, and the budget "
         "affords " +
         Fixed(u.affordable_scale, 3) + " (" + u.copy + ")";
}

}  // namespace disktune::tune::phases
