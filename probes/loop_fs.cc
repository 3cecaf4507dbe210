#include "probes/loop_fs.h"

#include <fcntl.h>
#include <linux/loop.h>
#include <linux/magic.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "probes/device_info.h"
#include "probes/journal_objects.h"
#include "probes/journal_trust.h"
#include "src/core/scratch_dir.h"
#include "src/core/subprocess.h"
#include "src/core/sysinfo.h"
#include "src/core/units.h"

namespace disktune {
namespace {
namespace fs = std::filesystem;

constexpr uint64_t kCleanupTimeoutNs = 60000000000ull;
constexpr uint64_t kMkfsTimeoutNs = 300000000000ull;

std::string Trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// A command's failure as one line: "mount: /x: wrong fs type".
Status CommandFailed(const std::vector<std::string>& argv,
                     const SubprocessResult& r) {
  std::string msg = Trim(r.err.empty() ? r.out : r.err);
  auto nl = msg.find('\n');
  if (nl != std::string::npos) msg = msg.substr(0, nl);
  return Status::IOError(argv[0] + " " + argv.back() + " failed (exit " +
                         std::to_string(r.exit_code) + "): " + msg);
}

// Runs a cleanup command: not cut short by a pending interrupt.
Status RunCleanup(const std::vector<std::string>& argv) {
  Result<SubprocessResult> r =
      RunSubprocess(argv, kCleanupTimeoutNs, OnInterrupt::kFinish);
  if (!r.ok()) return r.status();
  if (r->exit_code != 0) return CommandFailed(argv, *r);
  return Status::OK();
}

// Mount points whose source is `device`, deepest first.
std::vector<std::string> MountsOf(const std::string& device) {
  std::ifstream in("/proc/self/mounts");
  std::string line;
  std::vector<std::string> out;
  while (std::getline(in, line)) {
    std::istringstream ss(line);
    std::string src, mp;
    ss >> src >> mp;
    if (src == device) out.insert(out.begin(), UnescapeMountField(mp));
  }
  return out;
}

const char* PackageFor(const std::string& fs_type) {
  return fs_type == "xfs" ? "xfsprogs" : "e2fsprogs";
}

}  // namespace

Result<std::string> AttachLoop(int image_fd, const std::string& shown,
                               bool direct_io) {
  int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
  if (ctl < 0) return Status::FromErrno(errno, "open /dev/loop-control");
  Status last = Status::Busy("no free loop device");
  // Another program may take the free device between the two calls.
  for (int attempt = 0; attempt < 8; attempt++) {
    int n = ioctl(ctl, LOOP_CTL_GET_FREE);
    if (n < 0) {
      last = Status::Busy(std::string("no free loop device: ") +
                          std::strerror(errno));
      break;
    }
    std::string dev = "/dev/loop" + std::to_string(n);
    int lfd = open(dev.c_str(), O_RDWR | O_CLOEXEC);
    if (lfd < 0) {
      last = Status::FromErrno(errno, "open " + dev);
      continue;
    }
    struct loop_config cfg {};
    cfg.fd = static_cast<uint32_t>(image_fd);
    if (direct_io) cfg.info.lo_flags |= LO_FLAGS_DIRECT_IO;
    std::strncpy(reinterpret_cast<char*>(cfg.info.lo_file_name), shown.c_str(),
                 LO_NAME_SIZE - 1);
    int rc = ioctl(lfd, LOOP_CONFIGURE, &cfg);
    int err = errno;
    close(lfd);
    if (rc == 0) {
      close(ctl);
      return dev;
    }
    last = Status::FromErrno(err, "attach " + shown + " to " + dev);
    if (err != EBUSY) break;
  }
  close(ctl);
  return last;
}

Status UnmountPath(const std::string& path, const std::string& shown,
                   std::string* how) {
  // A process still closing a file may keep it busy for a moment.
  int err = 0;
  for (int attempt = 0; attempt < 5; attempt++) {
    if (umount2(path.c_str(), UMOUNT_NOFOLLOW) == 0) {
      *how = "unmounted ";
      return Status::OK();
    }
    err = errno;
    if (err != EBUSY) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  // Detach it from the tree now; the kernel finishes when it is idle.
  if (err == EBUSY &&
      umount2(path.c_str(), MNT_DETACH | UMOUNT_NOFOLLOW) == 0) {
    *how = "lazily unmounted (it was busy) ";
    return Status::OK();
  }
  return Status::FromErrno(err, "unmount " + shown);
}

const std::vector<std::string>& MatrixFilesystems() {
  static const std::vector<std::string> kFs = {"ext3", "ext4", "xfs"};
  return kFs;
}

bool IsMountPoint(const std::string& path) {
  std::error_code ec;
  std::string want = fs::weakly_canonical(path, ec).string();
  std::ifstream in("/proc/self/mounts");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ss(line);
    std::string src, mp;
    ss >> src >> mp;
    std::string mount_point = UnescapeMountField(mp);
    if (mount_point == want || mount_point == path) return true;
  }
  return false;
}

std::vector<std::string> LoopDevicesBackedBy(const std::string& image) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/sys/block", ec)) {
    std::string name = e.path().filename().string();
    if (name.rfind("loop", 0) != 0) continue;
    Result<std::string> b =
        ReadTextFile(e.path().string() + "/loop/backing_file");
    if (!b.ok()) continue;
    std::string backing = *b;
    const std::string deleted = " (deleted)";
    if (backing.size() > deleted.size() &&
        backing.compare(backing.size() - deleted.size(), deleted.size(),
                        deleted) == 0) {
      backing.resize(backing.size() - deleted.size());
    }
    if (backing == image) out.push_back("/dev/" + name);
  }
  return out;
}

