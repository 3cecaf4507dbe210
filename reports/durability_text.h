// The durability part of the text report: verdicts with their rules, the
// write-cache views, the etcd check, the cache A/B and the filesystem table
// (from the analyses the fsync probe writes).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "src/model/durability_analyses.h"

namespace disktune {

// Writes nothing when the analyses hold no durability findings.
void RenderDurabilityText(const DurabilityAnalyses& analyses, std::ostream& os);
// The same from a report's analyses.
void RenderDurabilityText(const model::Analyses& analyses, std::ostream& os);

}  // namespace disktune
