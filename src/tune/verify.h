// Verification statistics: how much faster a config is than another, with a
// 95% interval, from runs interleaved in rounds so drift (page cache, other
// load, thermal) hits both sides alike.
//
// Throughput is compared as a ratio, so the arithmetic is on logarithms:
// a gain of 1.25x and a loss of 0.8x are the same distance from 1.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "src/model/tune_summary.h"

namespace disktune::tune {

struct Gain {
  double median = 1;  // median of the per-round ratios
  double ci95_low = 1;
  double ci95_high = 1;
  int repeats = 0;
  // The interval lies above 1: a real gain, not noise.
  bool significant() const { return repeats >= 2 && ci95_low > 1.0; }
};

// Paired comparison of `candidate` against `baseline`, run in the same
// rounds (candidate[i] and baseline[i] side by side): median ratio and a
// Student-t 95% interval of the mean log-ratio. REQUIRES: same sizes, >= 1,
// all > 0.
Gain PairedGain(const std::vector<double>& candidate,
                const std::vector<double>& baseline);

// Several configs measured in the same rounds: scores[c][i] is config c in
// round i. Returns, for each c >= 1, the gain of config 0 over config c.
// The noise is the residual of a two-way (config x round) layout on logs,
// pooled over every config: with C configs and r rounds it has
// (C-1)(r-1) degrees of freedom, far more than one pair alone, and the
// round effect (drift) is taken out. REQUIRES: C >= 2, r >= 2, all > 0.
std::vector<Gain> BlockedGains(const std::vector<std::vector<double>>& scores);

// The order of round i for `n` configs: rotated each round so no config
// always runs first (or right after the same neighbour).
std::vector<size_t> RoundOrder(size_t n, size_t round);

// The same comparison the other way round (B over A from A over B): the
// median and interval inverted.
Gain Inverse(const Gain& g);

// The gain as a report states it: ratios rounded to three decimals.
model::GainFigure GainFigureOf(const Gain& g);
nlohmann::json GainToJson(const Gain& g);

}  // namespace disktune::tune
