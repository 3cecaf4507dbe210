// Summary of a figure measured over --repeat runs: median, range and a
// Student-t 95% confidence interval of the mean (n is small, usually 3-5, so
// the normal 1.96 would understate the spread).
#pragma once

#include <vector>

#include "src/model/bench_result.h"

namespace disktune::bench {

// Two-sided 95% Student-t quantile for `df` degrees of freedom (df >= 1).
double StudentT95(int df);

// REQUIRES: !values.empty().
RepeatStat SummarizeRepeats(const std::vector<double>& values);

// Index of the run whose value is the (lower) median.
size_t MedianIndex(const std::vector<double>& values);

}  // namespace disktune::bench
