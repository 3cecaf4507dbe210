// `disktune run` as a plan over the steps a Session runs: the probes, then
// the baseline scenarios (bench_step.h), then the tuner with the facts the
// probes measured, all in the one scratch directory, stopped at the first
// error. src/cli builds the plan from the flags and writes and prints what
// it returns.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "src/app/probe_step.h"
#include "src/app/session.h"
#include "src/bench/runner.h"
#include "src/core/progress.h"
#include "src/core/status.h"
#include "src/model/report.h"
#include "src/tune/tuner.h"

namespace disktune::app {

struct RunPlan {
  ProbePlan probe;
  bool keep = false;  // --keep: the probes' test file stays
  // Absent when the step is skipped (--skip bench, --skip tune).
  std::optional<bench::BenchRequest> bench;
  std::optional<tune::TuneRequest> tune;
  // `run --quick` without --write-budget: the tuner gets what the run's
  // write limit leaves after the probes and the bench (run_budget.h).
  bool quick_write_budget = false;
  // Gets the tuner's result once it is in the report (the caller writes
  // the profile and the engine's forms); its error ends the run.
  std::function<Status(const tune::TuneResult&)> tuned;
};

// Runs the plan's steps in `session` with progress on `progress`, whose
// step lines count the phases after each (the bench's plan, the tune's time
// budget: README, "Reading the progress lines"), filling `report`. Does not
// finish the throttle or the report: the caller does, on every return.
Status RunRunPlan(const RunPlan& plan, const Session& session,
                  ProgressSink* progress, Report* report);

}  // namespace disktune::app
