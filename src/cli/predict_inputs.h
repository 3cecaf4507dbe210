// What `bench`, `run` and `predict` share to predict engine figures: the
// disk's probe figures (from --probe-result FILE, or the few points the model
// needs, measured here in seconds) and the in-memory CPU calibration.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/app/session.h"
#include "src/bench/runner.h"
#include "src/cli/command.h"
#include "src/cli/probe_options.h"
#include "src/model/report.h"
#include "src/predict/calibrate.h"
#include "src/predict/model.h"

namespace disktune::cli {

// The points disk_figures.h reads, short: predict::ModelProbeArgs() read by
// probe's own flags, so the model's probe set is stated once. The native
// loop measures them whether or not fio is installed.
Result<ProbeFlags> ModelProbeFlags();

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

// The workload `predict` and `fleet` predict for: one set of flags, one
// meaning (--engine, --num, --reads, --writes, --value-size, --key-size,
// --compression-ratio).
struct PredictWorkload {
  std::string engines = "leveldb";
  std::string scenarios;
  std::optional<int64_t> num, reads, writes;
  std::optional<int64_t> value_size, key_size;
  std::optional<double> compression_ratio;
};

// The defaults with `scenarios`.
PredictWorkload PredictWorkloadOf(const std::string& scenarios);

// Adds the flags above (not --scenario) to `cmd`, bound to `w`.
void AddPredictWorkloadOptions(CLI::App* cmd, PredictWorkload* w);

// The bench request whose in-memory run calibrates `w`: InvalidArgument for
// an engine without a model, a CPU-only yardstick, or what PlanBench
// refuses.
Result<bench::BenchRequest> PredictRequest(const PredictWorkload& w);

}  // namespace disktune::cli
