#include "engines/engine_library.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

#include <utility>

namespace disktune {
namespace engine_internal {

std::string SharedObjectOf(const char* symbol) {
  const void* address = dlsym(RTLD_DEFAULT, symbol);
  Dl_info info{};
  if (address == nullptr || dladdr(address, &info) == 0 ||
      info.dli_fname == nullptr) {
    return "";
  }
  char resolved[PATH_MAX];
  std::string path = realpath(info.dli_fname, resolved) != nullptr
                         ? std::string(resolved)
                         : std::string(info.dli_fname);
  char self[PATH_MAX];
  if (realpath("/proc/self/exe", self) != nullptr && path == self) return "";
  return path;
}

bool SharedObjectDefines(const std::string& path, const char* symbol) {
  if (path.empty()) return false;
  // RTLD_NOLOAD: only a library that is already mapped; never loads one.
  void* handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_NOLOAD);
  if (handle == nullptr) return false;
  const bool found = dlsym(handle, symbol) != nullptr;
  dlclose(handle);
  return found;
}

LibraryBuild LibraryOf(std::string_view engine, std::string version,
                       const char* version_source, const char* symbol) {
  LibraryBuild b;
  b.engine = std::string(engine);
  b.version = std::move(version);
  b.version_source = version_source;
  b.shared_object = SharedObjectOf(symbol);
  return b;
}

}  // namespace engine_internal

}  // namespace disktune
