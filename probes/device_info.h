// What sits under a directory: the filesystem, and the block device resolved
// through partitions, device-mapper/md and loop devices down to the whole disk,
// with the queue settings that shape every probe (sysfs).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/core/status.h"

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
  std::string write_cache;  // kernel's view: "write back" / "write through"
  std::optional<bool> fua;
};

FilesystemInfo ReadFilesystemInfo(const std::string& dir);
// NotFound when no block device backs the directory (tmpfs, overlay without
// a block device): the report then says so instead of guessing.
Result<DeviceInfo> ResolveDevice(const std::string& dir);
// How many times this process has called ResolveDevice: a test checks that
// a command resolves each device it measures once (src/app/session.h).
uint64_t ResolveDeviceCalls();
// Undoes /proc/*/mountinfo's octal escapes ("\040" for a space).
std::string UnescapeMountField(const std::string& s);
// Sysfs queue attributes for a whole disk by kernel name ("vda").
DeviceInfo ReadDiskAttributes(const std::string& disk);

}  // namespace disktune
