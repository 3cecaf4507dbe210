// Engine settings: the options of one engine that the common knobs
// (engine.h) do not cover, declared as data (engine, name, values, default,
// help) so the CLI can check them, `disktune list` can show them and each
// adapter reads the value in force from one place.
//
// A setting is named "<engine id>.<name>" ("lmdb.writemap") and its default is
// what the engine's own published benchmark uses; the production-style
// alternative is the other value.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engines/engine.h"
#include "src/core/status.h"

namespace disktune {

struct EngineSettingSpec {
  std::string_view engine;         // "lmdb"
  std::string_view name;           // "lmdb.writemap"
  std::string_view values;         // "on|off" or "count"
  std::string_view default_value;  // the engine's own benchmark's choice
  std::string_view help;
};

const std::vector<EngineSettingSpec>& EngineSettingSpecs();

// Parses "NAME=VALUE" and checks both: InvalidArgument naming the valid
// settings or values otherwise.
Result<std::pair<std::string, std::string>> ParseEngineSetting(
    std::string_view text);
Status CheckEngineSetting(std::string_view name, std::string_view value);

// The value in force for `name`: the last one `options` sets, else the
// default. REQUIRES: `name` is a declared setting.
std::string EngineSettingValue(const EngineOptions& options,
                               std::string_view name);
// For on|off settings.
bool EngineSettingOn(const EngineOptions& options, std::string_view name);
// For count settings.
uint64_t EngineSettingCount(const EngineOptions& options,
                            std::string_view name);

}  // namespace disktune
