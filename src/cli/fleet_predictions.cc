#include "src/cli/fleet_predictions.h"

#include <algorithm>
#include <ostream>
#include <utility>

#include "src/core/signals.h"
#include "src/predict/disk_figures.h"
#include "src/predict/from_probes.h"

namespace disktune::cli {

FleetPredictor::FleetPredictor(bench::BenchRequest request,
                               bench::BenchPlan plan, std::ostream* progress)
    : request_(std::move(request)),
      plan_(std::move(plan)),
      progress_(progress) {}

const predict::Calibration* FleetPredictor::Calibration() {
  if (!tried_) {
    tried_ = true;
    if (progress_) {
      *progress_ << "calibrating the engines' CPU cost in memory (/dev/shm), "
                    "once for every host\n";
    }
    auto cal = predict::Calibrate(request_);
    if (!cal.ok()) {
      error_ = cal.status().message();
    } else if (InterruptRequested()) {
      error_ = "interrupted";
    } else {
      calibration_ = std::move(*cal);
    }
  }
  return calibration_ ? &*calibration_ : nullptr;
}

std::vector<FleetPrediction> FleetPredictor::For(const Report& host) {
  std::vector<FleetPrediction> out;
  for (const std::string& e : plan_.engines) {
    out.emplace_back();
    out.back().engine = e;
  }
  std::vector<std::string> missing;
  auto disk =
      predict::DiskFiguresFromRun(host.probes, host.environment, &missing);
  const predict::Calibration* cal = disk.ok() ? Calibration() : nullptr;
  if (!disk.ok() || !cal) {
    for (FleetPrediction& p : out) {
      p.missing_probe_figures = missing;
      p.not_predicted = !disk.ok() ? disk.status().message()
                                   : "the CPU calibration failed (above)";
    }
    return out;
  }
  std::vector<bench::BenchResult> rs = predict::PredictFromProbes(
      plan_, *disk, *cal, host.environment.system.memory_available_bytes);
  for (FleetPrediction& p : out) {
    for (const bench::BenchResult& r : rs) {
      if (r.engine != p.engine) continue;
      FleetPredicted f;
      f.scenario = r.scenario;
      f.ops_per_sec = r.prediction->ops_per_sec;
      f.bound = r.prediction->bound;
      f.ceilings_ops_per_sec = r.prediction->ceilings_ops_per_sec;
      p.figures.push_back(std::move(f));
    }
    if (p.figures.empty()) {
      p.not_predicted =
          "the in-memory calibration of " + p.engine + " did not run";
    }
  }
  return out;
}

FleetPredictionBasis FleetPredictor::Basis() const {
  FleetPredictionBasis b;
  b.engines = plan_.engines;
  for (const bench::PlannedStep& s : plan_.steps) {
    std::string name(s.spec->name);
    if (std::find(b.scenarios.begin(), b.scenarios.end(), name) ==
        b.scenarios.end()) {
      b.scenarios.push_back(name);
    }
  }
  if (!plan_.steps.empty()) b.num = plan_.steps.front().params.num;
  if (calibration_) b.cpu_calibrated_on = calibration_->cpu_model;
  b.calibration_error = error_;
  b.probe_command = predict::ModelProbeCommand();
  return b;
}

}  // namespace disktune::cli
