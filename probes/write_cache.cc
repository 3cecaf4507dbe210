#include "probes/write_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "src/core/json_fields.h"
#include "src/core/subprocess.h"
#include "src/core/sysinfo.h"

namespace disktune {
namespace {
namespace fs = std::filesystem;

constexpr uint64_t kCommandTimeoutNs = 30000000000ull;

bool StartsWith(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

std::string Sysfs(const std::string& path) {
  Result<std::string> r = ReadTextFile(path);
  return r.ok() ? *r : "";
}

// sysfs makes an attribute writable only when the driver can change it.
bool Writable(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && (st.st_mode & S_IWUSR);
}

std::string ScsiCacheTypePath(const std::string& disk) {
  std::error_code ec;
  std::string dir = "/sys/block/" + disk + "/device/scsi_disk";
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::string p = e.path().string() + "/cache_type";
    if (fs::exists(p, ec)) return p;
  }
  return "";
}

bool IsAta(const std::string& disk) {
  return Sysfs("/sys/block/" + disk + "/device/vendor") == "ATA";
}

// "hdparm -W /dev/sda" prints " write-caching =  1 (on)".
Result<std::string> HdparmRead(const std::string& dev) {
  Result<SubprocessResult> r = RunSubprocess(
      {"hdparm", "-W", dev}, kCommandTimeoutNs, OnInterrupt::kFinish);
  if (!r.ok()) return r.status();
  auto pos = r->out.find("write-caching");
  if (r->exit_code != 0 || pos == std::string::npos) {
    std::string msg = r->err.empty() ? r->out : r->err;
    while (!msg.empty() && msg.back() == '\n') msg.pop_back();
    return Status::NotSupported("hdparm -W " + dev + ": " + msg);
  }
  auto eq = r->out.find('=', pos);
  if (eq == std::string::npos)
    return Status::Corruption("hdparm -W: unexpected output");
  size_t d = r->out.find_first_of("01", eq);
  if (d == std::string::npos ||
      r->out.find("not supported", pos) != std::string::npos) {
    return Status::NotSupported("hdparm -W " + dev +
                                ": write-caching not supported");
  }
  return std::string(1, r->out[d]);
}

// The drive-level switch of a whole disk and its view, when there is one.
DriveCacheView ReadDrive(const std::string& disk,
                         std::optional<CacheSwitch>* sw) {
  DriveCacheView d;
  if (StartsWith(disk, "loop")) {
    d.note =
        "a loop device has no drive cache: a flush makes the loop driver "
        "fsync its backing file";
    return d;
  }
  if (StartsWith(disk, "sd") && IsAta(disk) && !FindProgram("hdparm").empty()) {
    d.source = "hdparm -W";
    Result<std::string> raw = HdparmRead("/dev/" + disk);
    if (raw.ok()) {
      d.raw = *raw;
      d.enabled = *raw == "1";
      d.switchable = true;
      *sw = CacheSwitch{CacheSwitchKind::kHdparm, disk, "/dev/" + disk};
      return d;
    }
    d.note = raw.status().message();
  }
  if (StartsWith(disk, "sd")) {
    std::string path = ScsiCacheTypePath(disk);
    if (!path.empty()) {
      d.source = "scsi cache_type";
      d.raw = Sysfs(path);
      d.enabled = StartsWith(d.raw, "write back");
      d.switchable = Writable(path);
      if (d.switchable)
        *sw = CacheSwitch{CacheSwitchKind::kScsiCacheType, disk, path};
      if (IsAta(disk) && d.note.empty()) {
        d.note =
            "ATA disk read through the SCSI layer (hdparm is not installed)";
      }
      return d;
    }
  }
  if (StartsWith(disk, "nvme")) {
    d.source = "nvme feature 0x06";
    std::string ctrl = NvmeControllerFor(disk);
    Result<bool> vwc = NvmeVolatileCachePresent(ctrl);
    if (!vwc.ok()) {
      d.note = vwc.status().message();
      return d;
    }
    d.volatile_cache_present = *vwc;
    if (!*vwc) {
      d.enabled = false;
      d.note = "the controller reports no volatile write cache (VWC bit 0 = 0)";
      return d;
    }
    Result<bool> on = NvmeWriteCacheEnabled(ctrl);
    if (!on.ok()) {
      d.note = on.status().message();
      return d;
    }
    d.enabled = *on;
    d.raw = *on ? "1" : "0";
    d.switchable = true;
    *sw = CacheSwitch{CacheSwitchKind::kNvmeFeature, disk, ctrl};
    return d;
  }
  std::string virtio = "/sys/block/" + disk + "/cache_type";
  if (StartsWith(disk, "vd") && fs::exists(virtio)) {
    d.source = "virtio cache_type";
    d.raw = Sysfs(virtio);
    d.enabled = StartsWith(d.raw, "write back");
    d.switchable = Writable(virtio);
    if (d.switchable) {
      *sw = CacheSwitch{CacheSwitchKind::kVirtioCacheType, disk, virtio};
    } else {
      d.note =
          "read-only: the hypervisor did not offer VIRTIO_BLK_F_CONFIG_WCE, so "
          "the host's cache mode decides what a flush means";
    }
    return d;
  }
  if (d.note.empty()) d.note = "no drive cache interface known for " + disk;
  return d;
}

}  // namespace

WriteCacheView ReadWriteCacheView(const std::string& disk) {
  WriteCacheView v;
  v.disk = disk;
  v.kernel_view = Sysfs("/sys/block/" + disk + "/queue/write_cache");
  std::string fua = Sysfs("/sys/block/" + disk + "/queue/fua");
  if (!fua.empty()) v.fua = fua != "0";
  std::optional<CacheSwitch> sw;
  v.drive = ReadDrive(disk, &sw);
  return v;
}

const char* CacheSwitchKindName(CacheSwitchKind k) {
  switch (k) {
    case CacheSwitchKind::kScsiCacheType:
      return "scsi_cache_type";
    case CacheSwitchKind::kHdparm:
      return "hdparm";
    case CacheSwitchKind::kNvmeFeature:
      return "nvme_feature_6";
    case CacheSwitchKind::kVirtioCacheType:
      return "virtio_cache_type";
    case CacheSwitchKind::kKernelView:
      return "kernel_write_cache";
  }
  return "kernel_write_cache";
}

std::optional<CacheSwitchKind> ParseCacheSwitchKind(const std::string& name) {
  for (CacheSwitchKind k :
       {CacheSwitchKind::kScsiCacheType, CacheSwitchKind::kHdparm,
        CacheSwitchKind::kNvmeFeature, CacheSwitchKind::kVirtioCacheType,
        CacheSwitchKind::kKernelView}) {
    if (name == CacheSwitchKindName(k)) return k;
  }
  return std::nullopt;
}

std::string CacheSwitch::Describe() const {
  switch (kind) {
    case CacheSwitchKind::kScsiCacheType:
      return "drive: SCSI cache_type (" + target + ")";
    case CacheSwitchKind::kHdparm:
      return "drive: hdparm -W (" + target + ")";
    case CacheSwitchKind::kNvmeFeature:
      return "drive: NVMe feature 0x06 volatile write cache (" + target + ")";
    case CacheSwitchKind::kVirtioCacheType:
      return "drive: virtio-blk cache_type (" + target + ")";
    case CacheSwitchKind::kKernelView:
      return "kernel view only: " + target +
             " (stops flushes; the device's cache is not changed)";
  }
  return target;
}

Result<CacheSwitch> ChooseCacheSwitch(const std::string& cache_device,
                                      const std::string& disk,
                                      bool allow_kernel_view) {
  if (StartsWith(cache_device, "loop")) {
    return CacheSwitch{CacheSwitchKind::kKernelView, cache_device,
                       "/sys/block/" + cache_device + "/queue/write_cache"};
  }
  std::optional<CacheSwitch> sw;
  DriveCacheView d = ReadDrive(disk, &sw);
  if (sw) return *sw;
  if (allow_kernel_view) {
    return CacheSwitch{CacheSwitchKind::kKernelView, disk,
                       "/sys/block/" + disk + "/queue/write_cache"};
  }
  std::string why =
      d.note.empty() ? "its drive cache cannot be switched" : d.note;
  return Status::NotSupported(
      disk + " has no drive-level cache switch (" + why +
      "); pass --kernel-cache-switch to compare with the kernel's view only, "
      "which stops flushes (fast, not durable)");
}

Result<std::string> ReadCacheSwitch(const CacheSwitch& sw) {
  switch (sw.kind) {
    case CacheSwitchKind::kHdparm:
      return HdparmRead(sw.target);
    case CacheSwitchKind::kNvmeFeature: {
      Result<bool> on = NvmeWriteCacheEnabled(sw.target);
      if (!on.ok()) return on.status();
      return std::string(*on ? "1" : "0");
    }
    default: {
      Result<std::string> r = ReadTextFile(sw.target);
      if (!r.ok()) return r.status();
      // cache_type reads without the "temporary " prefix it is written with.
      return *r;
    }
  }
}

bool CacheValueEnabled(CacheSwitchKind kind, const std::string& raw) {
  if (kind == CacheSwitchKind::kHdparm ||
      kind == CacheSwitchKind::kNvmeFeature) {
    return raw == "1";
  }
  return StartsWith(raw, "write back") ||
         StartsWith(raw, "temporary write back");
}

std::string CacheValueFor(CacheSwitchKind kind, bool enabled) {
  if (kind == CacheSwitchKind::kHdparm ||
      kind == CacheSwitchKind::kNvmeFeature) {
    return enabled ? "1" : "0";
  }
  return enabled ? "write back" : "write through";
}

Status WriteSysfs(const std::string& path, const std::string& value) {
  // O_TRUNC as a shell's "echo v > file" does; sysfs ignores it.
  int fd = open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno(errno, "open " + path);
  ssize_t w;
  do {
    w = write(fd, value.data(), value.size());
  } while (w < 0 && errno == EINTR);
  int err = errno;
  close(fd);
  if (w < 0) return Status::FromErrno(err, "write '" + value + "' to " + path);
  return Status::OK();
}

Status WriteCacheSwitch(CacheSwitchKind kind, const std::string& target,
                        const std::string& raw) {
  switch (kind) {
    case CacheSwitchKind::kHdparm: {
      Result<SubprocessResult> r =
          RunSubprocess({"hdparm", "-W" + raw, target}, kCommandTimeoutNs,
                        OnInterrupt::kFinish);
      if (!r.ok()) return r.status();
      if (r->exit_code != 0) {
        return Status::IOError("hdparm -W" + raw + " " + target + ": " +
                               r->err);
      }
      return Status::OK();
    }
    case CacheSwitchKind::kNvmeFeature:
      return NvmeSetWriteCache(target, raw == "1");
    case CacheSwitchKind::kScsiCacheType:
      // "temporary": the drive's saved setting is not touched, so a power
      // cycle also brings the original back.
      return WriteSysfs(
          target, StartsWith(raw, "temporary ") ? raw : "temporary " + raw);
    default:
      return WriteSysfs(target, raw);
  }
}

}  // namespace disktune
