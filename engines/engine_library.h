// Which library build each engine adapter runs on: version, shared object and
// whether it was built with assertions (detected, not assumed).
#pragma once

#include <string>
#include <string_view>

#include "src/core/library_build.h"

namespace disktune {

// REQUIRES: `engine` is an id from AvailableEngines().
LibraryBuild DescribeEngineLibrary(std::string_view engine);

namespace engine_internal {

// The file holding the code at `address` (dladdr, symlinks resolved), "" when
// that is the disktune binary itself (a static link).
std::string SharedObjectOf(const void* address);
// Whether the shared object `path` (already loaded) defines `symbol`.
bool SharedObjectDefines(const std::string& path, const char* symbol);

}  // namespace engine_internal
}  // namespace disktune
