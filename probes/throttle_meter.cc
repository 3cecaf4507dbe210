#include "probes/throttle_meter.h"

#include "src/core/device_registry.h"

namespace disktune {
namespace {

DeviceRegistry<ThrottleMeter>& Meters() {
  static DeviceRegistry<ThrottleMeter> meters;
  return meters;
}

}  // namespace

void SetThrottleMeter(dev_t dev, ThrottleMeter meter) {
  if (!meter) {
    Meters().Erase(dev);
  } else {
    Meters().Set(dev, std::move(meter));
  }
}

ThrottleMeter ThrottleMeterOfFd(int fd) { return Meters().GetOfFd(fd); }

}  // namespace disktune
