#include "probes/durability_analyses.h"

namespace disktune {

DurabilityAnalyses DurabilityAnalysesOf(const nlohmann::json& analyses) {
  DurabilityAnalyses d;
  d.findings = DurabilityFindingsOf(analyses);
  d.write_cache = WriteCacheViewsOf(analyses);
  d.checks = ChecksOf(analyses);
  d.write_cache_ab = WriteCacheAbOf(analyses);
  d.fs_matrix = FsMatrixOf(analyses);
  return d;
}

}  // namespace disktune
