#include "probes/environment.h"

#include "generated/version.h"
#include "probes/device_info.h"
#include "probes/foreign_io.h"

namespace disktune {

Environment CollectEnvironment(const std::string& target_dir) {
  return CollectEnvironment(target_dir, ResolveDevice(target_dir));
}

Environment CollectEnvironment(const std::string& target_dir,
                               const Result<DeviceInfo>& d) {
  Environment e;
  e.system = ReadSystemInfo();
  e.target_dir = target_dir;
  e.filesystem = ReadFilesystemInfo(target_dir);
  if (d.ok()) {
    e.device = *d;
  } else {
    e.device_note = d.status().message();
  }
  e.build_type = DISKTUNE_BUILD_TYPE;
  if (e.device) e.foreign_io = StartForeignIo(e.device->disk);
  return e;
}

}  // namespace disktune
