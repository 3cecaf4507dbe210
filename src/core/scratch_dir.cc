#include "src/core/scratch_dir.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include "src/core/units.h"

namespace disktune {
namespace fs = std::filesystem;

namespace {
constexpr const char* kLockName = ".disktune.lock";
}

Result<std::unique_ptr<ScratchDir>> ScratchDir::Open(const std::string& path,
                                                     const std::string& flag) {
  if (path.empty())
    return Status::InvalidArgument(flag + " is empty; pass a directory path");
  std::error_code ec;
  fs::path abs = fs::absolute(path, ec).lexically_normal();
  std::string p = abs.string();
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  std::unique_ptr<ScratchDir> dir(new ScratchDir());
  dir->path_ = p;

  struct stat st {};
  if (stat(p.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) {
      return Status::InvalidArgument(
          flag + " " + p +
          " is a file, not a directory; pass a directory path");
    }
    for (const auto& e : fs::directory_iterator(p, ec)) {
      dir->preexisting_.insert(e.path().filename().string());
    }
    if (ec)
      return Status::FromErrno(ec.value(), flag + " " + p + ": cannot list");
  } else {
    fs::path parent = abs.parent_path();
    if (!fs::is_directory(parent, ec)) {
      return Status::NotFound(
          flag + " " + p + ": parent directory " + parent.string() +
          " does not exist; create it first or choose another " + flag);
    }
    if (mkdir(p.c_str(), 0755) != 0) {
      int err = errno;
      if (err == EACCES || err == EROFS || err == EPERM) {
        return Status::PermissionDenied(
            flag + " " + p + ": cannot create it (" + std::strerror(err) +
            "); choose a writable directory");
      }
      return Status::FromErrno(err, flag + " " + p + ": mkdir");
    }
    dir->created_ = true;
  }

  std::string lock_path = dir->Join(kLockName);
  int fd = open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    int err = errno;
    if (err == EACCES || err == EROFS || err == EPERM) {
      return Status::PermissionDenied(flag + " " + p + " is not writable (" +
                                      std::strerror(err) +
                                      "); choose a writable directory");
    }
    return Status::FromErrno(err, flag + " " + p + ": create lock file");
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int err = errno;
    std::string holder;
    char buf[32] = {};
    if (pread(fd, buf, sizeof(buf) - 1, 0) > 0) {
      std::string pid = buf;
      while (!pid.empty() && pid.back() == '\n') pid.pop_back();
      holder = " (pid " + pid + ")";
    }
    close(fd);
    if (err == EWOULDBLOCK) {
      // Not ours: leave the directory and its lock file alone.
      dir->preexisting_.insert(kLockName);
      dir->created_ = false;
      dir->keep_ = true;
      return Status::Busy(flag + " " + p +
                          " is in use by another disktune run" + holder +
                          "; wait for it to finish or choose another " + flag);
    }
    return Status::FromErrno(err, flag + " " + p + ": lock");
  }
  std::string pid = std::to_string(getpid()) + "\n";
  if (ftruncate(fd, 0) != 0 || pwrite(fd, pid.data(), pid.size(), 0) < 0) {
    int err = errno;
    close(fd);
    return Status::FromErrno(err, flag + " " + p + ": write lock file");
  }
  dir->lock_fd_ = fd;
  return dir;
}

ScratchDir::~ScratchDir() { Cleanup(); }

void ScratchDir::Cleanup() {
  if (!keep_ && !path_.empty()) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(path_, ec)) {
      std::string name = e.path().filename().string();
      if (name == kLockName || preexisting_.count(name)) continue;
      (void)RemoveTreeUnder(path_, e.path().string());
    }
  }
  if (lock_fd_ >= 0) {
    if (!keep_ && !preexisting_.count(kLockName))
      unlink(Join(kLockName).c_str());
    close(lock_fd_);
    lock_fd_ = -1;
  }
  if (!keep_ && created_) rmdir(path_.c_str());
}

Result<uint64_t> ScratchDir::FreeBytes() const {
  struct statvfs sv {};
  if (statvfs(path_.c_str(), &sv) != 0)
    return Status::FromErrno(errno, "statvfs " + path_);
  return static_cast<uint64_t>(sv.f_bavail) * sv.f_frsize;
}

Status ScratchDir::RequireFreeSpace(uint64_t need_bytes,
                                    const std::string& what) const {
  Result<uint64_t> free_bytes = FreeBytes();
  if (!free_bytes.ok()) return free_bytes.status();
  if (*free_bytes < need_bytes) {
    return Status::NoSpace(
        what + " needs " + FormatBytes(static_cast<double>(need_bytes)) +
        " but " + path_ + " has only " +
        FormatBytes(static_cast<double>(*free_bytes)) +
        " free; free some space, choose a smaller size or another --dir");
  }
  return Status::OK();
}

Status RemoveTreeUnder(const std::string& root, const std::string& path) {
  fs::path r = fs::path(root).lexically_normal();
  fs::path p = fs::path(path).lexically_normal();
  auto rel = p.lexically_relative(r);
  if (rel.empty() || rel.native().rfind("..", 0) == 0 || rel == ".") {
    return Status::InvalidArgument("refusing to remove " + path + ": outside " +
                                   root);
  }
  std::error_code ec;
  fs::remove_all(p, ec);
  if (ec) return Status::FromErrno(ec.value(), "remove " + path);
  return Status::OK();
}

}  // namespace disktune
