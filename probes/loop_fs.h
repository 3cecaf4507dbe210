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
  //
  // The image, the mount point and everything under them are reached through
  // `dir_fd` (the scratch directory's handle; `shown_dir` names it in
  // messages and the journal): the image is created O_EXCL | O_NOFOLLOW and
  // attached to a loop device by its open descriptor, the mount point is made
  // with mkdirat and given to mount(2)/umount2(2) as "/proc/<pid>/fd/<fd>/name"
  // (with --no-canonicalize, so no tool turns it back into a name).
  static Result<std::unique_ptr<LoopFs>> Create(
      int dir_fd, const std::string& shown_dir, const std::string& fs_type,
      uint64_t image_bytes, DeviceJournal* journal, LoopFsOptions options = {});
  // The same in a directory given by name (tests).
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
  // The mounted filesystem's root, opened through the handle (the caller
  // closes it); an error when the name no longer leads to the mount.
  Result<int> OpenMountRoot() const;
  // "/proc/<pid>/fd/<fd>/<mount name>[/<name>]", for an engine or a tool.
  std::string MountHandlePath(const std::string& name = "") const;

 private:
  LoopFs() = default;
  Status Setup(uint64_t image_bytes);
  Status CreateImage(uint64_t image_bytes, int* fd);
  Status Attach(int image_fd);
  Status UnmountByHandle(std::string* what);
  Status DetachByIdentity(std::string* what);
  Status DeleteImageByIdentity(std::string* what);

  DeviceJournal* journal_ = nullptr;
  LoopFsOptions options_;
  std::string device_number_;
  std::string fs_type_, image_, loop_device_, mount_point_, mount_options_;
  std::string image_entry_, loop_entry_, mount_entry_;
  std::string image_name_, mount_name_;  // relative to dir_fd_
  int dir_fd_ = -1;                      // a dup of the scratch handle
  dev_t dir_dev_ = 0;
  dev_t image_dev_ = 0;
  ino_t image_ino_ = 0;
  bool mounted_ = false;
};

// Undo actions, used by Teardown and by the journal.
Status UndoMount(const std::string& mount_point, std::string* what);
Status UndoLoopDevice(const std::string& device, const std::string& image,
                      std::string* what);
Status UndoImageFile(const std::string& image, std::string* what);
// Unmounts what is mounted from `device` and detaches it; the caller has
// checked the device is backed by its image (by device and inode).
Status DetachLoop(const std::string& device);

// Attaches the open file `image_fd` to a free loop device (LOOP_CONFIGURE:
// the file itself, not a name); returns "/dev/loopN". Busy when none is free.
Result<std::string> AttachLoop(int image_fd, const std::string& shown,
                               bool direct_io = false);
// umount2(path, UMOUNT_NOFOLLOW), retried while busy, then lazily; `how`
// gets "unmounted " or "lazily unmounted (it was busy) ".
Status UnmountPath(const std::string& path, const std::string& shown,
                   std::string* how);

// Loop devices ("/dev/loop3") whose backing file is `image`.
std::vector<std::string> LoopDevicesBackedBy(const std::string& image);
// Whether `path` is a mount point (per /proc/self/mounts).
bool IsMountPoint(const std::string& path);

}  // namespace disktune
