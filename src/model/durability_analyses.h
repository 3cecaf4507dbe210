// Every analysis the fsync probe stores in a report, read back together for
// the renderers: the verdicts, the write-cache views, the named checks, the
// cache A/B and the filesystem matrix. Each is unset (or empty) when the
// report does not hold it.
#pragma once

#include <optional>

#include "src/model/analyses.h"
#include "src/model/analysis_checks.h"
#include "src/model/analysis_durability.h"
#include "src/model/analysis_fs_matrix.h"
#include "src/model/analysis_write_cache.h"
#include "src/model/analysis_write_cache_ab.h"

namespace disktune {

struct DurabilityAnalyses {
  std::optional<DurabilityFindings> findings;
  std::optional<WriteCacheViews> write_cache;
  NamedChecks checks;
  std::optional<WriteCacheAb> write_cache_ab;
  std::optional<FsMatrix> fs_matrix;

  bool empty() const {
    return !findings && !write_cache && checks.empty() && !write_cache_ab &&
           !fs_matrix;
  }
};

DurabilityAnalyses DurabilityAnalysesOf(const model::Analyses& analyses);

}  // namespace disktune
