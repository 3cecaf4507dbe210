// A knob's outcome in a tune, and the evidence a recommended knob passed:
// one enum each, with the one table of the names they are written as in the
// tune object (the tuner sets them, the JSON writes and reads them, the
// renderers word them).
#pragma once

#include <optional>
#include <string_view>

#include "src/core/enum_names.h"

namespace disktune::model {

// What the tune did with one knob.
enum class KnobOutcome {
  kDefault,  // the engine's default kept (not searched, or the search kept it)
  kWon,      // changed, and a measurement shows the gain (passengers.h)
  kNoGain,   // changed by the search, but nothing measured shows a gain
  kRule,     // changed on its rule; the final A/B judged it
  kBudget,   // the block cache: what the memory budget leaves
  kSet,      // differs from the default without a judgement of its own
};

inline constexpr EnumName<KnobOutcome> kKnobOutcomeNames[] = {
    {KnobOutcome::kDefault, "default"}, {KnobOutcome::kWon, "won"},
    {KnobOutcome::kNoGain, "no_gain"},  {KnobOutcome::kRule, "rule"},
    {KnobOutcome::kBudget, "budget"},   {KnobOutcome::kSet, "set"},
};

const char* KnobOutcomeName(KnobOutcome o);
// The outcome written as `name`; nullopt for a name no version wrote.
// "won_jointly", which tuners before the leave-one-out judge wrote for a
// knob that won inside the bundle, reads as kWon.
std::optional<KnobOutcome> ParseKnobOutcome(std::string_view name);

// Why a changed knob is (or was to be) recommended (passengers.h).
enum class KnobProof {
  kNone,         // not recommended
  kLeaveOneOut,  // the winner without it was measurably slower
  kOwnAb,        // it alone beat the defaults
  kRule,         // kept on its rule, judged by the final A/B
};

inline constexpr EnumName<KnobProof> kKnobProofNames[] = {
    {KnobProof::kNone, ""},
    {KnobProof::kLeaveOneOut, "leave_one_out"},
    {KnobProof::kOwnAb, "own_ab"},
    {KnobProof::kRule, "rule"},
};

// "leave_one_out", "own_ab", "rule", "" (the evidence field of a knob).
std::string_view KnobProofName(KnobProof p);
std::optional<KnobProof> ParseKnobProof(std::string_view name);

}  // namespace disktune::model
