#include "src/core/number_text.h"

#include <cmath>
#include <cstdio>

namespace disktune {

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", decimals, v);
  return buf;
}

std::string Thousands(uint64_t v) {
  const std::string digits = std::to_string(v);
  std::string out;
  for (size_t i = 0; i < digits.size(); i++) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string Thousands(double v) {
  if (!std::isfinite(v)) return "-";
  const uint64_t n = static_cast<uint64_t>(std::llround(std::fabs(v)));
  return (v < 0 && n != 0 ? "-" : "") + Thousands(n);
}

std::string SignedPercent(double pct) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%+.1f%%", pct);
  return buf;
}

std::string RatioText(double x) { return Fixed(x, 2) + "x"; }

std::string GainText(double median, double ci95_low, double ci95_high) {
  return RatioText(median) + " [" + RatioText(ci95_low) + ", " +
         RatioText(ci95_high) + "]";
}

}  // namespace disktune
