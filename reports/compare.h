// `disktune compare A.json B.json`: two results side by side with the change
// in percent, for two hosts or one host over time.
//
// Matching: probes by `name`; benches by engine + scenario + occurrence (the
// second readrandom of a set matches the second readrandom). Compared figures:
// a probe's throughput (iops, or ops_per_sec for the fsync points) and its p50
// and p99 latency; a bench's ops_per_sec and p99 latency.
//
// Noise, judged by one of two rules (each row names the one that applied):
// - "spread": where a figure has repeats (bench --repeat, probe --repeat),
//   each side is an interval, its 95% confidence interval or else its
//   min..max. When the intervals overlap (or a side without repeats lies
//   inside the other's interval), the change is noise, never a regression.
// - "noise_floor": a figure is noise when A and B lie within the floor
//   measured for its kind between identical runs (reports/noise_floor.h),
//   with or without repeats: two runs drift apart more than one run's rounds
//   spread.
// Elsewhere the change is a plain percent: below `threshold_pct` it is
// "same" (rule "threshold").
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "reports/report_query.h"
#include "src/model/report.h"

namespace disktune {

struct CompareOptions {
  double threshold_pct = 5;  // smaller changes are "same"
  // A worse change beyond this (and outside the spread) is a regression.
  std::optional<double> fail_on_regression_pct;
  // Judge changes against the measured noise floors too (else the spreads
  // of repeats and the threshold alone).
  bool noise_floors = true;
};

enum class CompareVerdict { kSame, kNoise, kBetter, kWorse, kRegression };
const char* CompareVerdictName(CompareVerdict v);  // "same", "noise", ...

struct Interval {
  double low = 0;
  double high = 0;
  std::string kind;  // "ci95" or "min-max"
};

struct CompareRow {
  std::string kind;    // "probe" or "bench"
  std::string item;    // "rand_read.4k.qd32", "bench.leveldb.fillseq"
  std::string metric;  // "iops", "ops_per_sec", "p50", "p99"
  Dimension dimension = Dimension::kCount;
  bool higher_is_better = true;
  double a = 0;
  double b = 0;
  std::optional<Interval> a_spread;
  std::optional<Interval> b_spread;
  std::optional<double> change_pct;  // absent when A is 0
  CompareVerdict verdict = CompareVerdict::kSame;
  // The rule that classified the change: "threshold" (under --threshold),
  // "spread" or "noise_floor" (noise), "beyond_spread",
  // "beyond_spread_and_floor" or "beyond_noise_floor" (a change beyond the
  // noise), "from_zero" (A is 0).
  std::string rule;
  std::optional<double> noise_floor_ratio;  // the floor consulted, if any
  std::string noise_kind;                   // its kind: "block_rate", ...
  std::string note;  // parameters that differ between A and B
};

struct Comparison {
  std::string a_label;
  std::string b_label;
  std::vector<std::string> environment_differences;  // "kernel: 6.1 vs 6.18"
  std::vector<CompareRow> rows;
  std::vector<std::string> only_in_a;
  std::vector<std::string> only_in_b;
  // Results measured in one and not the other ("skipped in B: ...").
  std::vector<std::string> not_comparable;
  // ok in A, failed in B: counted as regressions when gating.
  std::vector<std::string> failed_in_b;
  CompareOptions options;
  int regressions = 0;
  // Figures left out because A and B measured them with other parameters.
  int params_differ_rows = 0;
};

// `a_label` / `b_label` name the inputs in the output (their paths).
Comparison CompareReports(const Report& a, const Report& b,
                          const std::string& a_label,
                          const std::string& b_label,
                          const CompareOptions& options);

std::string RenderCompareText(const Comparison& c);
nlohmann::json ComparisonToJson(const Comparison& c);

}  // namespace disktune
