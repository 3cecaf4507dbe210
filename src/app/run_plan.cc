#include "src/app/run_plan.h"

#include "src/app/bench_step.h"
#include "src/tune/run_budget.h"

namespace disktune::app {
namespace {

// Tunes with the facts this run's probes measured and puts the result in
// the report. The explanation is the report's recommendation table.
Status RunTuneStep(const RunPlan& plan, const Session& session,
                   ProgressSink* progress, Report* report) {
  tune::TuneRequest req = *plan.tune;
  if (plan.quick_write_budget) {
    req.write_budget_bytes = tune::QuickTuneWriteBudget(
        session.writes_since_open().DiskBytesSoFar(),
        session.throttled() ? tune::kRunQuickThrottledWriteLimitBytes
                            : tune::kRunQuickWriteLimitBytes);
  }
  req.facts = tune::FactsFromProbes(report->probes, report->environment,
                                    "this run's probes");
  req.environment = session.environment();
  Result<tune::TuneResult> result =
      tune::RunTuner(req, session.scratch(), progress);
  if (!result.ok()) return result.status();
  report->tune = tune::TuneResultToSummary(*result);
  return plan.tuned ? plan.tuned(*result) : Status::OK();
}

}  // namespace

Status RunRunPlan(const RunPlan& plan, const Session& session,
                  ProgressSink* progress, Report* report) {
  const uint64_t tune_ns = plan.tune ? plan.tune->time_budget_ns : 0;
  const uint64_t bench_ns = plan.bench ? PlannedBenchNs(*plan.bench) : 0;
  LaterPhasesProgress probe_progress(progress, bench_ns + tune_ns);
  LaterPhasesProgress bench_progress(progress, tune_ns);
  DT_RETURN_IF_ERROR(
      RunProbeStep(plan.probe, session, &probe_progress, plan.keep, report));
  if (plan.bench) {
    DT_RETURN_IF_ERROR(
        RunBenchStep(*plan.bench, session.scratch(), &bench_progress, report));
  }
  if (plan.tune)
    DT_RETURN_IF_ERROR(RunTuneStep(plan, session, progress, report));
  return Status::OK();
}

}  // namespace disktune::app
