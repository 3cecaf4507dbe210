// A scratch filesystem on a loop device: an image file in the scratch
// directory (so it lives on the disk under test), attached with losetup,
// formatted with mkfs and mounted under the scratch directory. Each step is
// recorded in the device journal before it is taken, and undone in reverse on
// every exit path (Teardown / destructor; the journal after a SIGKILL).
// Teardown commands run even when an interrupt is pending.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "probes/device_journal.h"
#include "src/core/status.h"

namespace disktune {

// The filesystems --fs-matrix accepts, in the order they are reported.
const std::vector<std::string>& MatrixFilesystems();

// How the loop filesystem is made. `name` prefixes the image and the mount
// point ("<name>-<fs>.img", "<name>-<fs>"); the journal accepts "fsmatrix"
// and "throttle". `direct_io` attaches the loop device with direct I/O to
// the image, so the host's page cache holds nothing of it (NotSupported when
// the host filesystem refuses).
struct LoopFsOptions {
  std::string name = "fsmatrix";
  bool direct_io = false;
};

class LoopFs {
 public:
  // PermissionDenied without root, NotFound when mkfs.<fs> or losetup is
  // missing (naming the package), NotSupported for a scratch directory in
  // memory (tmpfs), NoSpace when the image does not fit, Busy when no loop
  // device is free. Whatever was set up is undone before an error returns.
  static Result<std::unique_ptr<LoopFs>> Create(const std::string& scratch_dir,
                                                const std::string& fs_type,
                                                uint64_t image_bytes,
                                                DeviceJournal* journal,
                                                LoopFsOptions options = {});
  ~LoopFs();
  LoopFs(const LoopFs&) = delete;
  LoopFs& operator=(const LoopFs&) = delete;

  // Unmounts, detaches and deletes; idempotent. Keeps the journal entry of a
  // step that failed, for `disktune restore`.
  Status Teardown();

  const std::string& fs_type() const { return fs_type_; }
  const std::string& mount_point() const { return mount_point_; }
  const std::string& loop_device() const {
    return loop_device_;
  }                               // "/dev/loop3"
  std::string loop_name() const;  // "loop3"
  // "7:3", for cgroup limits and /sys/dev/block.
  const std::string& device_number() const { return device_number_; }
  const std::string& image() const { return image_; }
  const std::string& mount_options() const { return mount_options_; }

 private:
  LoopFs() = default;
  Status Setup(uint64_t image_bytes);
  Status Attach();

  DeviceJournal* journal_ = nullptr;
  LoopFsOptions options_;
  std::string fs_type_, image_, loop_device_, mount_point_, mount_options_;
  std::string device_number_;
  std::string image_entry_, loop_entry_, mount_entry_;
  bool mounted_ = false;
};

// Undo actions, used by Teardown and by the journal.
Status UndoMount(const std::string& mount_point, std::string* what);
Status UndoLoopDevice(const std::string& device, const std::string& image,
                      std::string* what);
Status UndoImageFile(const std::string& image, std::string* what);

// Loop devices ("/dev/loop3") whose backing file is `image`.
std::vector<std::string> LoopDevicesBackedBy(const std::string& image);
// Whether `path` is a mount point (per /proc/self/mounts).
bool IsMountPoint(const std::string& path);

}  // namespace disktune
