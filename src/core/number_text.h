// Numbers as a person reads them, in one place for every layer: the tuner's
// notes (src/tune), the predictor's explanations (src/predict) and the
// report renderers (reports/) print their figures with these, so a figure
// reads the same in a note as in a report.
#pragma once

#include <cstdint>
#include <string>

namespace disktune {

// printf's "%.*f" of one double: Fixed(1.853, 3) -> "1.853".
std::string Fixed(double v, int decimals);

// With thousands separators: 1234567 -> "1,234,567", exactly.
std::string Thousands(uint64_t v);
// Rounded to an integer, then as above: 4030000.4 -> "4,030,000",
// -1234.6 -> "-1,235"; "-" for a NaN or an infinity.
std::string Thousands(double v);

// A signed percent change with one decimal: 3.24 -> "+3.2%", -12 -> "-12.0%".
std::string SignedPercent(double pct);

// A ratio with two decimals and an "x" after it.
std::string RatioText(double x);
// A gain as its median ratio, then its 95% interval's two ratios in
// brackets, each as RatioText writes it.
std::string GainText(double median, double ci95_low, double ci95_high);

}  // namespace disktune
