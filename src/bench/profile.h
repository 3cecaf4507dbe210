// Reading the workload part of a profile (profiles/*.json) for
// `disktune bench --profile FILE`. The profile is data only; unknown keys are
// errors so a typo never silently falls back to a default.
//
//   {"profile_version": 1, "name": "utxo-node",
//    "engine": "leveldb",
//    "engine_options": {"cache_bytes": 8388608, "bloom_bits_per_key": 10, ...},
//    "workload": {"scenarios": ["utxo"], "num": 1000000, "threads": 8,
//                 "value_size_bytes": 100, "key_size_bytes": 16, "reads": ...,
//                 "writes": ..., "compression_ratio": 0.5, "seed": 301}}
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/bench/params.h"
#include "src/core/status.h"

namespace disktune::bench {

struct BenchProfile {
  std::string name;
  std::optional<std::string> engine;
  std::vector<std::string> scenarios;
  Overrides overrides;  // workload values and engine options
  // The memory budget the profile was tuned for (its tune section), which a
  // bench with the profile reports its peak RSS against.
  std::optional<uint64_t> memory_budget_bytes;
};

constexpr int kProfileVersion = 1;

Result<BenchProfile> ParseBenchProfile(const nlohmann::json& j);
Result<BenchProfile> ReadBenchProfile(const std::string& path);

}  // namespace disktune::bench
