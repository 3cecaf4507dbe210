// Predictions from a probe result alone (`disktune predict`, `disktune
// fleet`): each step the in-memory calibration ran, under the scenario name
// the plan asked for (a -cold step runs warm in memory), predicted for one
// disk. Nothing runs on the disk.
#pragma once

#include <cstdint>
#include <vector>

#include "src/bench/runner.h"
#include "src/model/bench_result.h"
#include "src/predict/calibrate.h"
#include "src/predict/model.h"

namespace disktune::predict {

// `plan`: PlanBench of the request `calibration` ran. `memory_bytes`: what
// the page cache of the disk's host may hold (its MemAvailable). One result
// per calibrated step with a model, in the calibration's order, its
// `prediction` set and metrics.ops_per_sec 0 (nothing measured on the disk).
std::vector<bench::BenchResult> PredictFromProbes(
    const bench::BenchPlan& plan, const DiskFigures& disk,
    const Calibration& calibration, uint64_t memory_bytes);

}  // namespace disktune::predict
