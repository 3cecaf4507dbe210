// A measured gain spelled out, for the tests of the decisions made on gains
// (passengers.h, plan.h).
#pragma once

#include "src/tune/plan.h"
#include "src/tune/verify.h"

namespace disktune::tune::testing {

inline Gain GainOf(double median, double low, double high,
                   int repeats = kMinRepeats) {
  Gain g;
  g.median = median;
  g.ci95_low = low;
  g.ci95_high = high;
  g.repeats = repeats;
  return g;
}

}  // namespace disktune::tune::testing
