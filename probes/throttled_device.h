// `--throttle`: a device of a chosen class made on this machine. A loop
// device with direct I/O over an image in the scratch directory (so every
// byte still lands on the disk under --dir, and the host's page cache holds
// none of it), formatted like --dir's filesystem, mounted inside the scratch
// directory, and limited by a fresh cgroup (cgroup_throttle.h). Every object
// is journaled before it is made and undone on every exit path.
//
// Under cgroup v1 the kernel's flusher threads write buffered data back
// outside the writer's cgroup, so those bytes would escape the throttle. A
// pacer thread of this process (so inside the cgroup) starts writeback of
// every file on the throttled filesystem every 5 s; the bytes are then
// charged and throttled, and the flusher finds little left to write
// (benchmarks/README.md, "Device classes: what escapes the throttle").
//
// A spec with a sync floor sets it on the loop device while the device
// exists (src/core/sync_floor.h): every sync the probes and the LevelDB and
// RocksDB adapters issue on its filesystem then lasts at least the floor.
// Its counters are registered the same way (probes/throttle_meter.h), for
// the probe run's per-probe accounting.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "probes/cgroup_throttle.h"
#include "probes/device_journal.h"
#include "probes/loop_fs.h"
#include "src/model/throttle_spec.h"

namespace disktune {

class ThrottledDevice {
 public:
  // `fs_type`: ext3, ext4 or xfs. `cgroup_version` as CgroupThrottle takes
  // it (0: v2 when usable, else v1). Errors as LoopFs::Create and
  // CgroupThrottle::Create give them; nothing is left behind on error.
  static Result<std::unique_ptr<ThrottledDevice>> Create(
      const std::string& scratch_dir, const std::string& fs_type,
      uint64_t image_bytes, const ThrottleSpec& spec, int cgroup_version,
      DeviceJournal* journal);
  ~ThrottledDevice();
  ThrottledDevice(const ThrottledDevice&) = delete;
  ThrottledDevice& operator=(const ThrottledDevice&) = delete;

  const std::string& mount_point() const { return fs_->mount_point(); }
  const LoopFs& loop_fs() const { return *fs_; }
  const CgroupThrottle& cgroup() const { return *cgroup_; }

  // Moves this process into the cgroup (and starts the pacer under v1), and
  // back out.
  Status Enter();
  Status Leave();

  // Counters: bytes at the loop device (/sys/block/loopN/stat, since it
  // was attached) and bytes charged to the cgroup on it. A step's share is
  // the difference of two snapshots.
  ThrottleAccounting Snapshot() const;
  // What the report records; accounting since the filesystem was made.
  ThrottleRecord Record() const;

  // Leaves, removes the cgroup, unmounts, detaches, deletes; idempotent.
  Status Teardown();

 private:
  ThrottledDevice() = default;
  void PacerLoop();
  void StopPacer();

  ThrottleSpec spec_;
  std::string host_dir_;
  std::unique_ptr<LoopFs> fs_;
  std::unique_ptr<CgroupThrottle> cgroup_;
  ThrottleAccounting base_;
  std::thread pacer_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool pacer_off_ = false;
  dev_t floored_dev_ = 0;       // the device whose sync floor this set
  dev_t metered_dev_ = 0;       // the device whose meter this registered
  std::string journal_thread_;  // "jbd2/loop3" when it was moved in
};

// The filesystem a throttled device gets for a --dir on `host_type`: the
// same when it is ext3, ext4 or xfs, else ext4.
std::string ThrottleFilesystemFor(const std::string& host_type);

}  // namespace disktune
