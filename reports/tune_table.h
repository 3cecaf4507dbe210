// The tuner's recommendation as a table a person reads, shared by the text,
// HTML and Markdown reports: one row per knob the tuner judged, read from
// the typed tune object (src/model/tune_summary.h: evidence.knobs), named
// and valued through the engine knob table (src/model/knob_spec.h) so every
// figure carries its unit.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/model/tune_summary.h"

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

// The rows of `tune`'s evidence.knobs, after the block cache's; empty when it
// has no evidence.
std::vector<RecommendationRow> RecommendationRows(
    const model::TuneSummary& tune);

// One line above the table: the engine, the workload, the budget and the
// verdict.
std::string RecommendationHeadline(const model::TuneSummary& tune);

// The tuner's evidence in sentences a person reads (how the recommendation
// was verified, the search, the budgets it used, the device facts it read,
// its notes); the JSON keeps every field.
std::vector<std::string> TuneEvidenceSentences(const model::TuneSummary& tune);

}  // namespace disktune
