// The minimum, median and maximum of a set of values: how bench --repeat and
// probe --repeat summarise their rounds.
#pragma once

#include <algorithm>
#include <vector>

namespace disktune {

struct OrderStats {
  double min = 0;
  double median = 0;  // the mean of the two middle values for an even count
  double max = 0;
};

// REQUIRES: !values.empty()
inline OrderStats OrderStatsOf(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  OrderStats s;
  s.min = values.front();
  s.max = values.back();
  s.median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  return s;
}

// A round summary (RoundStat, RepeatStat): `values` as given, with their
// min, median and max.
// REQUIRES: !values.empty()
template <typename Stat>
Stat SummaryOf(const std::vector<double>& values) {
  Stat s;
  s.values = values;
  const OrderStats o = OrderStatsOf(values);
  s.min = o.min;
  s.max = o.max;
  s.median = o.median;
  return s;
}

}  // namespace disktune
