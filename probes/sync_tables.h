// The fsync probe's comparison tables as stored in a report: the write cache
// switched against as found, per run of the family (analyses
// "write_cache_ab"), and the sync points side by side on each filesystem of
// the matrix (analyses "fs_matrix").
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/model/analysis_fs_matrix.h"
#include "src/model/analysis_write_cache_ab.h"
#include "src/model/probe_result.h"

namespace disktune {

// Unset when no run switched a cache or was skipped.
std::optional<WriteCacheAb> WriteCacheAbTable(
    const std::vector<ProbeResult>& results);

// Unset when no filesystem of the matrix was tried.
std::optional<FsMatrix> FsMatrixTable(const std::vector<ProbeResult>& results);

}  // namespace disktune
