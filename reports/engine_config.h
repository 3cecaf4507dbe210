// The engine configuration of a report in the shape every renderer shows it:
// per engine that ran, the library build it ran on and every engine setting
// in force (taken from its first scenario; one run opens every scenario of an
// engine with the same settings unless a scenario set changes a knob, and
// then each scenario's JSON keeps its own).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "src/model/report.h"

namespace disktune {

struct EngineConfig {
  std::string engine;
  const LibraryBuild* library = nullptr;  // null when the report has none
  std::vector<std::pair<std::string, std::string>> settings;
};

std::vector<EngineConfig> EngineConfigs(const Report& report);

// "7.8.3 (/usr/lib/x86_64-linux-gnu/librocksdb.so.7.8.3), assertions on"
std::string LibraryText(const LibraryBuild& b);

}  // namespace disktune
