// The tuner's recommendation as a table a person reads, shared by the text,
// HTML and Markdown reports: one row per knob the tuner judged, read from
// the "tune" object a report carries (src/tune/tuner.h TuneResultToJson:
// evidence.knobs), named and valued through the engine knob table
// (engines/knob_spec.h) so every figure carries its unit.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace disktune {

struct RecommendationRow {
  std::string knob;           // "write buffer"
  std::string value;          // "16 MiB"
  std::string default_value;  // "4 MiB"
  std::string verdict;        // "won alone", "kept the default", ...
  std::string gain;           // "1.23x [1.05x, 1.44x]"; "" = not measured
  std::string reason;
};

// The table's column titles, in row order.
const std::vector<std::string>& RecommendationColumns();
// The cells of `row`, in column order.
std::vector<std::string> RecommendationCells(const RecommendationRow& row);

// The rows of `tune`'s evidence.knobs; empty when it has none (an older or
// hand-written tune object is then shown as it is).
std::vector<RecommendationRow> RecommendationRows(const nlohmann::json& tune);

// One line above the table: the engine, the workload, the budget and the
// verdict, from `tune`'s top-level fields ("" when they are absent).
std::string RecommendationHeadline(const nlohmann::json& tune);

// `tune` without what the table and headline show, for the evidence a reader
// may expand below them.
nlohmann::json TuneEvidence(const nlohmann::json& tune);

// The tuner's evidence in sentences a person reads (how the recommendation
// was verified, the search, the budgets it used, the device facts it read,
// its notes); the JSON keeps every field.
std::vector<std::string> TuneEvidenceSentences(const nlohmann::json& tune);

}  // namespace disktune
