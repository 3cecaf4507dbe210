#include "src/core/sync_floor.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <charconv>
#include <filesystem>

#include "src/core/device_registry.h"

namespace disktune {
namespace {

DeviceRegistry<uint64_t>& Floors() {
  static DeviceRegistry<uint64_t> floors;
  return floors;
}

}  // namespace

void SetDeviceSyncFloor(dev_t dev, uint64_t floor_ns) {
  if (floor_ns == 0) {
    Floors().Erase(dev);
  } else {
    Floors().Set(dev, floor_ns);
  }
}

dev_t ParseDeviceNumber(const std::string& major_minor) {
  size_t colon = major_minor.find(':');
  if (colon == std::string::npos) return 0;
  unsigned maj = 0, min = 0;
  const char* b = major_minor.data();
  const char* e = b + major_minor.size();
  auto [p1, ec1] = std::from_chars(b, b + colon, maj);
  auto [p2, ec2] = std::from_chars(b + colon + 1, e, min);
  if (ec1 != std::errc() || p1 != b + colon || ec2 != std::errc() || p2 != e)
    return 0;
  return makedev(maj, min);
}

uint64_t SyncFloorOfPath(const std::string& path) {
  if (Floors().Empty()) return 0;
  std::filesystem::path p(path);
  struct stat st {};
  while (stat(p.c_str(), &st) != 0) {
    if (!p.has_relative_path()) return 0;
    std::filesystem::path parent = p.parent_path();
    if (parent.empty()) parent = ".";
    if (parent == p) return 0;
    p = parent;
  }
  return Floors().Get(st.st_dev);
}

uint64_t SyncFloorOfFd(int fd) {
  if (Floors().Empty()) return 0;
  return Floors().GetOfFd(fd);
}

const std::vector<std::string>& SyncFlooredEngines() {
  static const std::vector<std::string> kEngines = {"leveldb", "rocksdb"};
  return kEngines;
}

}  // namespace disktune
