#include "src/cli/profile_dirs.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace disktune::cli {
namespace fs = std::filesystem;

std::vector<std::string> ProfileDirs() {
  std::vector<std::string> dirs;
  std::error_code ec;
  auto add = [&](const fs::path& p) {
    if (!fs::is_directory(p, ec)) return false;
    std::string abs = fs::weakly_canonical(p, ec).string();
    if (std::find(dirs.begin(), dirs.end(), abs) == dirs.end())
      dirs.push_back(abs);
    return true;
  };
  bool installed = false;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) installed = add(exe.parent_path() / DISKTUNE_PROFILES_FROM_BIN);
  add("profiles");
  if (!installed) add(DISKTUNE_PROFILES_DIR);
  return dirs;
}

std::vector<ProfileEntry> ListProfiles() {
  std::vector<ProfileEntry> out;
  for (const std::string& dir : ProfileDirs()) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      if (e.path().extension() != ".json") continue;
      std::string name = e.path().stem().string();
      bool seen = std::any_of(out.begin(), out.end(),
                              [&](const auto& p) { return p.name == name; });
      if (!seen) out.push_back({name, e.path().string()});
    }
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

Result<std::string> ResolveProfileArgument(const std::string& flag,
                                           const std::string& arg) {
  bool is_path = arg.find('/') != std::string::npos ||
                 (arg.size() > 5 && arg.ends_with(".json"));
  if (is_path) return arg;
  std::string names;
  for (const ProfileEntry& p : ListProfiles()) {
    if (p.name == arg) return p.path;
    names += (names.empty() ? "" : ", ") + p.name;
  }
  std::string dirs;
  for (const std::string& d : ProfileDirs()) {
    dirs += (dirs.empty() ? "" : ", ") + d;
  }
  return Status::InvalidArgument(
      flag + " '" + arg + "': no such profile in " +
      (dirs.empty() ? std::string("(no profile directory found)") : dirs) +
      (names.empty() ? "" : "; available: " + names) +
      "; or give a path to a profile file (.json)");
}

Result<tune::Workload> ResolveWorkloadArgument(const std::string& arg) {
  Result<tune::Workload> w = tune::ResolveWorkload(arg);
  if (w.ok() || arg.empty()) return w;
  Result<std::string> path = ResolveProfileArgument("--workload", arg);
  // Not found by name either, or a path: the tuner's message says it best.
  if (!path.ok() || *path == arg) return w;
  return tune::ResolveWorkload(*path);
}

}  // namespace disktune::cli
