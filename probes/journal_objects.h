// Undoing the journal's filesystem objects by identity, never by name.
//
// An image file, a mount point and a scratch directory are journaled with the
// device and inode they had when created, and those of the directory holding
// them (a mount also with the device mounted on it). Restore opens the
// holding directory, checks it is still the one recorded, and acts on the
// object relative to that handle (fstatat/unlinkat/umount2 with
// UMOUNT_NOFOLLOW through /proc/<pid>/fd), only when the object's identity
// still matches: a name someone renamed, replaced or pointed elsewhere with a
// symbolic link is left alone, with a line saying so.
#pragma once

#include <string>

#include "probes/device_journal.h"
#include "src/core/status.h"

namespace disktune {

// Fills e->object_* and e->parent_* from `dir_fd` (the holding directory)
// and the object `name` in it (not followed when a link).
Status RecordIdentity(int dir_fd, const std::string& name, JournalEntry* e);

// The undo actions of the three kinds; `what` gets one line.
Status UndoScratchDirEntry(const JournalEntry& e, std::string* what);
Status UndoMountEntry(const JournalEntry& e, std::string* what);
Status UndoImageEntry(const JournalEntry& e, std::string* what);

}  // namespace disktune
