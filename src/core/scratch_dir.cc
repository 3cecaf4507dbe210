#include "src/core/scratch_dir.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "src/core/sysinfo.h"
#include "src/core/units.h"

namespace disktune {
namespace fs = std::filesystem;

namespace {

// How many "-<n>" suffixes to try before giving up on a unique name; each
// try is one mkdir, and only another process creating the same names in the
// same second makes a second try necessary.
constexpr int kMaxNameTries = 1000;

// The path itself is left out: at 4 KiB it would bury the line.
Status PathTooLong(const std::string& flag, const std::string& p) {
  return Status::InvalidArgument(
      flag + ": the path is too long (" + std::to_string(p.size()) +
      " bytes; Linux takes at most " + std::to_string(PATH_MAX - 1) +
      " bytes, " + std::to_string(NAME_MAX) +
      " per component); choose a shorter " + flag);
}

Status AccessError(int err, const std::string& flag, const std::string& p,
                   const std::string& what) {
  if (err == EACCES || err == EROFS || err == EPERM) {
    return Status::PermissionDenied(flag + " " + p + " is not writable (" +
                                    std::strerror(err) +
                                    "); choose a writable directory");
  }
  if (err == ENOSPC || err == EDQUOT) {
    return Status::NoSpace(flag + " " + p + ": no space to create " + what +
                           "; free some space or choose another " + flag);
  }
  if (err == ENAMETOOLONG) return PathTooLong(flag, p);
  if (err == ENOTDIR) {
    return Status::InvalidArgument(
        flag + " " + p +
        ": a component of the path is a file, not a directory; pass a "
        "directory");
  }
  return Status::FromErrno(err, flag + " " + p + ": " + what);
}

// Resolves the --dir value to an absolute path without trailing slashes, and
// makes sure it names a directory (creating it when only it is missing).
Status PrepareParent(const std::string& given, const std::string& flag,
                     std::string* abs_out, bool* created) {
  std::error_code ec;
  fs::path abs = given.empty() ? fs::current_path(ec)
                               : fs::absolute(given, ec).lexically_normal();
  if (ec) return Status::FromErrno(ec.value(), "current directory");
  std::string p = abs.string();
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  *abs_out = p;
  struct stat st {};
  if (stat(p.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) {
      return Status::InvalidArgument(
          flag + " " + p + " is a file, not a directory; pass a directory");
    }
    return Status::OK();
  }
  int err = errno;
  struct stat lst {};
  if (lstat(p.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
    std::error_code rec;
    fs::path target = fs::read_symlink(p, rec);
    return Status::InvalidArgument(
        flag + " " + p + " is a symbolic link to " + target.string() +
        ", which does not exist; create the target or pass another " + flag);
  }
  if (err != ENOENT) return AccessError(err, flag, p, "stat");
  std::string parent = fs::path(p).parent_path().string();
  struct stat pst {};
  if (stat(parent.c_str(), &pst) != 0 || !S_ISDIR(pst.st_mode)) {
    return Status::NotFound(flag + " " + p + ": parent directory " + parent +
                            " does not exist; create it first or choose "
                            "another " +
                            flag);
  }
  if (mkdir(p.c_str(), 0755) != 0) return AccessError(errno, flag, p, "mkdir");
  *created = true;
  return Status::OK();
}

}  // namespace

Result<std::unique_ptr<ScratchDir>> ScratchDir::Create(
    const std::string& parent, const std::string& flag) {
  std::unique_ptr<ScratchDir> dir(new ScratchDir());
  DT_RETURN_IF_ERROR(
      PrepareParent(parent, flag, &dir->parent_path_, &dir->parent_created_));
  const std::string& pp = dir->parent_path_;
  // The operator named it, so a symbolic link is followed; from here on
  // the handle is used, not the name.
  dir->parent_fd_ = open(pp.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir->parent_fd_ < 0) return AccessError(errno, flag, pp, "open");
  struct stat pst {};
  if (fstat(dir->parent_fd_, &pst) != 0)
    return Status::FromErrno(errno, "stat " + pp);
  dir->parent_dev_ = pst.st_dev;
  dir->parent_ino_ = pst.st_ino;

  std::string base =
      "disktune-" + LocalStamp() + "-" + std::to_string(getpid());
  for (int n = 1; n <= kMaxNameTries; n++) {
    std::string name = n == 1 ? base : base + "-" + std::to_string(n);
    // 0700: no other user may create, rename or read anything inside.
    if (mkdirat(dir->parent_fd_, name.c_str(), 0700) == 0) {
      dir->name_ = name;
      break;
    }
    if (errno != EEXIST)
      return AccessError(errno, flag, pp, "a scratch directory");
  }
  if (dir->name_.empty()) {
    return Status::Busy(flag + " " + pp + ": no free name for a scratch " +
                        "directory after " + std::to_string(kMaxNameTries) +
                        " tries; choose another " + flag);
  }
  dir->path_ = pp == "/" ? "/" + dir->name_ : pp + "/" + dir->name_;
  dir->dir_fd_ = openat(dir->parent_fd_, dir->name_.c_str(),
                        O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dir->dir_fd_ < 0) {
    int err = errno;
    unlinkat(dir->parent_fd_, dir->name_.c_str(), AT_REMOVEDIR);
    dir->name_.clear();
    return Status::FromErrno(err, "open " + dir->path_);
  }
  struct stat st {};
  fstat(dir->dir_fd_, &st);
  dir->dev_ = st.st_dev;
  dir->ino_ = st.st_ino;
  // mkdirat applies the umask: set the mode on the handle, not the name.
  fchmod(dir->dir_fd_, 0700);
  dir->pid_ = getpid();
  // Every consumer given a path reaches the directory through /proc: check
  // once that it resolves to the directory just created.
  struct stat hst {};
  if (stat(dir->HandlePath().c_str(), &hst) != 0 || hst.st_dev != st.st_dev ||
      hst.st_ino != st.st_ino) {
    return Status::NotSupported(
        "/proc/" + std::to_string(dir->pid_) + "/fd does not reach " +
        dir->path_ +
        " (is /proc mounted?); disktune opens its scratch directory only "
        "through its handle there; mount /proc");
  }
  // Held for the life of the run: a live run's scratch is locked.
  flock(dir->dir_fd_, LOCK_EX | LOCK_NB);
  return dir;
}

ScratchDir::~ScratchDir() {
  Remove();
  if (on_end_) on_end_(gone_ || keep_);
  if (dir_fd_ >= 0) close(dir_fd_);
  if (parent_fd_ >= 0) close(parent_fd_);
}

void ScratchDir::Remove() {
  if (removed_ || keep_ || dir_fd_ < 0 || name_.empty()) return;
  removed_ = true;
  RemoveContentsAt(dir_fd_, dev_, path_, &leftover_);
  // Only the directory created, under the name it was created with.
  struct stat st {};
  if (fstatat(parent_fd_, name_.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
      st.st_dev == dev_ && st.st_ino == ino_) {
    gone_ = unlinkat(parent_fd_, name_.c_str(), AT_REMOVEDIR) == 0;
  } else {
    // Renamed away during the run: what it held is removed; the directory
    // itself stays wherever it was moved (its name is not ours now).
    leftover_ += path_ + " was renamed or replaced during the run; the " +
                 "directory disktune made (now empty) was left where it was " +
                 "moved\n";
  }
  if (parent_created_) {
    // Removed only when empty (rmdir refuses otherwise) and still the same.
    struct stat pst {};
    if (stat(parent_path_.c_str(), &pst) == 0 && pst.st_dev == parent_dev_ &&
        pst.st_ino == parent_ino_) {
      rmdir(parent_path_.c_str());
    }
  }
}

void RemoveContentsAt(int dir_fd, dev_t dev, const std::string& shown_path,
                      std::string* leftover) {
  int fd = dup(dir_fd);
  if (fd < 0) return;
  DIR* d = fdopendir(fd);
  if (!d) {
    close(fd);
    return;
  }
  rewinddir(d);
  // Collect first: unlinking while reading a directory may skip entries.
  std::vector<std::string> names;
  while (struct dirent* e = readdir(d)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  for (const std::string& n : names) {
    struct stat st {};
    if (fstatat(dir_fd, n.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    std::string shown = shown_path + "/" + n;
    if (S_ISDIR(st.st_mode)) {
      if (st.st_dev != dev) {
        *leftover += shown + " is a mount point; unmount it, then remove it\n";
        continue;
      }
      int sub = openat(dir_fd, n.c_str(),
                       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub >= 0) {
        RemoveContentsAt(sub, dev, shown, leftover);
        close(sub);
      }
      if (unlinkat(dir_fd, n.c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT &&
          errno != ENOTEMPTY) {
        *leftover += shown + ": " + std::strerror(errno) + "\n";
      }
    } else if (unlinkat(dir_fd, n.c_str(), 0) != 0 && errno != ENOENT) {
      *leftover += shown + ": " + std::strerror(errno) + "\n";
    }
  }
  closedir(d);
}

std::string FdPath(int fd) {
  return "/proc/" + std::to_string(getpid()) + "/fd/" + std::to_string(fd);
}

Result<int> CreateFileAt(int dir_fd, const std::string& name, int flags,
                         const std::string& shown) {
  int fd = openat(dir_fd, name.c_str(),
                  flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return Status::FromErrno(errno, "create " + shown);
  return fd;
}

Result<int> OpenFileAt(int dir_fd, const std::string& name, int flags,
                       const std::string& shown) {
  int fd = openat(dir_fd, name.c_str(), flags | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno(errno, "open " + shown);
  return fd;
}

Status UnlinkAt(int dir_fd, const std::string& name, const std::string& shown) {
  if (unlinkat(dir_fd, name.c_str(), 0) != 0 && errno != ENOENT)
    return Status::FromErrno(errno, "delete " + shown);
  return Status::OK();
}

std::string ScratchDir::HandlePath(const std::string& name) const {
  std::string p =
      "/proc/" + std::to_string(pid_) + "/fd/" + std::to_string(dir_fd_);
  return name.empty() ? p : p + "/" + name;
}

Result<int> ScratchDir::CreateFile(const std::string& name, int flags) const {
  return CreateFileAt(dir_fd_, name, flags, Join(name));
}

Result<int> ScratchDir::OpenFile(const std::string& name, int flags) const {
  return OpenFileAt(dir_fd_, name, flags, Join(name));
}

Status ScratchDir::Unlink(const std::string& name) const {
  return UnlinkAt(dir_fd_, name, Join(name));
}

Status ScratchDir::MakeSubdir(const std::string& name) const {
  if (mkdirat(dir_fd_, name.c_str(), 0700) != 0 && errno != EEXIST)
    return Status::FromErrno(errno, "mkdir " + Join(name));
  struct stat st {};
  if (fstatat(dir_fd_, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 ||
      !S_ISDIR(st.st_mode)) {
    return Status::IOError(Join(name) + " is not a directory");
  }
  return Status::OK();
}

void ScratchDir::RemoveTree(const std::string& name) const {
  struct stat st {};
  if (fstatat(dir_fd_, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return;
  if (!S_ISDIR(st.st_mode)) {
    unlinkat(dir_fd_, name.c_str(), 0);
    return;
  }
  int sub = openat(dir_fd_, name.c_str(),
                   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (sub < 0) return;
  std::string ignored;
  RemoveContentsAt(sub, dev_, Join(name), &ignored);
  close(sub);
  unlinkat(dir_fd_, name.c_str(), AT_REMOVEDIR);
}

Result<uint64_t> ScratchDir::FreeBytes() const {
  struct statvfs sv {};
  if (fstatvfs(dir_fd_, &sv) != 0)
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

}  // namespace disktune
