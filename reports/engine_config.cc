#include "reports/engine_config.h"

namespace disktune {

std::vector<EngineConfig> EngineConfigs(const Report& report) {
  std::vector<EngineConfig> out;
  auto find = [&](const std::string& engine) -> EngineConfig* {
    for (EngineConfig& c : out) {
      if (c.engine == engine) return &c;
    }
    out.push_back(EngineConfig{engine, nullptr, {}});
    return &out.back();
  };
  for (const bench::BenchResult& b : report.benches) {
    EngineConfig* c = find(b.engine);
    if (c->settings.empty()) c->settings = b.engine_settings;
  }
  for (const LibraryBuild& lib : report.environment.engine_libraries) {
    find(lib.engine)->library = &lib;
  }
  return out;
}

std::string LibraryText(const LibraryBuild& b) {
  std::string s = b.version.empty() ? "version unknown" : b.version;
  if (b.version_source == "headers") s += " (headers)";
  s += b.shared_object.empty() ? ", linked into disktune"
                               : ", " + b.shared_object;
  s += ", assertions " + b.assertions;
  return s;
}

}  // namespace disktune
