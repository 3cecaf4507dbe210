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

// The file defining the C function `symbol` (dlsym + dladdr, symlinks
// resolved), "" when that is the disktune binary itself (a static link).
// REQUIRES: disktune never takes the function's address itself, or the
// executable may hold a canonical PLT entry for it that dlsym finds first.
std::string SharedObjectOf(const char* symbol);
// Whether the shared object `path` (already loaded) defines `symbol`.
bool SharedObjectDefines(const std::string& path, const char* symbol);

// What every adapter's description starts from: the engine, its version and
// where that came from ("library" or "headers"), and the shared object that
// defines `symbol`. Assertions stay "unknown" for the adapter to detect.
LibraryBuild LibraryOf(std::string_view engine, std::string version,
                       const char* version_source, const char* symbol);

}  // namespace engine_internal
}  // namespace disktune
