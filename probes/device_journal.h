// The journal of device changes (what root trusts of it: journal_trust.h):
// every device setting disktune changes (a write cache) and every system object
// it creates outside the scratch directory's files (a loop device, a mount, the
// image behind them) is written here, durably, *before* the change, and removed
// once undone.
//
// It lives in one fixed place, /var/lib/disktune/journal.json (root is needed
// for every change it records; $DISKTUNE_JOURNAL overrides it, for tests), so
// that a run killed with SIGKILL or a power cut can be repaired: the next
// `disktune probe`/`run` and `disktune restore` undo entries whose process is
// gone. Entries of a run that is still going are left alone.
//
// Inside one process the objects that make a change undo it in their
// destructors (normal return, error return, SIGINT/SIGTERM, which unwind
// through the normal return path); an exit handler undoes whatever this
// process still has in the journal as a last resort.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "src/core/status.h"

namespace disktune {

inline constexpr const char* kJournalDefaultPath =
    "/var/lib/disktune/journal.json";

// Kinds besides the CacheSwitchKindName()s of write_cache.h.
inline constexpr const char* kJournalMount = "mount";
inline constexpr const char* kJournalLoopDevice = "loop_device";
inline constexpr const char* kJournalImageFile = "image_file";
// A --throttle cgroup (cgroup_throttle.h); target: its directory.
inline constexpr const char* kJournalCgroup = "cgroup";

struct JournalEntry {
  std::string id;  // "<pid>-<n>"
  int pid = 0;
  uint64_t pid_start_ticks = 0;  // tells a reused pid from the owner
  std::string created_at;
  std::string kind;
  // Cache kinds: the sysfs file or device node. mount: the mount point.
  // loop_device: "/dev/loopN". image_file: the image's path. cgroup: its
  // directory.
  std::string target;
  // Cache kinds: the raw value to put back. loop_device: its backing image.
  std::string original;
  std::string applied;      // cache kinds: the value that was set
  std::string description;  // for the operator: "write cache of loop0"
  // When the target is a loop device: the file behind it when the entry was
  // written (a loop number is reused by the next losetup, so the number
  // alone does not say it is still ours). 0 = not a loop device.
  uint64_t backing_device = 0;
  uint64_t backing_inode = 0;
  std::string backing_file;
};
void to_json(nlohmann::json& j, const JournalEntry& e);
void from_json(const nlohmann::json& j, JournalEntry& e);

struct RestoreOutcome {
  std::vector<std::string> restored;  // one line per undone entry
  std::vector<std::string>
      failed;  // one line per entry that could not be undone
  std::vector<std::string> running;  // entries of runs still in progress
};

class DeviceJournal {
 public:
  // $DISKTUNE_JOURNAL when set, else kJournalDefaultPath.
  static std::string DefaultPath();
  explicit DeviceJournal(std::string path) : path_(std::move(path)) {}
  const std::string& path() const { return path_; }

  // Records `e` as owned by this process and syncs it to disk; returns its id.
  // The first Add of a process installs the exit-time safety net.
  Result<std::string> Add(JournalEntry e);
  // Drops an entry once its change is undone.
  Status Remove(const std::string& id);
  // All entries, oldest first; none when the file does not exist.
  // Corruption naming the file when it is not a journal.
  Result<std::vector<JournalEntry>> Load() const;
  // Undoes, newest first, the entries whose process is gone (and this
  // process's own when `include_own`), removing each one undone. An entry
  // that cannot be undone stays, and is reported in `failed`.
  Result<RestoreOutcome> Restore(bool include_own);

 private:
  Status Save(const std::vector<JournalEntry>& entries) const;
  std::string path_;
};

// The journal this process records its changes in (DefaultPath()).
DeviceJournal& ProcessJournal();
// Undoes one entry; `what` gets one line saying what was done.
Status UndoJournalEntry(const JournalEntry& e, std::string* what);
// Whether the process that wrote `e` is still running.
bool JournalOwnerAlive(const JournalEntry& e);

}  // namespace disktune
