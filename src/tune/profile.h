// Profiles: the one file format for a workload plus engine options, read by
// `disktune bench --profile` and `disktune tune --workload`, written by
// `disktune tune --out`, and checked in under profiles/.
//
//   {"profile_version": 1,
//    "name": "write-heavy-leveldb",
//    "description": "...",
//    "engine": "leveldb",
//    "engine_options": {"cache_bytes": 33554432, "write_buffer_bytes": ...,
//                       "bloom_bits_per_key": 10, "compression": "snappy",
//                       "block_size_bytes": 4096, "max_open_files": 1000,
//                       "max_file_bytes": 2097152, "in_memory": false,
//                       "sync": false},
//    "workload": {"scenarios": ["fillrandom", "overwrite"],
//                 "measured": ["overwrite"],
//                 "num": 1000000, "reads": ..., "writes": ..., "threads": 1,
//                 "value_size_bytes": 100, "key_size_bytes": 16,
//                 "compression_ratio": 0.5, "seed": 301,
//                 "entries_per_batch": 1, "target_writes_per_sec": 5000},
//    "tune": { ... what `disktune tune` measured: the tuner's summary,
//              src/model/tune_summary.h ... }}
//
// Every key is optional except profile_version; engine_options absent =
// the engine's defaults; engine_options.sync = the workload needs durable
// writes. Unknown keys, wrong types and other versions are errors that name
// the key path. The workload and engine_options sections are parsed by
// src/bench's ParseBenchProfile (one definition of what bench runs); this
// file adds the tuner's keys (measured, entries_per_batch,
// target_writes_per_sec, tune) and validates the whole document.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "engines/engine.h"
#include "src/bench/profile.h"
#include "src/core/status.h"
#include "src/model/tune_summary.h"
#include "src/tune/workload.h"

namespace disktune::tune {

inline constexpr int kProfileVersion = bench::kProfileVersion;

struct Profile {
  std::string name;
  std::string description;
  std::optional<std::string> engine;
  EngineOptions engine_options;  // unset knobs = the engine's defaults
  Workload workload;
  // The tuner's recommendation and evidence (the same summary a report
  // carries under "tune"); absent in hand-written profiles.
  std::optional<model::TuneSummary> tune;
};

// `where` prefixes messages ("profiles/x.json").
Result<Profile> ParseProfile(const nlohmann::json& j, const std::string& where);
Result<Profile> ParseProfileText(std::string_view text,
                                 const std::string& where);
Result<Profile> ReadProfile(const std::string& path);

nlohmann::json ProfileToJson(const Profile& p);
// Only the knobs that are set (an absent knob keeps the engine's default).
nlohmann::json ProfileEngineOptionsToJson(const EngineOptions& o);

// For `disktune bench --profile FILE`: validates the whole profile (tuner
// sections included) and returns what bench runs.
Result<bench::BenchProfile> ReadProfileForBench(const std::string& path);

// Checks the "tune" section's keys and types.
Status CheckTuneSection(const nlohmann::json& tune, const std::string& path);

}  // namespace disktune::tune
