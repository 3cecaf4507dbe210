#include "src/tune/rule_util.h"

#include <cstdio>

#include "src/core/units.h"

namespace disktune::tune {

std::string Bytes(double b) { return FormatBytes(b); }

std::string Micros(uint64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.0f us", static_cast<double>(ns) / 1e3);
  return buf;
}

std::string Percent(double f) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.0f%%", f * 100);
  return buf;
}

std::string MBps(double bps) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.0f MB/s", bps / 1e6);
  return buf;
}

uint64_t RoundUpPow2(uint64_t v) {
  uint64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

bool ReadsHitDevice(const RuleInput& in) {
  if (in.traits.cold_reads) return true;
  uint64_t db = EstimateDbBytes(in.shape, in.engine->defaults);
  uint64_t ram = in.facts.memory_bytes;
  return ram > 0 && db + in.budget_bytes > ram;
}

}  // namespace disktune::tune
