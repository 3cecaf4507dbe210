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
// A normal return, an error return and any handled signal (SIGINT, SIGTERM,
// SIGHUP, SIGQUIT, SIGPIPE: all unwind through the command's normal return
// path) run the destructor.
#pragma once

#include <sys/types.h>

#include <cstdint>
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

  // Absolute path of the fresh directory.
  const std::string& path() const { return path_; }
  std::string Join(const std::string& name) const { return path_ + "/" + name; }

  // Free bytes available to this user on the directory's filesystem.
  Result<uint64_t> FreeBytes() const;
  // NoSpace naming `what` and both sizes when fewer than `need_bytes` are free.
  Status RequireFreeSpace(uint64_t need_bytes, const std::string& what) const;

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
  std::string leftover_;
};

// Removes everything inside the directory open as `dir_fd`, without following
// symbolic links and without descending into directories on another device
// than `dev`. Appends one line per entry it could not remove to *leftover.
void RemoveContentsAt(int dir_fd, dev_t dev, const std::string& shown_path,
                      std::string* leftover);

}  // namespace disktune
