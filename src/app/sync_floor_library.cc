#include "src/app/sync_floor_library.h"

#include <sys/sysmacros.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace disktune::app {
namespace {

constexpr const char* kLibraryName = "libdisktune_syncfloor.so";

}  // namespace

Result<std::string> FindSyncFloorLibrary() {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    return Status::NotFound("exec: cannot find the sync-floor library " +
                            std::string(kLibraryName) +
                            " (/proc/self/exe: " + ec.message() + ")");
  }
  fs::path beside = exe.parent_path() / kLibraryName;
  fs::path installed =
      (exe.parent_path() / DISKTUNE_SYNCFLOOR_FROM_BIN / kLibraryName)
          .lexically_normal();
  for (const fs::path& p : {beside, installed}) {
    if (access(p.c_str(), R_OK) == 0) return p.string();
  }
  return Status::NotFound(
      "exec: the class has a sync floor, but its library " +
      std::string(kLibraryName) + " is in neither " +
      beside.parent_path().string() + " nor " +
      installed.parent_path().string() +
      " (build the disktune_syncfloor target, or reinstall the package)");
}

std::vector<std::pair<std::string, std::string>> SyncFloorEnvironment(
    const std::string& library, dev_t dev, uint64_t floor_ns) {
  std::string preload = library;
  // ld.so takes LD_PRELOAD's entries separated by spaces or colons; the
  // caller's own preloads keep their place before this one.
  if (const char* old = std::getenv("LD_PRELOAD"); old && *old)
    preload = std::string(old) + ":" + library;
  return {{"LD_PRELOAD", preload},
          {"DISKTUNE_SYNC_FLOOR_DEV",
           std::to_string(major(dev)) + ":" + std::to_string(minor(dev))},
          {"DISKTUNE_SYNC_FLOOR_NS", std::to_string(floor_ns)}};
}

}  // namespace disktune::app
