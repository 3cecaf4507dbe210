#include "src/app/predict_step.h"

#include <ostream>

#include "src/predict/attach.h"
#include "src/predict/calibrate.h"
#include "src/predict/engine_facts.h"

namespace disktune::app {

void PredictResults(const bench::BenchRequest& request,
                    const predict::DiskFigures& disk, std::ostream* progress,
                    Report* report) {
  bool any = false;
  for (const bench::BenchResult& r : report->benches) {
    any |= predict::HasModel(r.engine) && predict::KindOf(r.scenario);
  }
  if (!any) return;
  if (progress) {
    *progress << "calibrating the engines' CPU cost in memory (/dev/shm)\n"
              << std::flush;
  }
  auto calibration = predict::Calibrate(request);
  if (!calibration.ok()) {
    report->warnings.push_back(
        "no predictions: the in-memory calibration "
        "failed: " +
        calibration.status().message());
    return;
  }
  predict::AttachPredictions(disk, *calibration, report->environment.system,
                             &report->benches);
}

void PredictBenches(const bench::BenchRequest& request,
                    const std::vector<std::string>& engines,
                    const predict::DiskFigures& disk, std::ostream* progress,
                    Report* report) {
  bench::BenchRequest calibrate = request;
  calibrate.engines.clear();
  calibrate.step_started = nullptr;
  calibrate.step_finished = nullptr;
  calibrate.step_line = nullptr;
  for (const std::string& e : engines) {
    if (predict::HasModel(e)) calibrate.engines.push_back(e);
  }
  if (calibrate.engines.empty()) return;
  PredictResults(calibrate, disk, progress, report);
}

}  // namespace disktune::app
