#include "src/predict/from_probes.h"

#include <string>
#include <utility>

#include "src/predict/attach.h"

namespace disktune::predict {

std::vector<bench::BenchResult> PredictFromProbes(
    const bench::BenchPlan& plan, const DiskFigures& disk,
    const Calibration& calibration, uint64_t memory_bytes) {
  std::vector<bench::BenchResult> out;
  for (const bench::BenchResult& run : calibration.results) {
    if (run.step < 1 || static_cast<size_t>(run.step) > plan.steps.size())
      continue;
    bench::BenchResult r = run;
    r.scenario = std::string(plan.steps[run.step - 1].spec->name);
    r.metrics.ops_per_sec = 0;
    r.page_cache.reset();  // the in-memory run's, which kept its cache
    std::string why_not;
    r.prediction = PredictStep(r, disk, calibration, memory_bytes, &why_not);
    if (r.prediction) out.push_back(std::move(r));
  }
  return out;
}

}  // namespace disktune::predict
