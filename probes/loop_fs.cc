#include "probes/loop_fs.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "probes/device_info.h"
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
  for (const auto& mp : MountsOf(device)) {
    std::string w;
    DT_RETURN_IF_ERROR(UndoMount(mp, &w));
  }
  DT_RETURN_IF_ERROR(RunCleanup({"losetup", "-d", device}));
  *what = "detached " + device + " (" + image + ")";
  return Status::OK();
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
  if (statfs(scratch_dir.c_str(), &sf) == 0 &&
      (sf.f_type == TMPFS_MAGIC || sf.f_type == RAMFS_MAGIC)) {
    return Status::NotSupported(
        scratch_dir +
        " is in memory (tmpfs): an image there never reaches a "
        "disk; use a --dir on the disk to test");
  }
  struct statvfs sv {};
  if (statvfs(scratch_dir.c_str(), &sv) == 0) {
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
  l->image_ = scratch_dir + "/" + options.name + "-" + fs_type + ".img";
  l->mount_point_ = scratch_dir + "/" + options.name + "-" + fs_type;
  Status s = l->Setup(image_bytes);
  if (!s.ok()) {
    Status t = l->Teardown();
    if (!t.ok()) s = s.WithContext("cleanup also failed: " + t.message());
    return s;
  }
  return l;
}

Status LoopFs::Setup(uint64_t image_bytes) {
  JournalEntry img;
  img.kind = kJournalImageFile;
  img.target = image_;
  img.description = fs_type_ + " image file";
  Result<std::string> id = journal_->Add(img);
  if (!id.ok()) return id.status();
  image_entry_ = *id;
  int fd = open(image_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return Status::FromErrno(errno, "create " + image_);
  // Sparse: only what the filesystem writes takes space.
  int rc = ftruncate(fd, static_cast<off_t>(image_bytes));
  int err = errno;
  close(fd);
  if (rc != 0) return Status::FromErrno(err, "size " + image_);

  DT_RETURN_IF_ERROR(Attach());

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

  if (mkdir(mount_point_.c_str(), 0755) != 0 && errno != EEXIST) {
    return Status::FromErrno(errno, "mkdir " + mount_point_);
  }
  JournalEntry mnt;
  mnt.kind = kJournalMount;
  mnt.target = mount_point_;
  mnt.description = fs_type_ + " mount of " + loop_device_;
  id = journal_->Add(mnt);
  if (!id.ok()) return id.status();
  mount_entry_ = *id;
  std::vector<std::string> mount = {"mount", "-t", fs_type_, loop_device_,
                                    mount_point_};
  r = RunSubprocess(mount, kCleanupTimeoutNs);
  if (!r.ok()) return r.status();
  if (r->exit_code != 0) return CommandFailed(mount, *r);
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

Status LoopFs::Attach() {
  std::vector<std::string> attach = {"losetup", "--find", "--show"};
  if (options_.direct_io) attach.push_back("--direct-io=on");
  attach.push_back(image_);
  Result<SubprocessResult> r = RunSubprocess(attach, kCleanupTimeoutNs);
  if (!r.ok()) return r.status();
  if (r->exit_code != 0) {
    std::string msg = Trim(r->err);
    if (msg.find("unused loop device") != std::string::npos ||
        msg.find("No such device") != std::string::npos) {
      return Status::Busy(
          "no free loop device for the " + fs_type_ + " image (" + msg +
          "); detach unused ones (losetup -a lists them) or load the "
          "loop module");
    }
    return CommandFailed(attach, *r);
  }
  loop_device_ = Trim(r->out);
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
    // losetup falls back to buffered I/O silently when the host refuses.
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

Status LoopFs::Teardown() {
  Status first;
  std::string what;
  if (!mount_entry_.empty()) {
    Status s = UndoMount(mount_point_, &what);
    if (s.ok()) {
      (void)journal_->Remove(mount_entry_);
      mount_entry_.clear();
      mounted_ = false;
    } else if (first.ok()) {
      first = s;
    }
  } else {
    rmdir(mount_point_.c_str());
  }
  if (!loop_entry_.empty() && first.ok()) {
    Status s = UndoLoopDevice(loop_device_, image_, &what);
    if (s.ok()) {
      (void)journal_->Remove(loop_entry_);
      loop_entry_.clear();
    } else {
      first = s;
    }
  }
  if (!image_entry_.empty() && first.ok()) {
    Status s = UndoImageFile(image_, &what);
    if (s.ok()) {
      (void)journal_->Remove(image_entry_);
      image_entry_.clear();
    } else {
      first = s;
    }
  }
  return first;
}

LoopFs::~LoopFs() { (void)Teardown(); }

}  // namespace disktune
