#include "probes/page_cache_check.h"

#include "src/core/json_fields.h"

namespace disktune {

PageCacheCheck CheckPageCache(uint64_t resident_bytes,
                              uint64_t file_size_bytes) {
  PageCacheCheck c;
  c.rule =
      "O_DIRECT probes must leave (almost) none of the test file in the page "
      "cache";
  c.resident_bytes = resident_bytes;
  c.file_size_bytes = file_size_bytes;
  c.bypassed = resident_bytes <= file_size_bytes / 100;
  return c;
}

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

std::optional<PageCacheCheck> PageCacheCheckOf(const nlohmann::json& analyses) {
  return json_fields::Find<PageCacheCheck>(analyses, PageCacheCheck::kKey);
}

}  // namespace disktune
