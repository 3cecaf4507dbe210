#include "src/bench/bench_clock.h"

#include <algorithm>

namespace disktune::bench {
namespace {

// Guesses, replaced by what the run measures (plan_clock.h): a synced write
// waits for a flush (~1 ms on a SATA SSD), an engine call otherwise takes
// microseconds, and opening or reopening the database a few milliseconds.
constexpr double kSyncedOpNs = 1e6;
constexpr double kOpNs = 5e3;
constexpr uint64_t kStepSetupNs = 20'000'000;

}  // namespace

uint64_t PlannedOps(const PlannedStep& step) {
  const BenchParams& p = step.params;
  if (step.spec->pulsed) return p.pulse_reads * static_cast<uint64_t>(p.pulses);
  bool reads = step.spec->needs_data && step.spec->db == DbUse::kExisting;
  return reads ? p.Reads() : p.Writes();
}

PlanClock PlanBenchTime(const BenchPlan& plan, int repeat) {
  PlanClock clock;
  for (const std::string& engine : plan.engines) {
    for (int r = 0; r < std::max(1, repeat); r++) {
      for (const PlannedStep& step : plan.steps) {
        disktune::PlannedStep s;
        // Each engine's scenario at its own rate; a synced variant apart.
        s.kind = engine + "/" + std::string(step.spec->name) +
                 (step.params.sync ? "/sync" : "");
        clock.SetPrior(s.kind, step.params.sync ? kSyncedOpNs : kOpNs, true);
        s.fixed_ns = kStepSetupNs;
        s.work = static_cast<double>(PlannedOps(step));
        clock.Add(s);
      }
    }
  }
  return clock;
}

std::string StepLabel(const std::string& engine, const PlannedStep& step) {
  return engine + " " + std::string(step.spec->name);
}

}  // namespace disktune::bench
