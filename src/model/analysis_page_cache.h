// The analyses' "page_cache": whether the direct-I/O probes bypassed the page
// cache, from how much of the test file is resident after them (judged by
// probes/page_cache_check.h).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace disktune {

struct PageCacheCheck {
  static constexpr const char* kKey = "page_cache";
  std::string rule;
  uint64_t resident_bytes = 0;
  uint64_t file_size_bytes = 0;
  bool bypassed = false;  // at most 1% of the file resident
};

void to_json(nlohmann::json& j, const PageCacheCheck& c);
void from_json(const nlohmann::json& j, PageCacheCheck& c);

}  // namespace disktune
