// The 2011 LevelDB benchmark page's engine comparison, re-measured: each
// finding of that page (LevelDB vs SQLite vs Kyoto TreeDB) with the ratio the
// page published, the ratio measured here and whether the finding still
// holds (the measured ratio is on the same side of 1 as the published one).
// Works on the results of the "compare-2011" scenario set.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/model/bench_result.h"

namespace disktune {

// The set whose results Findings2011 reads.
inline constexpr const char* kCompare2011Set = "compare-2011";

struct Finding2011 {
  std::string finding;   // the page's claim, in words
  std::string compares;  // "leveldb fillseq (baseline) / ..."
  double ratio_2011 = 0;
  std::optional<double> ratio_measured;  // unset when a side did not run
  std::string
      verdict;  // "still holds", "no longer holds", "not measured (...)"
};

// Stored in a bench report's analyses under kKey.
struct Findings2011Check {
  static constexpr const char* kKey = "leveldb_2011";
  std::string source;
  std::string rule;
  std::string summary;  // "2 of 3 measured findings still hold"
  std::vector<Finding2011> findings;
};

void to_json(nlohmann::json& j, const Finding2011& f);
void from_json(const nlohmann::json& j, Finding2011& f);
void to_json(nlohmann::json& j, const Findings2011Check& c);
void from_json(const nlohmann::json& j, Findings2011Check& c);

// Unset when no result of the set ran.
std::optional<Findings2011Check> CheckFindings2011(
    const std::vector<bench::BenchResult>& benches);
std::optional<Findings2011Check> Findings2011Of(const nlohmann::json& analyses);

}  // namespace disktune
