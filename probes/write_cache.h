// A disk's volatile write cache: what the drive reports (ATA via hdparm -W,
// SCSI/SATA via /sys/class/scsi_disk/*/cache_type, NVMe feature 0x06 with the
// controller's VWC bit, virtio-blk's cache_type), what the kernel believes
// (/sys/block/X/queue/write_cache) and FUA support, and the switches that
// change it.
//
// The drive's switch turns its cache off: syncs then wait for the media. The
// kernel-view switch only stops the kernel from sending flushes: fsync gets
// fast without getting durable, so it is used only on loop devices (where it
// is the loop driver's fsync of the backing file that is skipped) or when
// the operator asks for it explicitly.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "src/core/status.h"
#include "src/model/write_cache_view.h"

namespace disktune {

// Never fails: what cannot be read is left empty with a note.
WriteCacheView ReadWriteCacheView(const std::string& disk);

enum class CacheSwitchKind {
  kScsiCacheType,  // /sys/class/scsi_disk/H:C:T:L/cache_type ("temporary ...")
  kHdparm,         // hdparm -W0/-W1 /dev/sdX
  kNvmeFeature,    // NVMe Set Features 0x06, not saved across power cycles
  kVirtioCacheType,  // /sys/block/vdX/cache_type (VIRTIO_BLK_F_CONFIG_WCE)
  kKernelView,       // /sys/block/X/queue/write_cache
};
// Stable names, stored in the journal: "scsi_cache_type", "hdparm",
// "nvme_feature_6", "virtio_cache_type", "kernel_write_cache".
const char* CacheSwitchKindName(CacheSwitchKind k);
std::optional<CacheSwitchKind> ParseCacheSwitchKind(const std::string& name);

struct CacheSwitch {
  CacheSwitchKind kind = CacheSwitchKind::kKernelView;
  std::string disk;    // "sda", "loop0"
  std::string target;  // the sysfs file or the device node it acts on
  bool drive_level() const { return kind != CacheSwitchKind::kKernelView; }
  // "drive: SCSI cache_type (/sys/class/scsi_disk/0:0:0:0/cache_type)".
  std::string Describe() const;
};

// The switch for an A/B of the cache that `cache_device` (the filesystem's
// device) writes through to `disk` (the physical disk):
//  1. a loop device: its kernel view (a loop device has no drive cache);
//  2. the drive's own switch on `disk`, when it has one that can be set;
//  3. the kernel view of `disk`, only when `allow_kernel_view`;
// otherwise NotSupported saying why and which flag would allow the kernel view.
Result<CacheSwitch> ChooseCacheSwitch(const std::string& cache_device,
                                      const std::string& disk,
                                      bool allow_kernel_view);

// The switch's current raw value ("write back", "1"), to restore later.
Result<std::string> ReadCacheSwitch(const CacheSwitch& sw);
// Whether a raw value means the cache is on.
bool CacheValueEnabled(CacheSwitchKind kind, const std::string& raw);
// The raw value that turns the cache on / off.
std::string CacheValueFor(CacheSwitchKind kind, bool enabled);
// Writes a raw value (as read, or from CacheValueFor). Does not consult the
// interrupt flag: it is also the restore path.
Status WriteCacheSwitch(CacheSwitchKind kind, const std::string& target,
                        const std::string& raw);

// Writes a sysfs attribute; the error names the file.
Status WriteSysfs(const std::string& path, const std::string& value);

// NVMe admin commands (write_cache_nvme.cc). `ctrl` is "/dev/nvme0".
std::string NvmeControllerFor(const std::string& disk);
Result<bool> NvmeVolatileCachePresent(const std::string& ctrl);
Result<bool> NvmeWriteCacheEnabled(const std::string& ctrl);
Status NvmeSetWriteCache(const std::string& ctrl, bool enabled);

}  // namespace disktune
