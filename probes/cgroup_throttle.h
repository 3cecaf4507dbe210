// A cgroup that limits one block device's I/O (the throttle's half of
// `--throttle`): cgroup v2 io.max where the io controller is enabled on the
// unified hierarchy (it charges buffered writeback too), else cgroup v1
// blkio.throttle.{read,write}_{iops,bps}_device. The cgroup is made fresh
// ("disktune-throttle-<pid>" at the hierarchy's root), journaled before
// mkdir, and removed by Teardown, the destructor or `disktune restore`.
#pragma once

#include <memory>
#include <string>

#include "probes/device_journal.h"
#include "src/core/status.h"
#include "src/model/throttle_spec.h"

namespace disktune {

// Where each hierarchy is mounted, from /proc/self/mounts; "" when absent.
struct CgroupMounts {
  std::string v1_blkio;  // "/sys/fs/cgroup/blkio"
  std::string v2;        // "/sys/fs/cgroup/unified" or "/sys/fs/cgroup"
  // Whether v2's root has io in cgroup.subtree_control (children get io.max).
  bool v2_io = false;
};
CgroupMounts FindCgroupMounts();
// Why cgroup v2 io.max cannot be used here, or "" when it can.
std::string CgroupV2Unavailable(const CgroupMounts& m);

struct CgroupIoBytes {
  uint64_t read_bytes = 0, write_bytes = 0;
};

class CgroupThrottle {
 public:
  // `device` is "MAJ:MIN". `version` 0 picks v2 when usable, else v1; 1 or 2
  // asks for that one (NotSupported with the reason when it is missing).
  // PermissionDenied without root.
  static Result<std::unique_ptr<CgroupThrottle>> Create(
      const std::string& device, const ThrottleLimits& limits, int version,
      DeviceJournal* journal);
  ~CgroupThrottle();
  CgroupThrottle(const CgroupThrottle&) = delete;
  CgroupThrottle& operator=(const CgroupThrottle&) = delete;

  // Moves this whole process (every thread; threads made later follow) in,
  // and back to the cgroup it came from.
  Status Enter();
  Status Leave();
  // Moves a kernel thread that writes for the device (its filesystem's
  // journal thread) into the cgroup, so its I/O is charged there. It goes
  // back to the root with every other task when the cgroup is removed
  // (Teardown, or `restore` after a kill).
  Status Adopt(pid_t pid);
  bool entered() const { return entered_; }
  // Bytes charged to the cgroup on the device so far.
  Result<CgroupIoBytes> Charged() const;
  // Leaves, then removes the cgroup; idempotent.
  Status Teardown();

  int version() const { return version_; }
  const std::string& path() const { return path_; }
  // "cgroup v1 blkio.throttle" / "cgroup v2 io.max".
  std::string mechanism() const;

 private:
  CgroupThrottle() = default;
  Status Setup(const ThrottleLimits& limits);

  DeviceJournal* journal_ = nullptr;
  int version_ = 1;
  std::string root_, path_, device_, home_, entry_;
  bool entered_ = false;
};

// Whether the cgroup this process is in limits the write IOPS of the device
// `path` lives on (cgroup v1 blkio.throttle.write_iops_device, or wiops in
// v2 io.max): such a throttle charges every bio, so a write split into
// several bios is charged several times.
bool OwnCgroupLimitsWriteIops(const std::string& path);

// Moves whatever is left in the cgroup to its hierarchy's root and removes
// it (the journal's undo after a SIGKILL).
Status UndoCgroup(const std::string& path, std::string* what);
// Whether `path` names a cgroup disktune makes: a "disktune-throttle-<n>"
// directly under a cgroup hierarchy's root.
bool IsThrottleCgroupPath(const std::string& path);

}  // namespace disktune
