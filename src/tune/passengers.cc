#include "src/tune/passengers.h"

namespace disktune::tune {

std::vector<KnobProof> RecommendKnobs(const std::vector<KnobTrial>& knobs) {
  std::vector<KnobProof> out(knobs.size(), KnobProof::kNone);
  bool any_loo = false;
  for (size_t i = 0; i < knobs.size(); i++) {
    if (knobs[i].by_rule) {
      out[i] = KnobProof::kRule;
    } else if (knobs[i].leave_one_out &&
               knobs[i].leave_one_out->significant()) {
      out[i] = KnobProof::kLeaveOneOut;
      any_loo = true;
    }
  }
  if (any_loo) return out;
  // No knob is needed by the bundle: at most one, the best solo winner.
  std::optional<size_t> best;
  for (size_t i = 0; i < knobs.size(); i++) {
    const std::optional<Gain>& a = knobs[i].alone;
    if (knobs[i].by_rule || !a || !a->significant()) continue;
    if (!best || a->median > knobs[*best].alone->median) best = i;
  }
  if (best) out[*best] = KnobProof::kOwnAb;
  return out;
}

bool NeedsSoloAbs(const std::vector<KnobTrial>& knobs) {
  bool judged = false;
  for (const KnobTrial& k : knobs) {
    if (k.by_rule) continue;
    judged = true;
    if (k.leave_one_out && k.leave_one_out->significant()) return false;
  }
  return judged;
}

bool Undecided(const Gain& leave_one_out) {
  return !leave_one_out.significant() && leave_one_out.ci95_high > 1.0;
}

}  // namespace disktune::tune
