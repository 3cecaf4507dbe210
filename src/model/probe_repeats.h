// `probe --repeat N`: the rounds of one point and their summary.
//
// Each point runs N times, the rounds interleaved across points (A1 B1 C1 A2
// B2 C2 ...), so a slow minute of a shared machine lands on one round of many
// points instead of every round of one point. A point's headline fields are
// those of its median round (by its throughput figure), so one result stays
// self-consistent; `repeats` holds, per headline figure, the median over the
// rounds, the spread (min..max) and every round's value.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

namespace disktune {

struct ProbeResult;

struct RoundStat {
  double median = 0;
  double min = 0;
  double max = 0;
  std::vector<double> values;  // in round order
};

struct ProbeRepeats {
  int count = 0;  // rounds that measured the point
  std::optional<RoundStat> iops;
  std::optional<RoundStat> ops_per_sec;
  std::optional<RoundStat> bytes_per_sec;
  std::optional<RoundStat> latency_p50_ns;
  std::optional<RoundStat> latency_p99_ns;
};

// REQUIRES: !values.empty().
RoundStat SummarizeRounds(const std::vector<double>& values);

// Merges the results of N rounds (rounds[r] = the results of round r, in run
// order) into one result per point name, in the order of the first round.
// A point ok in every round it ran gets `repeats` (also for a single round,
// when N > 1 and the run was interrupted); a point that failed or was skipped
// in some round is reported by its first such round, so a failure is never
// hidden behind a median.
std::vector<ProbeResult> MergeRounds(
    const std::vector<std::vector<ProbeResult>>& rounds);

void to_json(nlohmann::json& j, const RoundStat& s);
void from_json(const nlohmann::json& j, RoundStat& s);
void to_json(nlohmann::json& j, const ProbeRepeats& r);
void from_json(const nlohmann::json& j, ProbeRepeats& r);

}  // namespace disktune
