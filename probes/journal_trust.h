// What root may believe of a device journal before acting on it.
//
// `disktune restore` (and the start of every probe) runs as root and acts on
// what the journal says: it writes sysfs attributes, detaches loop devices,
// unmounts and deletes image files. So, when running as root:
// - the journal is read only when root owns it, no one else can write it,
//   and its directory is root's and not writable by everyone;
// - each entry must name something disktune could have created: a write
//   cache only through its sysfs attribute or device node, a loop device as
//   /dev/loopN with the backing file's device and inode it had, an image or
//   a mount point only inside a disktune scratch directory (a path component
//   "disktune-...") under the names disktune gives them.
// Anything else is refused with a line saying what and why.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

#include "src/core/status.h"

namespace disktune {

struct JournalEntry;

// PermissionDenied naming the journal when root must not trust it; OK when
// not root (an unprivileged run cannot change a device) or when it is safe.
// A journal that does not exist is checked through its directory.
Status CheckJournalTrusted(const std::string& journal_path);

// InvalidArgument saying why `e` names something disktune never creates.
Status ValidateJournalEntry(const JournalEntry& e);

// The file behind a loop device, as the kernel has it.
// All three: an inode number is reused as soon as a deleted image's inode is
// freed, so the next run's image can have the same (device, inode).
struct LoopIdentity {
  uint64_t device = 0;  // st_dev of the backing file
  uint64_t inode = 0;
  std::string file;  // its path, as /sys/block/loopN/loop/backing_file has it
  bool operator==(const LoopIdentity&) const = default;
};
// "loop3" -> its backing file's identity; nullopt when not attached.
std::optional<LoopIdentity> ReadLoopIdentity(const std::string& loop_name);
// "/sys/block/loop3/queue/write_cache" or "/dev/loop3" -> "loop3"; "" when the
// target is not a loop device.
std::string LoopNameOf(const std::string& target);

// Tests stand regular files in for /sys (they cannot switch a real cache
// without a device): the validation then takes `sys_root` for "/sys".
void SetJournalSysRootForTesting(const std::string& sys_root);

}  // namespace disktune
