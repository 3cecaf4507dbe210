// The scratch directory: the only place a disktune command writes.
//
// Create() makes a fresh directory "disktune-<stamp>-<pid>" (with "-<n>"
// added until the name is free) inside the directory the operator named with
// --dir, or inside the current directory. It never adopts a directory that
// already exists, so nothing a user or another program keeps beside it can be
// touched. When the named --dir does not exist, it is created too (its own
// parent must exist) and removed at the end if it is empty by then.
//
// Cleanup works from the handle taken at creation, never from a listing of a
// shared directory: everything inside the fresh directory is disktune's, and
// is removed without following symbolic links or crossing into another
// filesystem (a mount left behind is reported, not emptied); the directory
// itself is removed only if the name still refers to the same inode.
//
// Files inside are reached only through the handle (the directory is 0700,
// its files 0600): CreateFile/OpenFile/Unlink/MakeSubdir act relative to it,
// never following a symbolic link, and a consumer that must be given a path
// (an engine, fio, mkfs, mount) gets HandlePath(name), which is
// "/proc/<pid>/fd/<fd>/name": the kernel resolves it through this process's
// open handle, so renaming --dir, the scratch directory or anything above
// them, or planting a symbolic link under the old name, changes nothing (see
// DESIGN.md, safety rules).
//
// A normal return, an error return and any handled signal (SIGINT, SIGTERM,
// SIGHUP, SIGQUIT, SIGPIPE: all unwind through the command's normal return
// path) run the destructor.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "src/core/status.h"

namespace disktune {

class ScratchDir {
 public:
  // `parent`: the --dir value, "" for the current directory. `flag` names the
  // option for messages ("--dir").
  static Result<std::unique_ptr<ScratchDir>> Create(
      const std::string& parent, const std::string& flag = "--dir");
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  // Absolute path of the fresh directory, for messages and reports only: it
  // names what was created, and another user may have moved it since.
  const std::string& path() const { return path_; }
  std::string Join(const std::string& name) const { return path_ + "/" + name; }

  // The directory's handle, open (and locked) for the life of the object.
  int fd() const { return dir_fd_; }
  // "/proc/<pid>/fd/<fd>[/<name>]": reaches `name` in the directory created
  // whatever happens to the names above it. The pid is this process's (not
  // "self"), so a child process it runs resolves the same handle.
  std::string HandlePath(const std::string& name = "") const;
  // Creates `name` exclusively (O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
  // mode 0600) with `flags` added (O_RDWR, O_DIRECT...); returns the fd,
  // which the caller closes.
  Result<int> CreateFile(const std::string& name, int flags) const;
  // Opens an existing `name` (O_NOFOLLOW | O_CLOEXEC added).
  Result<int> OpenFile(const std::string& name, int flags) const;
  // Removes file `name`; OK when it is already gone.
  Status Unlink(const std::string& name) const;
  // Creates directory `name` (0700); OK when this run already made it.
  Status MakeSubdir(const std::string& name) const;
  // Removes `name` and everything under it, without following links.
  void RemoveTree(const std::string& name) const;

  // Free bytes available to this user on the directory's filesystem.
  Result<uint64_t> FreeBytes() const;
  // NoSpace naming `what` and both sizes when fewer than `need_bytes` are free.
  Status RequireFreeSpace(uint64_t need_bytes, const std::string& what) const;

  // The directory holding it (--dir) and its name there, for recording its
  // identity (the device journal).
  int parent_fd() const { return parent_fd_; }
  const std::string& name() const { return name_; }
  // Called once as the object ends, after Remove(), with whether the
  // directory is gone or kept on purpose (--keep): the CLI then drops the
  // journal entry that lets `restore` remove it after a SIGKILL.
  void SetOnEnd(std::function<void(bool done)> f) { on_end_ = std::move(f); }

  // Leave the files in place on exit (for --keep).
  void Keep() { keep_ = true; }
  bool kept() const { return keep_; }
  // Whether Create() also made the --dir it was given.
  bool created_parent() const { return parent_created_; }

  // What cleanup could not remove (a mount point still in use, a file on
  // another filesystem), one line each; filled by Remove().
  const std::string& leftover() const { return leftover_; }
  // Removes the directory now (the destructor does it otherwise).
  void Remove();

 private:
  ScratchDir() = default;

  std::string path_;
  pid_t pid_ = 0;            // the process holding dir_fd_
  std::string name_;         // the fresh directory's name inside the parent
  std::string parent_path_;  // absolute
  int parent_fd_ = -1;       // the parent, held open
  int dir_fd_ = -1;          // the fresh directory, held open and locked
  dev_t dev_ = 0;
  ino_t ino_ = 0;
  dev_t parent_dev_ = 0;
  ino_t parent_ino_ = 0;
  bool parent_created_ = false;
  bool keep_ = false;
  bool removed_ = false;
  bool gone_ = false;  // Remove() removed the directory
  std::function<void(bool)> on_end_;
  std::string leftover_;
};

// Removes everything inside the directory open as `dir_fd`, without following
// symbolic links and without descending into directories on another device
// than `dev`. Appends one line per entry it could not remove to *leftover.
// The same operations on any directory handle `dir_fd` (a loop mount's root
// opened through the scratch handle); `shown` names the file in messages.
Result<int> CreateFileAt(int dir_fd, const std::string& name, int flags,
                         const std::string& shown);
Result<int> OpenFileAt(int dir_fd, const std::string& name, int flags,
                       const std::string& shown);
Status UnlinkAt(int dir_fd, const std::string& name, const std::string& shown);
// "/proc/<pid>/fd/<fd>" for this process's descriptor `fd`.
std::string FdPath(int fd);

void RemoveContentsAt(int dir_fd, dev_t dev, const std::string& shown_path,
                      std::string* leftover);

}  // namespace disktune
