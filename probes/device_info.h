// What sits under a directory: the filesystem, and the block device resolved
// through partitions, device-mapper/md and loop devices down to the whole disk,
// with the queue settings that shape every probe (sysfs).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "src/core/status.h"
#include "src/model/device_info.h"

namespace disktune {

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
// A sysfs file's number ("/sys/block/loop3/queue/max_sectors_kb"), or
// nullopt when it is absent or not a number.
std::optional<uint64_t> SysfsNumber(const std::string& path);

}  // namespace disktune
