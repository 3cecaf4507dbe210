#include "src/tune/trials.h"

#include <algorithm>
#include <filesystem>

#include "src/bench/runner.h"
#include "src/core/clock.h"
#include "src/core/signals.h"

namespace disktune::tune {

// The tune plans its phases within the time budget and stops when it is
// spent, so the budget's rest is the time left (at least 1 ns: a zero would
// read as "not known").
uint64_t Trials::LeftNs() const {
  return static_cast<uint64_t>(std::max(1.0, budget_.RemainingNs()));
}

bench::BenchRequest Trials::Request(const TuneConfig& full,
                                    double scale) const {
  const TuneConfig t = Scaled(full, scale);
  bench::BenchRequest br;
  br.engines = {req_.engine};
  br.scenarios = w_.scenarios;
  br.user = WorkloadOverrides(w_, scale);
  br.user.knobs = ToEngineOptions(t);
  br.user.sync = t.sync;
  br.user.entries_per_batch = static_cast<int64_t>(t.entries_per_batch);
  br.db_root = root_;
  br.db_root_shown = root_shown_;
  br.available = req_.available;
  br.factory = req_.factory;
  return br;
}

Result<TrialScore> Trials::Run(const TuneConfig& full, double scale,
                               const std::string& label) {
  if (InterruptRequested()) return Status::Aborted("interrupted");
  TuneConfig t = Scaled(full, scale);
  if (req_.env.trial) {
    if (progress_ != nullptr) progress_->Step(label, trials_, 0, LeftNs());
    trials_++;
    // The test's trial reports its time; what it wrote is on the counter.
    uint64_t b0 = budget_.ReadBytes();
    auto s = req_.env.trial(t, scale);
    uint64_t b1 = budget_.ReadBytes();
    if (!s.ok()) return s;
    longest_cleanup_ns_ = std::max(longest_cleanup_ns_, s->cleanup_ns);
    if (s->cost_ns == 0) {
      s->cost_ns = std::max<uint64_t>(
          1, static_cast<uint64_t>(budget_.CostNs(s->elapsed_ns + s->cleanup_ns,
                                                  b1 > b0 ? b1 - b0 : 0)));
    }
    return s;
  }
  bench::BenchRequest br = Request(full, scale);
  if (progress_ != nullptr) progress_->Step(label, trials_, 0, LeftNs());
  uint64_t t0 = NowNanos();
  uint64_t b0 = budget_.ReadBytes();
  auto results = bench::RunBench(br);
  const uint64_t t1 = NowNanos();
  const uint64_t elapsed = t1 - t0;
  trials_++;
  scratch_.RemoveTree("tune");  // cancels unwritten pages first
  const uint64_t cleanup = NowNanos() - t1;
  longest_cleanup_ns_ = std::max(longest_cleanup_ns_, cleanup);
  uint64_t b1 = budget_.ReadBytes();
  uint64_t cost = static_cast<uint64_t>(
      budget_.CostNs(elapsed + cleanup, b1 > b0 ? b1 - b0 : 0));
  if (InterruptRequested()) return Status::Aborted("interrupted");
  if (!results.ok()) return results.status();
  double ops = 0, ns = 0;
  for (const bench::BenchResult& r : *results) {
    if (r.status != bench::RunStatus::kOk) {
      return Status::IOError(r.scenario + ": " + r.error);
    }
    bool scored =
        w_.measured.empty() || std::find(w_.measured.begin(), w_.measured.end(),
                                         r.scenario) != w_.measured.end();
    if (!scored) continue;
    ops += static_cast<double>(r.metrics.ops);
    ns += static_cast<double>(r.metrics.elapsed_ns);
  }
  if (ops <= 0 || ns <= 0) {
    return Status::IOError("no scored operations ran");
  }
  TrialScore s;
  s.ops_per_sec = ops / (ns / 1e9);
  s.elapsed_ns = elapsed;
  s.cleanup_ns = cleanup;
  s.cost_ns = std::max<uint64_t>(1, cost);
  return s;
}

}  // namespace disktune::tune
