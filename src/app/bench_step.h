// The bench step of a plan (`run`): the scenarios on the engine in the
// session's scratch directory, each figure with its prediction from the
// probes the run measured before it.
#pragma once

#include <cstdint>

#include "src/bench/runner.h"
#include "src/core/progress.h"
#include "src/core/scratch_dir.h"
#include "src/core/status.h"
#include "src/model/report.h"

namespace disktune::app {

// What the bench's plan expects to take before any of it ran (its guessed
// rates: bench_clock.h); 0 when it cannot be planned.
uint64_t PlannedBenchNs(const bench::BenchRequest& req);

// Runs `req` under `scratch` (its "bench" tree, removed afterwards so the
// next step has the space), with step lines on `progress`; puts the results
// and the engine libraries into `report`, a warning for each failed or
// partial scenario, and each figure's prediction from report->probes (a
// warning instead when they lack the model's points). The results go only
// to the report: the caller renders them. Aborted when interrupted.
Status RunBenchStep(bench::BenchRequest req, const ScratchDir& scratch,
                    ProgressSink* progress, Report* report);

}  // namespace disktune::app
