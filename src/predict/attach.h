// Predictions for bench results: the model (model.h) fed from a probe
// result's figures, the in-memory calibration and the step's own parameters,
// then compared with what the step measured.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/core/sysinfo.h"
#include "src/model/bench_result.h"
#include "src/predict/calibrate.h"
#include "src/predict/model.h"

namespace disktune::predict {

// A miss beyond this share (|measured / predicted - 1|) gets a cause.
inline constexpr double kMissShare = 0.25;

// The model's view of a step; nullopt when the engine or scenario has no
// model. `memory_bytes`: what the page cache may hold (MemAvailable).
std::optional<Workload> WorkloadFor(const bench::BenchResult& r,
                                    uint64_t memory_bytes);

// The prediction with every input named; no measured_over_predicted.
// The write amplification the model takes for an unsynced fill: the bytes
// the calibration's in-memory run of the step passed to write calls per
// user byte (WAL included); nullopt for other scenarios or without them.
std::optional<double> CalibratedWriteAmplification(const Workload& w,
                                                   const CalibrationPoint& cal);

bench::Prediction MakePrediction(const Workload& w, const EngineFacts& f,
                                 const DiskFigures& disk,
                                 const CalibrationPoint& calibrated,
                                 const std::string& calibrated_cpu);

// The disk's figures as every prediction JSON names them (with the probe
// point each came from).
nlohmann::json DiskFiguresToJson(const DiskFigures& disk);

// The prediction for step `r` (its engine, scenario, step and settings), or
// nullopt with `why_not` saying why when the engine and scenario have a
// model ("" when they have none).
std::optional<bench::Prediction> PredictStep(const bench::BenchResult& r,
                                             const DiskFigures& disk,
                                             const Calibration& calibration,
                                             uint64_t memory_bytes,
                                             std::string* why_not);

// Fills `prediction` of every ok result whose engine and scenario have a
// model and a calibration point, its ratio, and for a miss its cause; adds a
// note to the others saying why there is none. `system`: the machine the
// figures were measured on.
void AttachPredictions(const DiskFigures& disk, const Calibration& calibration,
                       const SystemInfo& system,
                       std::vector<bench::BenchResult>* results);

// The likeliest cause of a miss the result's own evidence shows, or "".
std::string MissCause(const bench::BenchResult& r, const bench::Prediction& p,
                      const std::string& calibrated_cpu,
                      const SystemInfo& system);

}  // namespace disktune::predict
