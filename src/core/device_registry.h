// A value kept per block device, by its device number, for the life of
// something that owns the device (a --throttle loop device): its sync floor
// (src/core/sync_floor.h) and its throttle meter (probes/throttle_meter.h).
// Any layer finds the value from a file or directory it holds, without each
// layer carrying it, as the kernel keeps a queue setting per device.
//
// Thread-safe: an engine's sync threads read while a command sets.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <map>
#include <mutex>
#include <utility>

namespace disktune {

template <typename T>
class DeviceRegistry {
 public:
  // Sets the value of device `dev`, replacing any earlier one.
  void Set(dev_t dev, T value) {
    std::lock_guard<std::mutex> l(mu_);
    values_[dev] = std::move(value);
  }
  // Removes the value of `dev`; nothing when it has none.
  void Erase(dev_t dev) {
    std::lock_guard<std::mutex> l(mu_);
    values_.erase(dev);
  }
  // The value of `dev` (a copy), or T{} when it has none.
  T Get(dev_t dev) const {
    std::lock_guard<std::mutex> l(mu_);
    auto it = values_.find(dev);
    return it == values_.end() ? T{} : it->second;
  }
  // The value of the device holding the open file or directory `fd`, or
  // T{} when it has none or `fd` cannot be read.
  T GetOfFd(int fd) const {
    struct stat st {};
    if (fstat(fd, &st) != 0) return T{};
    return Get(st.st_dev);
  }
  // No device has a value: a caller skips its stat() on the common path.
  bool Empty() const {
    std::lock_guard<std::mutex> l(mu_);
    return values_.empty();
  }

 private:
  mutable std::mutex mu_;
  std::map<dev_t, T> values_;
};

}  // namespace disktune
