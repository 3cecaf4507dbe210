#include "src/model/analysis_page_cache.h"

#include "src/core/json_fields.h"

namespace disktune {

void to_json(nlohmann::json& j, const PageCacheCheck& c) {
  j = {{"rule", c.rule},
       {"resident_bytes", c.resident_bytes},
       {"file_size_bytes", c.file_size_bytes},
       {"bypassed", c.bypassed}};
}

void from_json(const nlohmann::json& j, PageCacheCheck& c) {
  using json_fields::Opt;
  c.rule = json_fields::Str(j, "rule");
  c.resident_bytes = Opt<uint64_t>(j, "resident_bytes").value_or(0);
  c.file_size_bytes = Opt<uint64_t>(j, "file_size_bytes").value_or(0);
  c.bypassed = Opt<bool>(j, "bypassed").value_or(false);
}

}  // namespace disktune
