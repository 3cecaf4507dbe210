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

}  // namespace disktune
