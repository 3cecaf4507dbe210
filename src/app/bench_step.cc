#include "src/app/bench_step.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "src/app/engine_libraries.h"
#include "src/app/predict_step.h"
#include "src/bench/bench_clock.h"
#include "src/core/signals.h"
#include "src/predict/disk_figures.h"

namespace disktune::app {
namespace {

// Each engine figure's prediction from this run's own probe points.
void PredictFromThisRun(const bench::BenchRequest& req, Report* report) {
  auto disk = predict::DiskFiguresFromRun(report->probes, report->environment);
  if (!disk.ok()) {
    report->warnings.push_back("no predictions: " + disk.status().message());
    return;
  }
  auto plan = bench::PlanBench(req);
  if (!plan.ok()) return;
  PredictBenches(req, plan->engines, *disk, nullptr, report);
}

}  // namespace

uint64_t PlannedBenchNs(const bench::BenchRequest& req) {
  auto plan = bench::PlanBench(req);
  if (!plan.ok()) return 0;
  return bench::PlanBenchTime(*plan, std::max(1, req.repeat)).RemainingNs(0);
}

Status RunBenchStep(bench::BenchRequest req, const ScratchDir& scratch,
                    ProgressSink* progress, Report* report) {
  req.db_root = scratch.HandlePath("bench");
  req.db_root_shown = scratch.Join("bench");
  req.results = [](std::string_view) {};
  req.progress = [progress](std::string_view line) {
    progress->Info(std::string(line));
  };
  req.step_line = [progress](const std::string& label, int index, int total,
                             uint64_t remaining_ns) {
    progress->Step(label, index, total, remaining_ns);
  };
  Result<std::vector<bench::BenchResult>> results = bench::RunBench(req);
  // The tuner runs in the same scratch directory next: free its space.
  scratch.RemoveTree("bench");
  if (!results.ok()) return results.status();
  report->benches = std::move(*results);
  RecordEngineLibraries(req.engines, report);
  for (const auto& r : report->benches) {
    if (r.status == bench::RunStatus::kFailed ||
        r.status == bench::RunStatus::kPartial) {
      report->warnings.push_back("bench " + r.engine + " " + r.scenario + ": " +
                                 r.error);
    }
  }
  if (InterruptRequested()) return Status::Aborted("interrupted");
  PredictFromThisRun(req, report);
  return Status::OK();
}

}  // namespace disktune::app
