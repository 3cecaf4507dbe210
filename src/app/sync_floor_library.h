// The preload library (src/core/sync_floor_preload.cc) that lays a device
// class's sync floor under the fsync and fdatasync of a program disktune
// runs but does not link (`disktune exec`), and the environment that loads
// it.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "src/core/status.h"

namespace disktune::app {

// libdisktune_syncfloor.so beside the running binary (a build tree), else
// where the package installs it relative to the binary. NotFound in one
// line naming both places when it is in neither.
Result<std::string> FindSyncFloorLibrary();

// What the child's environment gets: LD_PRELOAD with `library` appended to
// any value it has, the floored device (`dev`, as "major:minor") and the
// floor.
std::vector<std::pair<std::string, std::string>> SyncFloorEnvironment(
    const std::string& library, dev_t dev, uint64_t floor_ns);

}  // namespace disktune::app
