// Each modelled engine's LSM shape: its own defaults, or the settings in
// force in a run (BenchResult::engine_settings) when they are known.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/predict/model.h"

namespace disktune::predict {

// Engines with a model: "leveldb", "rocksdb".
bool HasModel(const std::string& engine);

// nullopt for an engine without a model. `settings`: Engine::Settings() of
// the run ("leveldb.write_buffer_size" -> "4194304"); empty = defaults.
std::optional<LsmShape> ShapeFor(
    const std::string& engine,
    const std::vector<std::pair<std::string, std::string>>& settings = {});

}  // namespace disktune::predict
