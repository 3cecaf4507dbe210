#include "probes/device_info.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "src/core/sysinfo.h"

namespace disktune {
namespace fs = std::filesystem;

namespace {

std::string Sysfs(const std::string& path) {
  Result<std::string> r = ReadTextFile(path);
  return r.ok() ? *r : "";
}

// Mount-info fields: "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3
// /dev/root rw,errors=continue".
struct MountEntry {
  std::string mount_point, options, fstype, source, super_options;
  std::string dev;  // "major:minor"
};

std::optional<MountEntry> FindMount(const std::string& dir) {
  std::error_code ec;
  std::string real = fs::canonical(dir, ec).string();
  if (ec) real = dir;
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  std::optional<MountEntry> best;
  while (std::getline(in, line)) {
    std::istringstream ss(line);
    std::string id, parent, dev, root, mp, opts, tok;
    ss >> id >> parent >> dev >> root >> mp >> opts;
    while (ss >> tok && tok != "-") {
    }
    MountEntry e;
    e.dev = dev;
    e.mount_point = UnescapeMountField(mp);
    e.options = opts;
    ss >> e.fstype >> e.source >> e.super_options;
    e.source = UnescapeMountField(e.source);
    const std::string& m = e.mount_point;
    bool under = real == m || m == "/" ||
                 (real.rfind(m, 0) == 0 && real.size() > m.size() &&
                  real[m.size()] == '/');
    // The last matching entry of the longest mount point is the one in effect.
    if (under && (!best || m.size() >= best->mount_point.size())) best = e;
  }
  return best;
}

// The sysfs directory of a block device number, or "" if none.
std::string SysfsForDev(dev_t dev) {
  std::string link = "/sys/dev/block/" + std::to_string(major(dev)) + ":" +
                     std::to_string(minor(dev));
  char buf[PATH_MAX];
  if (!realpath(link.c_str(), buf)) return "";
  return buf;
}

}  // namespace

std::string UnescapeMountField(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); i++) {
    if (s[i] == '\\' && i + 3 < s.size()) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 3), nullptr, 8));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

FilesystemInfo ReadFilesystemInfo(const std::string& dir) {
  FilesystemInfo info;
  if (auto m = FindMount(dir)) {
    info.type = m->fstype;
    info.mount_point = m->mount_point;
    info.source = m->source;
    info.mount_options = m->options;
    if (!m->super_options.empty()) info.mount_options += "," + m->super_options;
  }
  struct statvfs sv {};
  if (statvfs(dir.c_str(), &sv) == 0) {
    info.total_bytes = static_cast<uint64_t>(sv.f_blocks) * sv.f_frsize;
    info.free_bytes = static_cast<uint64_t>(sv.f_bavail) * sv.f_frsize;
  }
  return info;
}

std::optional<uint64_t> SysfsNumber(const std::string& path) {
  std::string s = Sysfs(path);
  if (s.empty()) return std::nullopt;
  try {
    return std::stoull(s);
  } catch (...) {
    return std::nullopt;
  }
}

DeviceInfo ReadDiskAttributes(const std::string& disk) {
  DeviceInfo d;
  d.disk = disk;
  std::string q = "/sys/block/" + disk + "/queue/";
  d.model = Sysfs("/sys/block/" + disk + "/device/model");
  d.vendor = Sysfs("/sys/block/" + disk + "/device/vendor");
  if (auto sectors = SysfsNumber("/sys/block/" + disk + "/size"))
    d.size_bytes = *sectors * 512;
  if (auto r = SysfsNumber(q + "rotational")) d.rotational = *r != 0;
  std::string sched = Sysfs(q + "scheduler");
  auto open = sched.find('['), close = sched.find(']');
  d.scheduler = (open != std::string::npos && close > open)
                    ? sched.substr(open + 1, close - open - 1)
                    : sched;
  d.logical_block_size = SysfsNumber(q + "logical_block_size");
  d.physical_block_size = SysfsNumber(q + "physical_block_size");
  d.nr_requests = SysfsNumber(q + "nr_requests");
  d.max_sectors_kb = SysfsNumber(q + "max_sectors_kb");
  d.read_ahead_kb = SysfsNumber(q + "read_ahead_kb");
  d.write_cache = Sysfs(q + "write_cache");
  if (auto f = SysfsNumber(q + "fua")) d.fua = *f != 0;
  return d;
}

namespace {
std::atomic<uint64_t> resolve_device_calls{0};
}  // namespace

uint64_t ResolveDeviceCalls() { return resolve_device_calls.load(); }

Result<DeviceInfo> ResolveDevice(const std::string& dir) {
  resolve_device_calls.fetch_add(1);
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0)
    return Status::FromErrno(errno, "stat " + dir);
  dev_t dev = st.st_dev;
  std::string sys = SysfsForDev(dev);
  if (sys.empty()) {
    // btrfs and some others report an anonymous device; the mount source names
    // the real one.
    auto m = FindMount(dir);
    struct stat src {};
    if (m && m->source.rfind("/dev/", 0) == 0 &&
        stat(m->source.c_str(), &src) == 0 && S_ISBLK(src.st_mode)) {
      sys = SysfsForDev(src.st_rdev);
    }
  }
  if (sys.empty()) {
    FilesystemInfo f = ReadFilesystemInfo(dir);
    return Status::NotFound("no block device behind " + dir + " (filesystem " +
                            (f.type.empty() ? "unknown" : f.type) + ")");
  }
  std::vector<std::string> chain;
  std::string name;
  for (int hop = 0; hop < 16; hop++) {
    name = fs::path(sys).filename().string();
    if (fs::exists(sys + "/partition")) {
      std::string parent = fs::path(sys).parent_path().filename().string();
      chain.push_back(name + " (partition of " + parent + ")");
      sys = fs::path(sys).parent_path().string();
      continue;
    }
    std::string block = "/sys/block/" + name;
    if (fs::exists(block + "/dm/name") || fs::exists(block + "/md")) {
      std::string label = fs::exists(block + "/dm/name")
                              ? "device-mapper " + Sysfs(block + "/dm/name")
                              : "md";
      std::error_code ec;
      std::string first_slave;
      for (const auto& e : fs::directory_iterator(block + "/slaves", ec)) {
        first_slave = e.path().filename().string();
        break;
      }
      chain.push_back(name + " (" + label + ")");
      if (first_slave.empty()) break;
      char buf[PATH_MAX];
      std::string next = "/sys/class/block/" + first_slave;
      if (!realpath(next.c_str(), buf)) break;
      sys = buf;
      continue;
    }
    std::string backing = Sysfs(block + "/loop/backing_file");
    if (!backing.empty()) {
      chain.push_back(name + " (loop, backing file " + backing + ")");
      struct stat bst {};
      if (stat(backing.c_str(), &bst) != 0) break;
      std::string next = SysfsForDev(bst.st_dev);
      if (next.empty()) break;
      sys = next;
      continue;
    }
    chain.push_back(name);
    break;
  }
  DeviceInfo d = ReadDiskAttributes(name);
  d.chain = std::move(chain);
  return d;
}

}  // namespace disktune
