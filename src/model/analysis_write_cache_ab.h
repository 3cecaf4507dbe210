// The analyses' "write_cache_ab": under --write-cache-ab, the write cache
// switched against as found, per run of the fsync family (tabled by
// probes/sync_tables.h).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/model/sync_figures.h"

namespace disktune {

struct WriteCacheAbPoint {
  std::string point;
  SyncFigures cache_on;
  SyncFigures cache_off;
  std::optional<double> off_over_on_p50;
};

struct WriteCacheAbRun {
  std::string results;  // the family's name prefix
  std::string status;   // "ok" or "skipped"
  std::string reason;   // when skipped
  // When ok:
  std::string switch_used;  // "switch": CacheSwitch::Describe()
  std::string switch_kind;  // CacheSwitchKindName()
  std::string as_found;     // "on" / "off"
  std::string switched_to;
  std::vector<WriteCacheAbPoint> points;
};

struct WriteCacheAb {
  static constexpr const char* kKey = "write_cache_ab";
  std::vector<WriteCacheAbRun> runs;
};
void to_json(nlohmann::json& j, const WriteCacheAbPoint& p);
void from_json(const nlohmann::json& j, WriteCacheAbPoint& p);
void to_json(nlohmann::json& j, const WriteCacheAbRun& r);
void from_json(const nlohmann::json& j, WriteCacheAbRun& r);
void to_json(nlohmann::json& j, const WriteCacheAb& a);
void from_json(const nlohmann::json& j, WriteCacheAb& a);

}  // namespace disktune
