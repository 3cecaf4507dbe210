#include "src/bench/repeat_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "src/core/order_stats.h"

namespace disktune::bench {

double StudentT95(int df) {
  static constexpr double kTable[] = {
      12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
      2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
      2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (df < 1) df = 1;
  if (df <= 30) return kTable[df - 1];
  if (df <= 40) return 2.021;
  if (df <= 60) return 2.000;
  if (df <= 120) return 1.980;
  return 1.960;
}

size_t MedianIndex(const std::vector<double>& values) {
  std::vector<size_t> idx(values.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::sort(idx.begin(), idx.end(),
            [&](size_t a, size_t b) { return values[a] < values[b]; });
  return idx[(idx.size() - 1) / 2];
}

RepeatStat SummarizeRepeats(const std::vector<double>& values) {
  RepeatStat s = SummaryOf<RepeatStat>(values);
  const size_t n = values.size();
  if (n >= 2) {
    double mean = std::accumulate(values.begin(), values.end(), 0.0) / n;
    double ss = 0;
    for (double v : values) ss += (v - mean) * (v - mean);
    double sd = std::sqrt(ss / static_cast<double>(n - 1));
    double half = StudentT95(static_cast<int>(n) - 1) * sd /
                  std::sqrt(static_cast<double>(n));
    s.ci95_low = mean - half;
    s.ci95_high = mean + half;
  }
  return s;
}

}  // namespace disktune::bench
