// The analyses' "write_cache": the write-cache view of each device under the
// scratch directory, as found (probes/durability_findings.h reads them).
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "src/model/write_cache_view.h"

namespace disktune {

struct WriteCacheViews {
  static constexpr const char* kKey = "write_cache";
  std::vector<WriteCacheView> devices;
};
void to_json(nlohmann::json& j, const WriteCacheViews& w);
void from_json(const nlohmann::json& j, WriteCacheViews& w);

}  // namespace disktune