Status UndoMount(const std::string& mount_point, std::string* what) {
  if (!IsMountPoint(mount_point)) {
    rmdir(mount_point.c_str());
    *what = "nothing mounted on " + mount_point;
    return Status::OK();
  }
  Status s;
  // A process still closing a file may keep it busy for a moment.
  for (int attempt = 0; attempt < 5; attempt++) {
    s = RunCleanup({"umount", mount_point});
    if (s.ok()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  std::string how = "unmounted ";
  if (!s.ok()) {
    // Detach it from the tree now; the kernel finishes when it is idle.
    Status lazy = RunCleanup({"umount", "-l", mount_point});
    if (!lazy.ok()) return s;
    how = "lazily unmounted (it was busy) ";
  }
  rmdir(mount_point.c_str());
  *what = how + mount_point;
  return Status::OK();
}

Status UndoLoopDevice(const std::string& device, const std::string& image,
                      std::string* what) {
  std::string name = fs::path(device).filename().string();
  Result<std::string> b =
      ReadTextFile("/sys/block/" + name + "/loop/backing_file");
  if (!b.ok()) {
    *what = device + " is not attached any more";
    return Status::OK();
  }
  std::vector<std::string> mine = LoopDevicesBackedBy(image);
  if (std::find(mine.begin(), mine.end(), device) == mine.end()) {
    *what = device + " now backs " + *b + ", not " + image + ": left alone";
    return Status::OK();
  }
  DT_RETURN_IF_ERROR(DetachLoop(device));
  *what = "detached " + device + " (" + image + ")";
  return Status::OK();
}

Status DetachLoop(const std::string& device) {
  for (const auto& mp : MountsOf(device)) {
    std::string w;
    DT_RETURN_IF_ERROR(UndoMount(mp, &w));
  }
  return RunCleanup({"losetup", "-d", device});
}

Status UndoImageFile(const std::string& image, std::string* what) {
  std::string detached;
  for (const auto& dev : LoopDevicesBackedBy(image)) {
    std::string w;
    DT_RETURN_IF_ERROR(UndoLoopDevice(dev, image, &w));
    detached += "; " + w;
  }
  if (unlink(image.c_str()) != 0) {
    if (errno != ENOENT) return Status::FromErrno(errno, "delete " + image);
    *what = "image " + image + " already gone" + detached;
    return Status::OK();
  }
  *what = "deleted image " + image + detached;
  return Status::OK();
}

Result<std::unique_ptr<LoopFs>> LoopFs::Create(const std::string& scratch_dir,
                                               const std::string& fs_type,
                                               uint64_t image_bytes,
                                               DeviceJournal* journal,
                                               LoopFsOptions options) {
  int fd = open(scratch_dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno(errno, "open " + scratch_dir);
  auto l = Create(fd, scratch_dir, fs_type, image_bytes, journal, options);
  close(fd);
  return l;
}

Result<std::unique_ptr<LoopFs>> LoopFs::Create(
    int dir_fd, const std::string& scratch_dir, const std::string& fs_type,
    uint64_t image_bytes, DeviceJournal* journal, LoopFsOptions options) {
  if (std::find(MatrixFilesystems().begin(), MatrixFilesystems().end(),
                fs_type) == MatrixFilesystems().end()) {
    return Status::InvalidArgument("unknown filesystem '" + fs_type +
                                   "'; valid: ext3, ext4, xfs");
  }
  if (geteuid() != 0) {
    return Status::PermissionDenied(
        "needs root (losetup, mkfs, mount); run as root");
  }
  if (FindProgram("mkfs." + fs_type).empty()) {
    return Status::NotFound(std::string("mkfs.") + fs_type +
                            " is not installed (install " +
                            PackageFor(fs_type) + ")");
  }
  for (const char* prog : {"losetup", "mount", "umount"}) {
    if (FindProgram(prog).empty()) {
      return Status::NotFound(std::string(prog) +
                              " is not installed (install util-linux)");
    }
  }
  struct statfs sf {};
  if (fstatfs(dir_fd, &sf) == 0 &&
      (sf.f_type == TMPFS_MAGIC || sf.f_type == RAMFS_MAGIC)) {
    return Status::NotSupported(
        scratch_dir +
        " is in memory (tmpfs): an image there never reaches a "
        "disk; use a --dir on the disk to test");
  }
  struct statvfs sv {};
  if (fstatvfs(dir_fd, &sv) == 0) {
    uint64_t free_bytes = static_cast<uint64_t>(sv.f_bavail) * sv.f_frsize;
    if (free_bytes < image_bytes) {
      return Status::NoSpace("the " + fs_type + " image needs " +
                             FormatBytes(static_cast<double>(image_bytes)) +
                             " but " + scratch_dir + " has only " +
                             FormatBytes(static_cast<double>(free_bytes)) +
                             " free");
    }
  }
  std::unique_ptr<LoopFs> l(new LoopFs());
  l->journal_ = journal;
  l->fs_type_ = fs_type;
  l->options_ = options;
  l->image_name_ = options.name + "-" + fs_type + ".img";
  l->mount_name_ = options.name + "-" + fs_type;
  l->image_ = scratch_dir + "/" + l->image_name_;
  l->mount_point_ = scratch_dir + "/" + l->mount_name_;
  l->dir_fd_ = fcntl(dir_fd, F_DUPFD_CLOEXEC, 3);
  struct stat dst {};
  if (l->dir_fd_ < 0 || fstat(l->dir_fd_, &dst) != 0)
    return Status::FromErrno(errno, "open " + scratch_dir);
  l->dir_dev_ = dst.st_dev;
  Status s = l->Setup(image_bytes);
  if (!s.ok()) {
    Status t = l->Teardown();
    if (!t.ok()) s = s.WithContext("cleanup also failed: " + t.message());
    return s;
  }
  return l;
}

Status LoopFs::Setup(uint64_t image_bytes) {
  // Created before it is journaled, so the entry holds its identity; a run
  // killed in between leaves it in the scratch directory, which is journaled.
  int fd = -1;
  DT_RETURN_IF_ERROR(CreateImage(image_bytes, &fd));
  struct Closer {
    int fd;
    ~Closer() { close(fd); }
  } closer{fd};
  JournalEntry img;
  img.kind = kJournalImageFile;
  img.target = image_;
  img.description = fs_type_ + " image file";
  DT_RETURN_IF_ERROR(RecordIdentity(dir_fd_, image_name_, &img));
  Result<std::string> id = journal_->Add(img);
  if (!id.ok()) return id.status();
  image_entry_ = *id;
  // Attached by descriptor: losetup would turn any path back into a name.
  DT_RETURN_IF_ERROR(Attach(fd));

  // ext3/ext4 initialise inode tables and the journal now rather than in a
  // background thread that would write during the measurements.
  std::vector<std::string> mkfs = {"mkfs." + fs_type_, "-q"};
  if (fs_type_ == "xfs") {
    mkfs.push_back("-f");
  } else {
    mkfs.insert(mkfs.end(),
                {"-F", "-E", "lazy_itable_init=0,lazy_journal_init=0"});
  }
  mkfs.push_back(loop_device_);
  Result<SubprocessResult> r = RunSubprocess(mkfs, kMkfsTimeoutNs);
  if (!r.ok()) return r.status();
  if (r->exit_code != 0) return CommandFailed(mkfs, *r);

  if (mkdirat(dir_fd_, mount_name_.c_str(), 0700) != 0) {
    return Status::FromErrno(errno, "mkdir " + mount_point_);
  }
  JournalEntry mnt;
  mnt.kind = kJournalMount;
  mnt.target = mount_point_;
  mnt.description = fs_type_ + " mount of " + loop_device_;
  DT_RETURN_IF_ERROR(RecordIdentity(dir_fd_, mount_name_, &mnt));
  struct stat lst {};
  if (stat(loop_device_.c_str(), &lst) != 0 || !S_ISBLK(lst.st_mode))
    return Status::FromErrno(errno, "stat " + loop_device_);
  mnt.source_device = lst.st_rdev;
  id = journal_->Add(mnt);
  if (!id.ok()) return id.status();
  mount_entry_ = *id;
  // mount(2) itself: mount(8) canonicalizes the target into a name.
  if (mount(loop_device_.c_str(), MountHandlePath().c_str(), fs_type_.c_str(),
            MS_NOSUID | MS_NODEV, nullptr) != 0) {
    return Status::FromErrno(errno,
                             "mount " + loop_device_ + " on " + mount_point_);
  }
  mounted_ = true;
  // The per-mount and the superblock options, each once: "rw,relatime,inode64".
  std::stringstream opts(ReadFilesystemInfo(mount_point_).mount_options);
  std::vector<std::string> seen;
  for (std::string o; std::getline(opts, o, ',');) {
    if (o.empty() || std::find(seen.begin(), seen.end(), o) != seen.end())
      continue;
    seen.push_back(o);
    mount_options_ += (mount_options_.empty() ? "" : ",") + o;
  }
  return Status::OK();
}

Status LoopFs::Attach(int image_fd) {
  Result<std::string> attached =
      AttachLoop(image_fd, image_, options_.direct_io);
  if (!attached.ok()) {
    if (attached.status().code() != Status::Code::kBusy)
      return attached.status();
    return Status::Busy("no free loop device for the " + fs_type_ + " image (" +
                        attached.status().message() +
                        "); detach unused ones (losetup -a lists them) or "
                        "load the loop module");
  }
  loop_device_ = *attached;
  JournalEntry loop;
  loop.kind = kJournalLoopDevice;
  loop.target = loop_device_;
  loop.original = image_;
  loop.description = "loop device for the " + fs_type_ + " image";
  Result<std::string> id = journal_->Add(loop);
  if (!id.ok()) return id.status();
  loop_entry_ = *id;
  Result<std::string> dev = ReadTextFile("/sys/block/" + loop_name() + "/dev");
  if (dev.ok()) device_number_ = *dev;
  if (options_.direct_io) {
    // The kernel falls back to buffered I/O silently when the host refuses.
    Result<std::string> dio =
        ReadTextFile("/sys/block/" + loop_name() + "/loop/dio");
    if (!dio.ok() || *dio != "1") {
      return Status::NotSupported(
          "the filesystem under " + image_ + " refused direct I/O for " +
          loop_device_ +
          ", so the host's page cache would serve it; use a --dir on a "
          "filesystem with O_DIRECT (ext4, xfs)");
    }
  }
  return Status::OK();
}

std::string LoopFs::loop_name() const {
  return fs::path(loop_device_).filename().string();
}

Status LoopFs::CreateImage(uint64_t image_bytes, int* out) {
  Result<int> fd = CreateFileAt(dir_fd_, image_name_, O_RDWR, image_);
  if (!fd.ok()) return fd.status();
  struct stat st {};
  // Sparse: only what the filesystem writes takes space.
  if (fstat(*fd, &st) != 0 ||
      ftruncate(*fd, static_cast<off_t>(image_bytes)) != 0) {
    int err = errno;
    close(*fd);
    return Status::FromErrno(err, "size " + image_);
  }
  image_dev_ = st.st_dev;
  image_ino_ = st.st_ino;
  *out = *fd;
  return Status::OK();
}

Result<int> LoopFs::OpenMountRoot() const {
  int fd = openat(dir_fd_, mount_name_.c_str(),
                  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno(errno, "open " + mount_point_);
  struct stat st {};
  if (fstat(fd, &st) != 0 || st.st_dev == dir_dev_) {
    close(fd);
    return Status::IOError(mount_point_ + " is not the " + fs_type_ +
                           " filesystem mounted there");
  }
  return fd;
}

std::string LoopFs::MountHandlePath(const std::string& name) const {
  std::string p = FdPath(dir_fd_) + "/" + mount_name_;
  return name.empty() ? p : p + "/" + name;
}

Status LoopFs::UnmountByHandle(std::string* what) {
  struct stat st {};
  bool mounted =
      fstatat(dir_fd_, mount_name_.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
      S_ISDIR(st.st_mode) && st.st_dev != dir_dev_;
  std::string how = "unmounted ";
  if (mounted) {
    Status s = UnmountPath(MountHandlePath(), mount_point_, &how);
    if (!s.ok()) return s;
  }
  unlinkat(dir_fd_, mount_name_.c_str(), AT_REMOVEDIR);
  *what = (mounted ? how : "nothing mounted on ") + mount_point_;
  return Status::OK();
}

Status LoopFs::DetachByIdentity(std::string* what) {
  std::optional<LoopIdentity> now = ReadLoopIdentity(loop_name());
  if (!now) {
    *what = loop_device_ + " is not attached any more";
    return Status::OK();
  }
  if (now->device != image_dev_ || now->inode != image_ino_) {
    *what = loop_device_ + " now backs " + now->file + ", not " + image_ +
            ": left alone";
    return Status::OK();
  }
  DT_RETURN_IF_ERROR(RunCleanup({"losetup", "-d", loop_device_}));
  *what = "detached " + loop_device_ + " (" + image_ + ")";
  return Status::OK();
}

Status LoopFs::DeleteImageByIdentity(std::string* what) {
  struct stat st {};
  if (fstatat(dir_fd_, image_name_.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    *what = "image " + image_ + " already gone";
    return Status::OK();
  }
  if (st.st_dev != image_dev_ || st.st_ino != image_ino_) {
    *what = image_ + " is not the image created: left alone";
    return Status::OK();
  }
  DT_RETURN_IF_ERROR(UnlinkAt(dir_fd_, image_name_, image_));
  *what = "deleted image " + image_;
  return Status::OK();
}

Status LoopFs::Teardown() {
  Status first;
  std::string what;
  if (dir_fd_ < 0) return first;
  if (!mount_entry_.empty()) {
    Status s = UnmountByHandle(&what);
    if (s.ok()) {
      (void)journal_->Remove(mount_entry_);
      mount_entry_.clear();
      mounted_ = false;
    } else if (first.ok()) {
      first = s;
    }
  } else {
    unlinkat(dir_fd_, mount_name_.c_str(), AT_REMOVEDIR);
  }
  if (!loop_entry_.empty() && first.ok()) {
    Status s = DetachByIdentity(&what);
    if (s.ok()) {
      (void)journal_->Remove(loop_entry_);
      loop_entry_.clear();
    } else {
      first = s;
    }
  }
  if (image_ino_ != 0 && first.ok()) {
    Status s = DeleteImageByIdentity(&what);
    if (s.ok()) {
      image_ino_ = 0;
      if (!image_entry_.empty()) (void)journal_->Remove(image_entry_);
      image_entry_.clear();
    } else {
      first = s;
    }
  }
  return first;
}

LoopFs::~LoopFs() {
  (void)Teardown();
  if (dir_fd_ >= 0) close(dir_fd_);
}

}  // namespace disktune
