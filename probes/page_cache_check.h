// Whether the direct-I/O probes bypassed the page cache: how much of the
// test file is resident after them. Stored in a report's analyses under
// "page_cache".
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace disktune {

struct PageCacheCheck {
  static constexpr const char* kKey = "page_cache";
  std::string rule;
  uint64_t resident_bytes = 0;
  uint64_t file_size_bytes = 0;
  bool bypassed = false;  // at most 1% of the file resident
};

// The check for a test file of `file_size_bytes` with `resident_bytes` in
// the page cache.
PageCacheCheck CheckPageCache(uint64_t resident_bytes,
                              uint64_t file_size_bytes);

void to_json(nlohmann::json& j, const PageCacheCheck& c);
void from_json(const nlohmann::json& j, PageCacheCheck& c);
std::optional<PageCacheCheck> PageCacheCheckOf(const nlohmann::json& analyses);

}  // namespace disktune
