// The analyses' "bytes_written": what a `run` wrote, the sectors its disk
// completed writing (all writers on the disk) and the kernel's per-process
// write count (src/app/write_count.h measures it).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace disktune {

struct BytesWritten {
  static constexpr const char* kKey = "bytes_written";
  static constexpr const char* kRule =
      "disk_bytes: sectors the disk completed writing during the run (all "
      "writers on it); process_bytes: the kernel's per-process write count "
      "(/proc/self/io)";
  std::string rule = kRule;
  std::optional<uint64_t> process_bytes;
  std::string disk;  // with disk_bytes
  std::optional<uint64_t> disk_bytes;
};

void to_json(nlohmann::json& j, const BytesWritten& b);
void from_json(const nlohmann::json& j, BytesWritten& b);

}  // namespace disktune
