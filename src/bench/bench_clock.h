// The bench run's plan for the progress estimate (src/core/plan_clock.h):
// one step per engine x repetition x scenario step, each its operations at
// a per-operation rate. Before anything ran the rates are guesses (a synced
// write costs a device flush, anything else microseconds); each scenario
// learns its own rate once it ran, and the guesses of those not yet run
// scale by how far the completed steps were from theirs.
#pragma once

#include "src/bench/runner.h"
#include "src/core/plan_clock.h"

namespace disktune::bench {

// The operations a planned step is asked to do (what its result's
// params.ops will say).
uint64_t PlannedOps(const PlannedStep& step);

PlanClock PlanBenchTime(const BenchPlan& plan, int repeat);

// The step's name on a progress line: "leveldb fillseq".
std::string StepLabel(const std::string& engine, const PlannedStep& step);

}  // namespace disktune::bench
