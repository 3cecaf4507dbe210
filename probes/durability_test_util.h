// Helpers shared by the durability tests: why a root/loop test cannot run
// here, a temporary directory on the real disk, and sysfs/proc look-ups.
#pragma once

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "src/core/subprocess.h"
#include "src/core/sysinfo.h"

namespace disktune::testing_util {

// "" when loop-device tests can run, else the reason to skip.
inline std::string LoopSkipReason() {
  if (geteuid() != 0) return "needs root (losetup, mkfs, mount)";
  if (access("/dev/loop-control", F_OK) != 0)
    return "no /dev/loop-control (loop module)";
  for (const char* p : {"losetup", "mkfs.ext4", "mount", "umount"}) {
    if (FindProgram(p).empty()) return std::string(p) + " is not installed";
  }
  return "";
}

// A new directory under the current one (the build tree: on a real disk,
// where TempDir() may be a tmpfs), named like a disktune scratch directory
// ("disktune-..."), as the device journal requires of images and mounts.
inline std::string MakeTempDir(const std::string& prefix) {
  std::string tmpl = std::filesystem::current_path().string() + "/disktune-" +
                     prefix + "_XXXXXX";
  if (!mkdtemp(tmpl.data())) return "";
  return tmpl;
}

inline std::string SysfsValue(const std::string& path) {
  Result<std::string> r = ReadTextFile(path);
  return r.ok() ? *r : "";
}

inline std::string LoopWriteCache(const std::string& loop_name) {
  return SysfsValue("/sys/block/" + loop_name + "/queue/write_cache");
}

// Whether any line of /proc/mounts or `losetup -a` mentions `needle`.
inline bool MountsMention(const std::string& needle) {
  std::ifstream in("/proc/mounts");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str().find(needle) != std::string::npos;
}

inline bool LoopsMention(const std::string& needle) {
  Result<SubprocessResult> r = RunSubprocess({"losetup", "-a"});
  return r.ok() && r->out.find(needle) != std::string::npos;
}

}  // namespace disktune::testing_util
