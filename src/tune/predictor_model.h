// The predictor (src/predict/model.h) as the tuner's ranking model (rank.h):
// each candidate's scored steps predicted at full size from the device facts
// the rules read, the baseline's CPU cost per op measured in memory on this
// CPU, and the LSM shape the candidate sets.
//
// What it separates: the knobs the model has terms for, the write buffer, the
// table file size, the level-1 size and the block size (the LSM's depth, its
// write amplification and LevelDB's table syncs). What it cannot: the block
// cache, bloom filters and compression change only the CPU cost per op,
// which is measured for the baseline alone, so candidates differing only
// there are predicted alike and all kept for the trials.
//
// Write amplification: the baseline's, measured in its in-memory run as the
// bytes passed to write calls per user byte; a candidate's is that times the
// LSM-shape formula's ratio of candidate to baseline (the formula's absolute
// level overstates what the engines write: benchmarks/README.md, "Write
// amplification measured in memory").
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/bench/runner.h"
#include "src/core/status.h"
#include "src/predict/model.h"
#include "src/tune/knobs.h"
#include "src/tune/rank.h"
#include "src/tune/rules.h"

namespace disktune::tune {

// One scored step of the baseline, run in memory.
struct StepCost {
  std::string scenario;
  double cpu_ns = 0;  // wall ns per op
  // Bytes passed to write calls per op (WAL, tables, manifest).
  std::optional<double> write_bytes_per_op;
};

struct PredictorCalibration {
  TuneConfig baseline;
  std::vector<StepCost> steps;
  double scale = 1;  // of the workload the calibration ran
};

// The model's error as a share of its prediction: the accuracy target the
// predictor is judged against (benchmarks/README.md, "Prediction accuracy").
inline constexpr double kPredictorErrorShare = 0.35;

std::unique_ptr<ThroughputModel> PredictorModel(PredictorCalibration cal);

// The disk figures the predictor reads: those the facts carry from their
// probe run (model_figures, what bench's predictions read from the same
// run), else, only when they carry none (facts built by hand, or a probe
// run without the model's points), figures built from the facts
// themselves; nullopt when those lack what every scenario of the tuner's
// reads (write bandwidth, read latency).
std::optional<predict::DiskFigures> PredictorFigures(const DeviceFacts& f);

// Runs `request` (the baseline's workload as a trial runs it) with its
// database in memory, and keeps the cost of each of `scored`'s steps.
Result<PredictorCalibration> CalibratePredictor(
    const bench::BenchRequest& request, const TuneConfig& baseline,
    const std::vector<std::string>& scored, double scale);

}  // namespace disktune::tune
