// No passengers: which of the knobs a search winner changed the tuner
// recommends, from what was measured at the end of the tune.
//
// A changed knob is recommended only on evidence of its own:
//   leave-one-out: the winner without it was measurably slower (the 95%
//     interval of the winner's gain over it lies above 1), or
//   own A/B: the defaults with only it changed were measurably faster than
//     the defaults. Solo A/Bs run only when no knob survived leave-one-out
//     (knobs that substitute for each other, each covering the other's
//     gain); then the one knob with the largest solo gain is kept, since
//     nothing measured shows that a second adds to it.
//   rule: a knob the trials cannot judge (too shallow or too few tables to
//     show its effect) is kept on its rule, and the final A/B judges it.
// A knob whose solo A/B lost is never recommended, whatever the bundle it
// came in did (benchmarks/README.md, Tuner design records: A knob that lost
// alone).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "src/model/knob_outcome.h"
#include "src/tune/verify.h"

namespace disktune::tune {

// The enum and its names are the model's (src/model/knob_outcome.h): the
// JSON writes them as the knob's "evidence".
using model::KnobProof;
using model::KnobProofName;

// What is known of one changed knob.
struct KnobTrial {
  bool by_rule = false;
  std::optional<Gain> leave_one_out;  // the winner's gain over it without
  std::optional<Gain> alone;          // the knob alone over the defaults
};

// Per knob (same order): why it is recommended, or kNone.
std::vector<KnobProof> RecommendKnobs(const std::vector<KnobTrial>& knobs);

// True when no knob is kept by leave-one-out or rule yet some were judged:
// solo A/Bs are then the only way a knob can still be recommended.
bool NeedsSoloAbs(const std::vector<KnobTrial>& knobs);

// True when a knob's leave-one-out gain cannot yet say whether the bundle
// needs it: not significant, and its interval reaches above 1 (whichever
// side of 1 the median fell on, which is the noise's). Such a knob may get
// more rounds; one whose interval lies below 1 is not needed.
bool Undecided(const Gain& leave_one_out);

}  // namespace disktune::tune
