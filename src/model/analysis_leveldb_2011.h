// The analyses' "leveldb_2011": the 2011 LevelDB benchmark page's findings,
// each with the ratio the page published and the one measured here (derived
// by reports/findings_2011.h from the compare-2011 set's results).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace disktune {

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

}  // namespace disktune
