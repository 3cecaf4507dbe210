#include "probes/journal_trust.h"

#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <regex>

#include "probes/cgroup_throttle.h"
#include "probes/device_journal.h"
#include "probes/write_cache.h"
#include "src/core/sysinfo.h"

namespace disktune {
namespace {
namespace fs = std::filesystem;

std::string& SysRoot() {
  static std::string root = "/sys";
  return root;
}

Status Untrusted(const std::string& path, const std::string& why) {
  return Status::PermissionDenied(
      "device journal " + path + " " + why +
      ", so root does not act on it; check who wrote it, put back by hand "
      "what it lists, then delete it");
}

bool Matches(const std::string& s, const char* pattern) {
  return std::regex_match(s, std::regex(pattern));
}

// A path inside a disktune scratch directory: absolute, no "." or ".."
// component, one component named "disktune-..." above the last.
bool InsideScratch(const std::string& p) {
  if (p.empty() || p[0] != '/') return false;
  fs::path path(p);
  bool scratch = false;
  fs::path parent = path.parent_path();
  for (const auto& c : path) {
    std::string s = c.string();
    if (s == "." || s == "..") return false;
  }
  for (const auto& c : parent) {
    if (c.string().rfind("disktune-", 0) == 0) scratch = true;
  }
  return scratch;
}

Status Refuse(const JournalEntry& e, const std::string& why) {
  return Status::InvalidArgument("refused " + e.kind + " entry for " +
                                 e.target + ": " + why);
}

}  // namespace

void SetJournalSysRootForTesting(const std::string& sys_root) {
  SysRoot() = sys_root;
}

Status CheckJournalTrusted(const std::string& path) {
  if (geteuid() != 0) return Status::OK();
  struct stat st {};
  if (lstat(path.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) return Untrusted(path, "is not a regular file");
    if (st.st_uid != 0) {
      return Untrusted(
          path, "is owned by uid " + std::to_string(st.st_uid) + ", not root");
    }
    if (st.st_mode & (S_IWGRP | S_IWOTH))
      return Untrusted(path, "is writable by others");
  } else if (errno != ENOENT) {
    return Status::FromErrno(errno, "device journal " + path);
  }
  std::string dir = fs::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  struct stat dst {};
  if (stat(dir.c_str(), &dst) != 0) return Status::OK();  // made on first Add
  if (dst.st_uid != 0) {
    return Untrusted(path, "is in " + dir + ", owned by uid " +
                               std::to_string(dst.st_uid) + ", not root");
  }
  if ((dst.st_mode & S_IWOTH) != 0)
    return Untrusted(path, "is in " + dir + ", which everyone may write");
  return Status::OK();
}

std::string LoopNameOf(const std::string& target) {
  std::smatch m;
  static const std::regex kDev("^/dev/(loop[0-9]+)$");
  static const std::regex kSys("^/sys/block/(loop[0-9]+)/.*$");
  if (std::regex_match(target, m, kDev) || std::regex_match(target, m, kSys))
    return m[1];
  return "";
}

std::optional<LoopIdentity> ReadLoopIdentity(const std::string& loop_name) {
  std::string dev = "/dev/" + loop_name;
  int fd = open(dev.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct loop_info64 info {};
  int rc = ioctl(fd, LOOP_GET_STATUS64, &info);
  close(fd);
  if (rc != 0) return std::nullopt;  // ENXIO: not attached
  Result<std::string> file =
      ReadTextFile("/sys/block/" + loop_name + "/loop/backing_file");
  return LoopIdentity{
      info.lo_device, info.lo_inode,
      file.ok()
          ? *file
          : std::string(reinterpret_cast<const char*>(info.lo_file_name))};
}

Status ValidateJournalEntry(const JournalEntry& e) {
  const std::string& t = e.target;
  if (t.find("/../") != std::string::npos || t.find("/./") != std::string::npos)
    return Refuse(e, "the path is not in normal form");
  if (std::optional<CacheSwitchKind> kind = ParseCacheSwitchKind(e.kind)) {
    const std::string sys = SysRoot();
    bool ok = false;
    switch (*kind) {
      case CacheSwitchKind::kKernelView:
        ok = t.rfind(sys + "/block/", 0) == 0 &&
             Matches(t.substr(sys.size()), "^/block/[^/]+/queue/write_cache$");
        break;
      case CacheSwitchKind::kVirtioCacheType:
        ok = t.rfind(sys + "/block/", 0) == 0 &&
             Matches(t.substr(sys.size()), "^/block/vd[a-z]+/cache_type$");
        break;
      case CacheSwitchKind::kScsiCacheType:
        ok = t.rfind(sys + "/class/scsi_disk/", 0) == 0 &&
             Matches(t.substr(sys.size()),
                     "^/class/scsi_disk/[0-9:]+/cache_type$");
        break;
      case CacheSwitchKind::kHdparm:
        ok = Matches(t, "^/dev/sd[a-z]+$");
        break;
      case CacheSwitchKind::kNvmeFeature:
        ok = Matches(t, "^/dev/nvme[0-9]+(n[0-9]+)?$");
        break;
    }
    if (!ok) {
      return Refuse(e,
                    "not a write-cache switch disktune uses (a sysfs "
                    "attribute under /sys/block or /sys/class/scsi_disk, "
                    "or an sd/nvme device node)");
    }
    if (e.original != CacheValueFor(*kind, true) &&
        e.original != CacheValueFor(*kind, false)) {
      return Refuse(e, "'" + e.original + "' is not a write-cache setting");
    }
    if (!LoopNameOf(t).empty() && e.backing_inode == 0) {
      return Refuse(e,
                    "a loop device recorded without its backing file's "
                    "identity");
    }
    return Status::OK();
  }
  if (e.kind == kJournalLoopDevice) {
    if (LoopNameOf(t).empty() || t.rfind("/dev/", 0) != 0)
      return Refuse(e, "not a loop device node (/dev/loopN)");
    if (!InsideScratch(e.original))
      return Refuse(e, "its image is not inside a disktune scratch directory");
    if (e.backing_inode == 0)
      return Refuse(e, "recorded without its backing file's identity");
    return Status::OK();
  }
  if (e.kind == kJournalImageFile) {
    if (!InsideScratch(t) ||
        !Matches(fs::path(t).filename().string(),
                 "^(fsmatrix|throttle)-(ext3|ext4|xfs)\\.img$")) {
      return Refuse(
          e,
          "not a disktune image ({fsmatrix,throttle}-<fs>.img inside a "
          "disktune scratch directory)");
    }
    struct stat st {};
    if (lstat(t.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
      return Refuse(e, "not a regular file");
    return Status::OK();
  }
  if (e.kind == kJournalMount) {
    if (!InsideScratch(t) || !Matches(fs::path(t).filename().string(),
                                      "^(fsmatrix|throttle)-(ext3|ext4|xfs)$"))
      return Refuse(
          e,
          "not a disktune mount point ({fsmatrix,throttle}-<fs> inside a "
          "disktune scratch directory)");
    return Status::OK();
  }
  if (e.kind == kJournalCgroup) {
    if (!IsThrottleCgroupPath(t))
      return Refuse(e,
                    "not a disktune cgroup (disktune-throttle-<pid> at a "
                    "cgroup hierarchy's root)");
    return Status::OK();
  }
  return Refuse(e, "unknown kind");
}

}  // namespace disktune
