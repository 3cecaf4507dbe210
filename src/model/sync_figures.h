// A sync point's figures in a table (the analyses' "write_cache_ab" and
// "fs_matrix").
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>

namespace disktune {

// A sync point's figures in a table.
struct SyncFigures {
  std::optional<double> ops_per_sec;
  std::optional<uint64_t> p50_ns;
  std::optional<uint64_t> p99_ns;
  std::optional<uint64_t> samples;
  std::optional<double> flushes_per_sync;
};
void to_json(nlohmann::json& j, const SyncFigures& f);
void from_json(const nlohmann::json& j, SyncFigures& f);

}  // namespace disktune
