// Whether the direct-I/O probes bypassed the page cache: how much of the
// test file is resident after them. Stored in a report's analyses under
// "page_cache".
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "src/model/analysis_page_cache.h"

namespace disktune {

// The check for a test file of `file_size_bytes` with `resident_bytes` in
// the page cache.
PageCacheCheck CheckPageCache(uint64_t resident_bytes,
                              uint64_t file_size_bytes);

}  // namespace disktune
