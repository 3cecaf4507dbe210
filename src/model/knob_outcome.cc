#include "src/model/knob_outcome.h"

namespace disktune::model {

const char* KnobOutcomeName(KnobOutcome o) {
  return NameOf(kKnobOutcomeNames, o, "default");
}

std::optional<KnobOutcome> ParseKnobOutcome(std::string_view name) {
  if (name == "won_jointly") return KnobOutcome::kWon;
  return ParseName(kKnobOutcomeNames, name);
}

std::string_view KnobProofName(KnobProof p) {
  return NameOf(kKnobProofNames, p, "");
}

std::optional<KnobProof> ParseKnobProof(std::string_view name) {
  return ParseName(kKnobProofNames, name);
}

}  // namespace disktune::model
