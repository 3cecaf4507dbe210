// The scratch directory: the only place a disktune command writes.
//
// Open() creates the directory (its parent must exist) or adopts an existing
// one, takes an exclusive lock (a second run on the same directory is refused),
// and checks it is writable. On destruction everything that was not there
// before is removed, and the directory itself when Open() created it — so a
// normal return, an error return and a SIGINT/SIGTERM (which unwinds through
// the command's normal return path) all leave the disk as it was.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>

#include "src/core/status.h"

namespace disktune {

class ScratchDir {
 public:
  // `flag` names the option for messages ("--dir").
  static Result<std::unique_ptr<ScratchDir>> Open(
      const std::string& path, const std::string& flag = "--dir");
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  // Absolute path of the directory.
  const std::string& path() const { return path_; }
  std::string Join(const std::string& name) const { return path_ + "/" + name; }

  // Free bytes available to this user on the directory's filesystem.
  Result<uint64_t> FreeBytes() const;
  // NoSpace naming `what` and both sizes when fewer than `need_bytes` are free.
  Status RequireFreeSpace(uint64_t need_bytes, const std::string& what) const;

  // Leave the files in place on exit (for --keep); the lock is still released.
  void Keep() { keep_ = true; }
  bool created() const { return created_; }

 private:
  ScratchDir() = default;
  void Cleanup();

  std::string path_;
  bool created_ = false;
  bool keep_ = false;
  int lock_fd_ = -1;
  std::set<std::string> preexisting_;
};

// Removes a file or a directory tree. Refuses paths outside `root` (defence in
// depth: nothing outside the scratch directory is ever removed).
Status RemoveTreeUnder(const std::string& root, const std::string& path);

}  // namespace disktune
