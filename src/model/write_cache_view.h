// A disk's volatile write cache as read: what the drive reports, what the
// kernel believes and FUA support (probes/write_cache.h reads it).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace disktune {

struct DriveCacheView {
  std::string
      source;  // "scsi cache_type", "hdparm -W", "nvme feature 0x06", ...
  std::optional<bool> enabled;
  std::optional<bool> volatile_cache_present;  // NVMe Identify VWC bit 0
  std::string raw;                             // the value as read
  std::string note;                            // why it is unknown
  bool switchable = false;
};

struct WriteCacheView {
  std::string disk;
  std::string kernel_view;  // "write back" / "write through"
  std::optional<bool> fua;
  DriveCacheView drive;
};

void to_json(nlohmann::json& j, const WriteCacheView& v);
void from_json(const nlohmann::json& j, WriteCacheView& v);

}  // namespace disktune
