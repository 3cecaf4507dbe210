// The fleet's predicted engine figures (`disktune predict`'s model over each
// host's probe figures): their JSON, their Prometheus samples, and the words
// and cells the text and HTML tables (fleet_text.cc, fleet_html.cc) share.
// Predictions are shown, never judged: the outlier rule (fleet.h) reads
// measured figures only.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "reports/fleet.h"

namespace disktune {

nlohmann::json FleetPredictionBasisToJson(const FleetPredictionBasis& basis);
// The host's `predictions` array (fleet.v1 schema, 1.1).
nlohmann::json FleetHostPredictionsToJson(const FleetHost& host);

// "predicted by disktune predict's model from each host's probe figures
// ...; the CPU cost per op is this machine's (CPU), not each host's". ""
// without a basis.
std::string FleetPredictionNote(const FleetReport& fleet);

// A host's cell: "9,120/s sync_latency"; "" when the engine has no figure
// for the scenario.
std::string FleetPredictedCell(const FleetPrediction& p,
                               const std::string& scenario);
// "not predicted: missing seq_write.1m" for an engine without figures, ""
// otherwise.
std::string FleetNotPredictedText(const FleetPrediction& p);

// "leveldb fillsync": a column per engine and scenario of the basis.
struct FleetPredictedColumn {
  size_t engine = 0;  // index into FleetPredictionBasis::engines
  std::string scenario;
  std::string label;
};
std::vector<FleetPredictedColumn> FleetPredictedColumns(
    const FleetPredictionBasis& basis);

// "" without a basis.
std::string FleetPredictionsPrometheus(const FleetReport& fleet);

}  // namespace disktune
