// Each engine figure's prediction (src/predict) for the commands that bench:
// the same steps calibrated in memory for the engines' CPU cost, then the
// model over the disk's probe figures.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "src/bench/runner.h"
#include "src/model/report.h"
#include "src/predict/model.h"

namespace disktune::app {

// Calibrates `request` in memory and attaches a prediction to every result
// in report->benches that has a model; on failure adds one warning and
// predicts nothing. `progress` (may be null) gets one line when it starts.
void PredictResults(const bench::BenchRequest& request,
                    const predict::DiskFigures& disk, std::ostream* progress,
                    Report* report);

// PredictResults for the `engines` of `request` that have a model, with the
// request's step hooks (throttle accounting, step lines) left out: the
// calibration's steps are not the plan's. Nothing when none has a model.
void PredictBenches(const bench::BenchRequest& request,
                    const std::vector<std::string>& engines,
                    const predict::DiskFigures& disk, std::ostream* progress,
                    Report* report);

}  // namespace disktune::app
