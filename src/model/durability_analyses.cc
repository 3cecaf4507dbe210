#include "src/model/durability_analyses.h"

namespace disktune {

DurabilityAnalyses DurabilityAnalysesOf(const model::Analyses& analyses) {
  DurabilityAnalyses d;
  d.findings = analyses.durability;
  d.write_cache = analyses.write_cache;
  d.checks = analyses.checks.value_or(NamedChecks{});
  d.write_cache_ab = analyses.write_cache_ab;
  d.fs_matrix = analyses.fs_matrix;
  return d;
}

}  // namespace disktune
