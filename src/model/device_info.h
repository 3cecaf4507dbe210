// What sits under a directory, as data: the filesystem, and the block
// device resolved down to the whole disk with the queue settings that shape
// every probe. probes/device_info.h reads them (mountinfo, sysfs); their
// JSON form is the environment's (src/model/environment.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace disktune {

struct FilesystemInfo {
  std::string type;  // "ext4", "xfs", "tmpfs", ...
  std::string mount_point;
  std::string source;  // "/dev/vda1"
  std::string mount_options;
  uint64_t total_bytes = 0;
  uint64_t free_bytes = 0;  // available to this user
};

struct DeviceInfo {
  // Each hop from the filesystem's device to the disk: "vda1 (partition of
  // vda)", "dm-0 (device-mapper vg-root)", "loop0 (backing file /x/img)".
  std::vector<std::string> chain;
  std::string disk;  // kernel name of the whole disk at the end, e.g. "vda"
  std::string model;
  std::string vendor;
  std::optional<uint64_t> size_bytes;
  std::optional<bool> rotational;
  std::string scheduler;  // the active one
  std::optional<uint64_t> logical_block_size;
  std::optional<uint64_t> physical_block_size;
  std::optional<uint64_t> nr_requests;  // the block layer's queue depth
  // The largest request the block layer sends the device (KiB): a larger
  // read is split (queue/max_sectors_kb).
  std::optional<uint64_t> max_sectors_kb;
  // The kernel's readahead window for buffered and mapped reads (KiB,
  // queue/read_ahead_kb).
  std::optional<uint64_t> read_ahead_kb;
  std::string write_cache;  // kernel's view: "write back" / "write through"
  std::optional<bool> fua;
};

}  // namespace disktune
