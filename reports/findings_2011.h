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

#include "src/model/analysis_leveldb_2011.h"
#include "src/model/bench_result.h"

namespace disktune {

// The set whose results Findings2011 reads.
inline constexpr const char* kCompare2011Set = "compare-2011";

// Unset when no result of the set ran.
std::optional<Findings2011Check> CheckFindings2011(
    const std::vector<bench::BenchResult>& benches);

}  // namespace disktune
