// Calibrate: the baseline at growing scales gives a trial's cost.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "src/core/units.h"
#include "src/tune/phases.h"
#include "src/tune/tune_context.h"

namespace disktune::tune::phases {
namespace {

// The first calibration run's cost split into fixed (open, load) and
// per-scale parts until a second run at another scale separates them.
constexpr double kCalibrationFixedShare = 0.2;
// Each further calibration run (at 4x the last one's scale) only while it
// costs at most a tenth of the time left: past that it would eat the search.
constexpr double kCalibrationRunShare = 10;

}  // namespace

Result<CostModel> Calibrate(const TuneContext& ctx) {
  const SetupOutcome& setup = ctx.setup;
  const Workload& w = setup.workload;
  const double s_rank = setup.s_rank;
  ctx.run.progress->Info("tune: " + std::to_string(setup.candidates.size()) +
                         " candidates after the rules; calibrating trial cost");
  auto c1 = ctx.trials.Run(setup.baseline, s_rank, "calibrate");
  if (!c1.ok()) return c1.status().WithContext("baseline trial");
  const double first = static_cast<double>(c1->Cost());
  CostModel cost(kCalibrationFixedShare * first,
                 (1 - kCalibrationFixedShare) * first / s_rank);
  cost.Observe(s_rank, c1->Cost());
  // Up the scales while a run is cheap: beyond the largest scale it has
  // seen the cost model grows as scale^1.5 at least, so from copies
  // hundreds of times smaller than the full size it overestimates a
  // full-size trial many times over, and a plan that believes full-size
  // trials do not fit ranks on copies and ends early. Measured: on 20M keys
  // at 64 MiB, calibrated at scales 0.001 and 0.004 only, it put a
  // full-size trial at 2,810 s; db_bench's defaults ran the full size in
  // 343 s.
  for (double last = s_rank;;) {
    double next = EffectiveScale(w, std::min(1.0, 4 * last));
    if (next <= last ||
        ctx.Remaining() <= kCalibrationRunShare * cost.Estimate(next)) {
      break;
    }
    auto c = ctx.trials.Run(setup.baseline, next, "calibrate");
    if (!c.ok()) return c.status().WithContext("baseline trial");
    cost.Observe(next, c->Cost());
    last = next;
  }
  ctx.run.progress->Info("tune: a trial costs ~" +
                         FormatDuration(cost.fixed_ns()) + " + " +
                         FormatDuration(cost.per_scale_ns()) +
                         " x scale (scale 1 = the full workload)");
  return cost;
}

}  // namespace disktune::tune::phases
