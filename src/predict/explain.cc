// MissCause (attach.h): the evidence a result carries, checked from the most
// specific cause to the least.
#include <cmath>
#include <cstdio>
#include <regex>

#include "src/core/number_text.h"
#include "src/predict/attach.h"

namespace disktune::predict {
namespace {

// RocksDB's stats text: "Cumulative stall: 00:00:1.234 H:M:S, 12.3 percent".
std::optional<double> StallPercent(const std::string& stats) {
  static const std::regex kStall(
      R"(Cumulative stall:[^,\n]*,\s*([0-9.]+) percent)");
  std::smatch m;
  double worst = -1;
  std::string::const_iterator begin = stats.begin();
  while (std::regex_search(begin, stats.end(), m, kStall)) {
    worst = std::max(worst, std::stod(m[1].str()));
    begin = m.suffix().first;
  }
  if (worst < 0) return std::nullopt;
  return worst;
}

// A device-bound write figure whose engine wrote another share per user
// byte (by more than 15%) than in the in-memory calibration the model read,
// in the direction of the miss (fewer bytes, faster): "" otherwise
// (benchmarks/README.md, "A slow device's write amplification").
std::string WriteAmplificationCause(const bench::BenchResult& r,
                                    const bench::Prediction& p, double ratio) {
  constexpr double kWriteShareMiss = 0.15;
  const auto engine = p.inputs.find("engine");
  if (p.bound == "cpu" || engine == p.inputs.end() ||
      !engine->contains("measured_write_amplification") ||
      !r.metrics.write_call_bytes || !r.metrics.user_write_bytes ||
      *r.metrics.user_write_bytes == 0) {
    return "";
  }
  const double calibrated = (*engine)["measured_write_amplification"];
  const double here = static_cast<double>(*r.metrics.write_call_bytes) /
                      static_cast<double>(*r.metrics.user_write_bytes);
  if (calibrated <= 0 || std::fabs(here / calibrated - 1) <= kWriteShareMiss ||
      (here < calibrated) != (ratio > 1)) {
    return "";
  }
  std::string cause = "write amplification: the engine passed " +
                      Fixed(here, 2) +
                      " bytes to write calls per user byte here, " +
                      Fixed(calibrated, 2) + " in the in-memory calibration";
  if (here < calibrated) {
    cause +=
        " (on a slower device level 0 gathers more files before each "
        "compaction, which then merges more at once)";
  }
  return cause;
}

}  // namespace

std::string MissCause(const bench::BenchResult& r, const bench::Prediction& p,
                      const std::string& calibrated_cpu,
                      const SystemInfo& system) {
  if (!p.measured_over_predicted) return "";
  const double ratio = *p.measured_over_predicted;
  if (std::fabs(ratio - 1) <= kMissShare) return "";
  if (ratio < 1) {
    if (auto stall = StallPercent(r.engine_stats); stall && *stall >= 5) {
      return "write stall: the engine stalled writes " + Fixed(*stall, 1) +
             "% of the time (its own counters)";
    }
  }
  if (std::string wa = WriteAmplificationCause(r, p, ratio); !wa.empty()) {
    return wa;
  }
  const bool device_read =
      p.bound == "read_iops" || p.bound == "read_bandwidth";
  if (device_read && ratio > 1 && r.page_cache &&
      r.page_cache->resident_bytes_after &&
      *r.page_cache->resident_bytes_after > 0) {
    return "page cache: " +
           std::to_string(*r.page_cache->resident_bytes_after >> 20) +
           " MiB of the database stayed cached after eviction (" +
           r.page_cache->method + ")";
  }
  if (device_read && ratio > 1) {
    return "page cache: reads found blocks already cached (readahead or "
           "memory-mapped read-around; the model counts one device read per "
           "first touch of what a miss brings in)";
  }
  if (!calibrated_cpu.empty() && !system.cpu_model.empty() &&
      calibrated_cpu != system.cpu_model) {
    return "CPU: calibrated on " + calibrated_cpu + ", measured on " +
           system.cpu_model;
  }
  if (system.load_average_1m && system.cpu_count > 0 &&
      *system.load_average_1m > system.cpu_count) {
    return "a busy machine: load " + Fixed(*system.load_average_1m, 1) +
           " on " + std::to_string(system.cpu_count) +
           " CPUs when the run started (CPU time shared with other work)";
  }
  if (p.bound == "cpu") {
    return "CPU cost differed from the in-memory calibration (noise, or work "
           "the in-memory run did not do, e.g. compaction I/O waits)";
  }
  return "the " + p.bound + " ceiling was " + (ratio < 1 ? "lower" : "higher") +
         " than the probe figures imply";
}

}  // namespace disktune::predict
