// The measured search: successive halving over the candidates the rules
// left. Every candidate runs a short trial on a small scaled copy of the
// workload; the best third goes on to a trial three times larger, and so on,
// until a few remain at the largest scale the time budget allows. Cheap
// trials weed out the clearly bad; the expensive ones are spent on the few
// that might win.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "src/core/status.h"
#include "src/tune/knobs.h"

namespace disktune::tune {

// What one trial measured: the scored steps' throughput.
struct TrialScore {
  double ops_per_sec = 0;
  uint64_t elapsed_ns = 0;  // wall time of the whole trial (setup included)
};

// Runs `config` (full-size values) on the workload scaled by `scale`.
// Aborted stops the search (interrupt); any other error marks the candidate
// failed.
using TrialFn =
    std::function<Result<TrialScore>(const TuneConfig& config, double scale)>;

// Trial time as a function of scale: fixed + per_scale x scale, fitted by
// least squares to every trial run so far (the first guess until two
// different scales have been seen). Beyond the largest scale observed the
// estimate grows as scale^1.5, not linearly: an LSM's work per key grows
// with its size (more levels, a cache that holds less of the data). Measured
// (LevelDB, fillrandom + readrandom, 2.3M keys, cache 1/3 of them at each
// size): 10.5 s at full size, 2.75 s at a third, so 1.27x the linear
// extrapolation; scale^1.5 predicts 14.3 s, erring on the side of a plan
// that ends inside its budget.
class CostModel {
 public:
  CostModel(double fixed_ns, double per_scale_ns)
      : fixed_ns_(fixed_ns), per_scale_ns_(per_scale_ns) {}
  double Estimate(double scale) const {
    double linear = fixed_ns_ + per_scale_ns_ * scale;
    if (max_seen_ <= 0 || scale <= max_seen_) return linear;
    double at_max = fixed_ns_ + per_scale_ns_ * max_seen_;
    return std::max(linear, at_max * std::pow(scale / max_seen_, 1.5));
  }
  void Observe(double scale, uint64_t elapsed_ns);
  double fixed_ns() const { return fixed_ns_; }
  double per_scale_ns() const { return per_scale_ns_; }

 private:
  double fixed_ns_;
  double per_scale_ns_;
  std::vector<std::pair<double, double>> points_;  // (scale, ns)
  double max_seen_ = 0;
};

struct SearchBudget {
  uint64_t budget_ns = 0;
  double min_scale = 0.01;  // smallest trial worth ranking
  double max_scale = 1.0;   // the verification scale: no trial beyond it
  int eta = 3;
};

struct Rung {
  double scale = 0;
  std::vector<size_t> candidates;   // indices into the candidate list
  std::vector<double> ops_per_sec;  // 0 = failed
  std::vector<std::string> errors;
};

struct SearchOutcome {
  size_t winner = 0;  // index into the candidate list
  std::vector<Rung> rungs;
  int trials = 0;
  int candidates = 0;  // considered (after any truncation)
  uint64_t elapsed_ns = 0;
  bool truncated = false;  // the budget cut candidates or rungs
  std::vector<std::string> notes;
};

// `candidates` is ordered by preference; when the budget cannot afford a
// first rung of all of them at min_scale, the least preferred are left out
// (noted). REQUIRES: !candidates.empty().
Result<SearchOutcome> SuccessiveHalving(
    const std::vector<TuneConfig>& candidates, const SearchBudget& budget,
    CostModel* cost, const TrialFn& trial,
    const std::function<uint64_t()>& now_ns);

}  // namespace disktune::tune
