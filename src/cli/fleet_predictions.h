// The fleet's predictions: `disktune predict`'s model (the same code,
// src/predict/from_probes.h) over each host's probe figures and memory. The
// engines' CPU cost per op is calibrated in memory once, on the machine
// `fleet` runs on, at the first host that has the model's probe figures: a
// fleet of probe results needs no engine run on any host.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "reports/fleet.h"
#include "src/bench/runner.h"
#include "src/model/report.h"
#include "src/predict/calibrate.h"

namespace disktune::cli {

// The figures the fleet predicts per engine: what a capacity planner asks of
// a disk first (durable commits, bulk writes, reads that miss the cache).
inline constexpr const char* kFleetPredictScenarios =
    "fillsync,fillrandom,readrandom-cold";

class FleetPredictor {
 public:
  // REQUIRES: `request` came from PredictRequest and `plan` is its
  // PlanBench. `progress` (may be null) gets one line when calibrating.
  FleetPredictor(bench::BenchRequest request, bench::BenchPlan plan,
                 std::ostream* progress);

  // One entry per engine of the plan, in its order: the host's predicted
  // figures, or why there are none (the probe points its result lacks, or a
  // calibration that failed).
  std::vector<FleetPrediction> For(const Report& host);

  FleetPredictionBasis Basis() const;

 private:
  // Runs the calibration the first time it is needed.
  const predict::Calibration* Calibration();

  bench::BenchRequest request_;
  bench::BenchPlan plan_;
  std::ostream* progress_;
  bool tried_ = false;
  std::optional<predict::Calibration> calibration_;
  std::string error_;
};

}  // namespace disktune::cli
