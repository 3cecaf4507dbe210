// What `bench`, `run` and `predict` share to predict engine figures: the
// disk's probe figures (from --probe-result FILE, or the few points the model
// needs, measured here in seconds) and the in-memory CPU calibration.
#pragma once

#include <string>
#include <vector>

#include "reports/report.h"
#include "src/app/session.h"
#include "src/bench/runner.h"
#include "src/cli/command.h"
#include "src/predict/calibrate.h"
#include "src/predict/model.h"

namespace disktune::cli {

// The probe points the model reads: from `probe_result_path` when given (a
// disktune result file with probes), else measured in the session's
// scratch directory, with its environment. The points
// measured here are appended to `report->probes`. InvalidArgument for a file
// that is unreadable or lacks the points (nothing else is run then).
Result<predict::DiskFigures> ModelDiskFigures(
    const std::string& probe_result_path, const CommonOptions& common,
    CommandContext& ctx, const app::Session& session, Report* report);

// Reads only the file (predict, fleet): the figures and the report.
Result<predict::DiskFigures> DiskFiguresFromFile(const std::string& path,
                                                 Report* report);

}  // namespace disktune::cli
