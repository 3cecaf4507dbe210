#include "probes/journal_objects.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "probes/journal_trust.h"
#include "probes/loop_fs.h"
#include "src/core/scratch_dir.h"
#include "src/core/sysinfo.h"

namespace disktune {
namespace {
namespace fs = std::filesystem;

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

// Opens the directory holding e.target; OK with fd -1 and `what` set when it
// is gone or is no longer the directory recorded.
Status OpenHolder(const JournalEntry& e, Fd* holder, std::string* name,
                  std::string* what) {
  fs::path p(e.target);
  *name = p.filename().string();
  std::string dir = p.parent_path().string();
  holder->fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (holder->fd < 0) {
    if (errno != ENOENT) return Status::FromErrno(errno, "open " + dir);
    *what = e.description + ": " + dir + " is gone; nothing to undo";
    return Status::OK();
  }
  struct stat st {};
  if (fstat(holder->fd, &st) != 0)
    return Status::FromErrno(errno, "stat " + dir);
  if (st.st_dev != e.parent_device || st.st_ino != e.parent_inode) {
    close(holder->fd);
    holder->fd = -1;
    *what = e.description + ": " + dir +
            " is no longer the directory disktune made (renamed or "
            "replaced); " +
            e.target + " left alone";
  }
  return Status::OK();
}

// What a journal entry's target is now: its holder directory (when still
// the one recorded) and the target's stat, not following a link.
struct Found {
  Fd holder;
  std::string name;
  struct stat st {};
  bool present = false;
};

// Finds e.target through its recorded holder; `present` false, with `what`
// saying why, when the holder or the target is gone or replaced.
Status FindTarget(const JournalEntry& e, const std::string& kind, Found* f,
                  std::string* what) {
  DT_RETURN_IF_ERROR(OpenHolder(e, &f->holder, &f->name, what));
  if (f->holder.fd < 0) return Status::OK();
  if (fstatat(f->holder.fd, f->name.c_str(), &f->st, AT_SYMLINK_NOFOLLOW) !=
      0) {
    if (errno != ENOENT) return Status::FromErrno(errno, "stat " + e.target);
    *what = kind + " " + e.target + " is already gone";
    return Status::OK();
  }
  f->present = true;
  return Status::OK();
}

bool SameObject(const struct stat& st, const JournalEntry& e) {
  return st.st_dev == e.object_device && st.st_ino == e.object_inode;
}

std::string DeviceName(uint64_t dev) {
  return std::to_string(major(dev)) + ":" + std::to_string(minor(dev));
}

// Loop devices whose backing file is (device, inode).
std::vector<std::string> LoopsBacking(uint64_t device, uint64_t inode) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& d : fs::directory_iterator("/sys/block", ec)) {
    std::string n = d.path().filename().string();
    if (n.rfind("loop", 0) != 0) continue;
    std::optional<LoopIdentity> id = ReadLoopIdentity(n);
    if (id && id->device == device && id->inode == inode)
      out.push_back("/dev/" + n);
  }
  return out;
}

}  // namespace

Status RecordIdentity(int dir_fd, const std::string& name, JournalEntry* e) {
  struct stat pst {
  }, st{};
  if (fstat(dir_fd, &pst) != 0 ||
      fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    return Status::FromErrno(errno, "stat " + e->target);
  }
  e->parent_device = pst.st_dev;
  e->parent_inode = pst.st_ino;
  e->object_device = st.st_dev;
  e->object_inode = st.st_ino;
  return Status::OK();
}

Status UndoScratchDirEntry(const JournalEntry& e, std::string* what) {
  Found f;
  DT_RETURN_IF_ERROR(FindTarget(e, "scratch directory", &f, what));
  if (!f.present) return Status::OK();
  Fd dir;
  dir.fd = openat(f.holder.fd, f.name.c_str(),
                  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st {};
  if (dir.fd < 0 || fstat(dir.fd, &st) != 0 || !SameObject(st, e)) {
    *what = "scratch directory " + e.target +
            " is not the directory disktune made (renamed, replaced or a "
            "link); left alone";
    return Status::OK();
  }
  // A live run holds its scratch directory locked (its own exit handler
  // excepted: the lock is on another descriptor of this process).
  if (e.pid != getpid() && flock(dir.fd, LOCK_EX | LOCK_NB) != 0)
    return Status::Busy(e.target + " is locked by a running disktune");
  std::string leftover;
  RemoveContentsAt(dir.fd, st.st_dev, e.target, &leftover);
  if (!leftover.empty()) {
    return Status::IOError("could not empty " + e.target + ": " +
                           leftover.substr(0, leftover.find('\n')));
  }
  if (unlinkat(f.holder.fd, f.name.c_str(), AT_REMOVEDIR) != 0 &&
      errno != ENOENT)
    return Status::FromErrno(errno, "remove " + e.target);
  *what = "removed scratch directory " + e.target + " left by killed pid " +
          std::to_string(e.pid);
  return Status::OK();
}

Status UndoMountEntry(const JournalEntry& e, std::string* what) {
  Found f;
  DT_RETURN_IF_ERROR(FindTarget(e, "mount point", &f, what));
  if (!f.present) return Status::OK();
  struct stat& st = f.st;
  if (!S_ISDIR(st.st_mode)) {
    *what = e.target + " is not a directory any more; left alone";
    return Status::OK();
  }
  std::string how = "nothing mounted on ";
  if (st.st_dev != e.parent_device) {
    // Mounted: only the device recorded is unmounted.
    if (st.st_dev != e.source_device) {
      *what = e.target + " has another filesystem mounted (device " +
              DeviceName(st.st_dev) + ", not " + DeviceName(e.source_device) +
              " which disktune mounted); left alone";
      return Status::OK();
    }
    DT_RETURN_IF_ERROR(
        UnmountPath(FdPath(f.holder.fd) + "/" + f.name, e.target, &how));
    if (fstatat(f.holder.fd, f.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
      st = {};
  }
  if (SameObject(st, e)) unlinkat(f.holder.fd, f.name.c_str(), AT_REMOVEDIR);
  *what = how + e.target;
  return Status::OK();
}

Status UndoImageEntry(const JournalEntry& e, std::string* what) {
  Found f;
  DT_RETURN_IF_ERROR(FindTarget(e, "image", &f, what));
  if (!f.present) return Status::OK();
  if (!S_ISREG(f.st.st_mode) || !SameObject(f.st, e)) {
    *what = e.target + " is not the image disktune made; left alone";
    return Status::OK();
  }
  std::string detached;
  for (const std::string& dev : LoopsBacking(e.object_device, e.object_inode)) {
    DT_RETURN_IF_ERROR(DetachLoop(dev));
    detached += "; detached " + dev;
  }
  DT_RETURN_IF_ERROR(UnlinkAt(f.holder.fd, f.name, e.target));
  *what = "deleted image " + e.target + detached;
  return Status::OK();
}

}  // namespace disktune
