#include "src/model/analysis_write_cache.h"

#include "src/core/json_fields.h"

namespace disktune {

void to_json(nlohmann::json& j, const WriteCacheViews& w) {
  j = {{"devices", w.devices}};
}

void from_json(const nlohmann::json& j, WriteCacheViews& w) {
  w.devices = json_fields::List<WriteCacheView>(j, "devices");
}

}  // namespace disktune
