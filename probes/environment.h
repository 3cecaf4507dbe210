// Collects the environment block of a report (src/model/environment.h):
// the machine, the target directory, its filesystem and the disk behind it,
// and starts the window on other I/O on that disk.
#pragma once

#include <string>

#include "src/core/status.h"
#include "src/model/device_info.h"
#include "src/model/environment.h"

namespace disktune {

Environment CollectEnvironment(const std::string& target_dir);
// The same with the device behind `target_dir` already resolved
// (ResolveDevice), so a command resolves it once (src/app/session.h).
Environment CollectEnvironment(const std::string& target_dir,
                               const Result<DeviceInfo>& device);

}  // namespace disktune
