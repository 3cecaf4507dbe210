// The time a run has left, from its plan: each planned step carries what it
// is expected to take, and the estimate learns from the steps that ran.
//
// A step's time is a fixed part (warm-up, a measurement window, a setup that
// does not depend on the device) plus work (operations, bytes) at a rate,
// bounded below and above (a probe point measures at least --duration and
// stops at its cap whatever the count). Steps of one `kind` share a rate: its
// prior comes from the plan (a throttle's IOPS limits, a short calibration),
// and once a step of that kind has run, its measured rate (time over the work
// it actually did) replaces the prior for the steps still to run. The fixed
// parts are scaled by measured/expected over the steps without work that ran
// (setup overheads the plan does not know). benchmarks/README.md, "Progress
// estimates", has how close this came on measured runs.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace disktune {

struct PlannedStep {
  std::string kind;       // steps sharing a rate ("sync", "fill", "fillseq")
  uint64_t fixed_ns = 0;  // time that does not depend on the rate
  double work = 0;        // units of work (operations, bytes) planned
  uint64_t min_ns = 0;    // the work part lasts at least this
  uint64_t max_ns = std::numeric_limits<uint64_t>::max();  // and at most this
};

class PlanClock {
 public:
  // The rate (nanoseconds per unit of work) of `kind` before any step of it
  // ran. A kind without a prior counts its work as taking min_ns. A `guess`
  // (a bench step's rate before anything ran here) is scaled by
  // measured/expected over the completed steps whose rate was a guess too,
  // so one step teaches how fast this machine is for the kinds not yet run.
  void SetPrior(const std::string& kind, double ns_per_unit,
                bool guess = false);
  // Appends a step; returns its index.
  size_t Add(PlannedStep step);
  size_t size() const { return steps_.size(); }
  const PlannedStep& step(size_t i) const { return steps_[i]; }
  // Step `i` finished in `ns` after doing `work_done` units.
  void Done(size_t i, uint64_t ns, double work_done);
  // What step `i` is expected to take, with what was learnt so far.
  uint64_t ExpectedNs(size_t i) const;
  // The time left at the start of step `i` (it included).
  uint64_t RemainingNs(size_t i) const;
  // The time left while step `i` runs, `ns_so_far` into it with
  // `work_so_far` units done: its own rest at the pace it has shown (within
  // its bounds), then the steps after it.
  uint64_t RemainingWithin(size_t i, uint64_t ns_so_far,
                           double work_so_far) const;

 private:
  struct Learnt {
    double ns = 0, work = 0;  // over the completed steps of a kind
  };
  double RateOf(const std::string& kind) const;
  double FixedScale() const;
  double GuessScale() const;
  std::vector<PlannedStep> steps_;
  std::map<std::string, double> prior_;
  std::map<std::string, bool> guess_;
  double guess_expected_ = 0, guess_measured_ = 0;
  std::map<std::string, Learnt> learnt_;
  double fixed_expected_ = 0, fixed_measured_ = 0;  // steps without work
};

}  // namespace disktune
