// The tuner's phases (tuner.h describes each), in the order RunTuner
// (tuner.cc) runs them over one TuneState (tune_state.h).
#pragma once

#include "src/core/status.h"
#include "src/tune/tune_state.h"

namespace disktune::tune::phases {

// The workload at full size, the device facts and the rules' candidates.
Status Setup(TuneState& st);

// The baseline at the smallest scale worth ranking on, then at 4x the
// scale while each run is cheap, gives the cost of a trial by scale.
Status Calibrate(TuneState& st);

// Successive halving over the candidates, its last rung no larger than the
// A/B's scale, in the time the plan leaves after verification.
Status Search(TuneState& st);

// Each knob the winner changed is reverted on its own, in interleaved
// rounds at the knob check's scale; a knob whose revert does not
// measurably hurt is not recommended. Sets the candidate for the A/B.
Status CheckKnobs(TuneState& st);

// The candidate against the baseline, interleaved pairs at the largest
// scale the time left affords.
Status Verify(TuneState& st);

// The outcome per knob, and the recommendation's memory split.
void Judge(TuneState& st);

// The verdict, and the lines the terminal shows.
void Explain(TuneState& st);

}  // namespace disktune::tune::phases
