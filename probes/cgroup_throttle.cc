#include "probes/cgroup_throttle.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "probes/device_info.h"
#include "src/core/sysinfo.h"

namespace disktune {
namespace {
namespace fs = std::filesystem;

bool HasWord(const std::string& list, const std::string& word, char sep) {
  std::stringstream in(list);
  for (std::string w; std::getline(in, w, sep);) {
    if (w == word) return true;
  }
  return false;
}

// Writes `text` to a cgroup control file in one write(2), as the kernel
// wants it; the error names the file.
Status WriteControl(const std::string& file, const std::string& text) {
  int fd = open(file.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno(errno, "open " + file);
  ssize_t w = write(fd, text.data(), text.size());
  int err = errno;
  close(fd);
  if (w != static_cast<ssize_t>(text.size())) {
    return Status::FromErrno(w < 0 ? err : EIO,
                             "write '" + text + "' to " + file);
  }
  return Status::OK();
}

// This process's cgroup in the hierarchy mounted at `root`, from
// /proc/self/cgroup: "0::/x" for v2, "7:blkio:/x" for v1.
std::string HomeCgroup(const std::string& root, int version) {
  std::ifstream in("/proc/self/cgroup");
  for (std::string line; std::getline(in, line);) {
    size_t a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    std::string ctrls = line.substr(a + 1, b - a - 1);
    bool match = version == 2 ? line.compare(0, a, "0") == 0 && ctrls.empty()
                              : HasWord(ctrls, "blkio", ',');
    if (match) {
      std::string rel = line.substr(b + 1);
      return rel == "/" ? root : root + rel;
    }
  }
  return root;
}

Status MoveProcesses(const std::string& from, const std::string& to) {
  Result<std::string> procs = ReadTextFile(from + "/cgroup.procs");
  if (!procs.ok()) return Status::OK();  // gone already
  std::stringstream in(*procs);
  for (std::string pid; std::getline(in, pid);) {
    if (pid.empty()) continue;
    Status s = WriteControl(to + "/cgroup.procs", pid);
    // ESRCH: it exited meanwhile.
    if (!s.ok() && !fs::exists("/proc/" + pid)) continue;
    DT_RETURN_IF_ERROR(s);
  }
  return Status::OK();
}

}  // namespace

CgroupMounts FindCgroupMounts() {
  CgroupMounts m;
  std::ifstream in("/proc/self/mounts");
  for (std::string line; std::getline(in, line);) {
    std::istringstream ss(line);
    std::string src, mp, type, opts;
    ss >> src >> mp >> type >> opts;
    if (type == "cgroup2" && m.v2.empty()) m.v2 = UnescapeMountField(mp);
    if (type == "cgroup" && HasWord(opts, "blkio", ',') && m.v1_blkio.empty())
      m.v1_blkio = UnescapeMountField(mp);
  }
  if (!m.v2.empty()) {
    Result<std::string> sub = ReadTextFile(m.v2 + "/cgroup.subtree_control");
    m.v2_io = sub.ok() && HasWord(*sub, "io", ' ');
  }
  return m;
}

bool OwnCgroupLimitsWriteIops(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return false;
  const std::string dev =
      std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
  const CgroupMounts m = FindCgroupMounts();
  std::ifstream in("/proc/self/cgroup");
  for (std::string line; std::getline(in, line);) {
    // "ID:CONTROLLERS:PATH"; v2's line is "0::PATH".
    const size_t a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string ctrls = line.substr(a + 1, b - a - 1);
    const std::string cg = line.substr(b + 1);
    std::string file, key;
    if (HasWord(ctrls, "blkio", ',') && !m.v1_blkio.empty()) {
      file = m.v1_blkio + cg + "/blkio.throttle.write_iops_device";
      key = dev + " ";
    } else if (ctrls.empty() && !m.v2.empty()) {
      file = m.v2 + cg + "/io.max";
      key = dev + " ";
    } else {
      continue;
    }
    std::ifstream limits(file);
    for (std::string l; std::getline(limits, l);) {
      if (l.rfind(key, 0) != 0) continue;
      // v1: "MAJ:MIN N"; v2: "MAJ:MIN rbps=.. wbps=.. riops=.. wiops=N".
      if (ctrls.empty()) {
        const size_t w = l.find("wiops=");
        if (w != std::string::npos && l.compare(w + 6, 3, "max") != 0)
          return true;
      } else {
        return true;
      }
    }
  }
  return false;
}

std::string CgroupV2Unavailable(const CgroupMounts& m) {
  if (m.v2.empty()) return "no cgroup v2 hierarchy is mounted";
  if (m.v2_io) return "";
  Result<std::string> ctrls = ReadTextFile(m.v2 + "/cgroup.controllers");
  if (ctrls.ok() && HasWord(*ctrls, "io", ' ')) {
    return "cgroup v2 at " + m.v2 +
           " has the io controller but not in its cgroup.subtree_control "
           "(disktune does not change it)";
  }
  return "cgroup v2 at " + m.v2 + " has no io controller" +
         (m.v1_blkio.empty()
              ? std::string()
              : " (blkio is bound to cgroup v1 at " + m.v1_blkio + ")");
}

bool IsThrottleCgroupPath(const std::string& path) {
  static const std::regex kName("^disktune-throttle-[0-9]+$");
  fs::path p(path);
  if (!p.is_absolute() || path.find("/.") != std::string::npos) return false;
  if (!std::regex_match(p.filename().string(), kName)) return false;
  struct statfs sf {};
  if (statfs(p.parent_path().c_str(), &sf) != 0) return false;
  if (sf.f_type != CGROUP_SUPER_MAGIC && sf.f_type != CGROUP2_SUPER_MAGIC)
    return false;
  // Directly under the hierarchy's root: the parent is a mount point.
  struct stat a {
  }, b{};
  return stat(p.parent_path().c_str(), &a) == 0 &&
         stat(p.parent_path().parent_path().c_str(), &b) == 0 &&
         a.st_dev != b.st_dev;
}

Result<std::unique_ptr<CgroupThrottle>> CgroupThrottle::Create(
    const std::string& device, const ThrottleLimits& limits, int version,
    DeviceJournal* journal) {
  if (geteuid() != 0)
    return Status::PermissionDenied(
        "--throttle needs root (cgroups); run as root");
  CgroupMounts m = FindCgroupMounts();
  std::string v2_why = CgroupV2Unavailable(m);
  if (version == 0) version = v2_why.empty() ? 2 : 1;
  if (version == 2 && !v2_why.empty()) return Status::NotSupported(v2_why);
  if (version == 1 && m.v1_blkio.empty()) {
    return Status::NotSupported(
        "no cgroup blkio controller: cgroup v1 blkio is not mounted and " +
        v2_why);
  }
  std::unique_ptr<CgroupThrottle> c(new CgroupThrottle());
  c->journal_ = journal;
  c->version_ = version;
  c->device_ = device;
  c->root_ = version == 2 ? m.v2 : m.v1_blkio;
  c->path_ = c->root_ + "/disktune-throttle-" + std::to_string(getpid());
  c->home_ = HomeCgroup(c->root_, version);
  Status s = c->Setup(limits);
  if (!s.ok()) {
    Status t = c->Teardown();
    if (!t.ok()) s = s.WithContext("cleanup also failed: " + t.message());
    return s;
  }
  return c;
}

Status CgroupThrottle::Setup(const ThrottleLimits& l) {
  JournalEntry e;
  e.kind = kJournalCgroup;
  e.target = path_;
  e.description = "throttle cgroup";
  Result<std::string> id = journal_->Add(e);
  if (!id.ok()) return id.status();
  entry_ = *id;
  if (mkdir(path_.c_str(), 0755) != 0)
    return Status::FromErrno(errno, "mkdir " + path_);
  if (version_ == 2) {
    std::string line = device_;
    if (l.read_iops) line += " riops=" + std::to_string(*l.read_iops);
    if (l.write_iops) line += " wiops=" + std::to_string(*l.write_iops);
    if (l.read_bytes_per_sec)
      line += " rbps=" + std::to_string(*l.read_bytes_per_sec);
    if (l.write_bytes_per_sec)
      line += " wbps=" + std::to_string(*l.write_bytes_per_sec);
    return WriteControl(path_ + "/io.max", line);
  }
  auto put = [&](const char* file, const std::optional<uint64_t>& v) {
    if (!v) return Status::OK();
    return WriteControl(path_ + "/blkio.throttle." + file,
                        device_ + " " + std::to_string(*v));
  };
  DT_RETURN_IF_ERROR(put("read_iops_device", l.read_iops));
  DT_RETURN_IF_ERROR(put("write_iops_device", l.write_iops));
  DT_RETURN_IF_ERROR(put("read_bps_device", l.read_bytes_per_sec));
  return put("write_bps_device", l.write_bytes_per_sec);
}

std::string CgroupThrottle::mechanism() const {
  return version_ == 2 ? "cgroup v2 io.max" : "cgroup v1 blkio.throttle";
}

Status CgroupThrottle::Enter() {
  DT_RETURN_IF_ERROR(
      WriteControl(path_ + "/cgroup.procs", std::to_string(getpid())));
  entered_ = true;
  return Status::OK();
}

Status CgroupThrottle::Adopt(pid_t pid) {
  return WriteControl(path_ + "/cgroup.procs", std::to_string(pid));
}

Status CgroupThrottle::Leave() {
  if (!entered_) return Status::OK();
  DT_RETURN_IF_ERROR(
      WriteControl(home_ + "/cgroup.procs", std::to_string(getpid())));
  entered_ = false;
  return Status::OK();
}

Result<CgroupIoBytes> CgroupThrottle::Charged() const {
  std::string file =
      path_ + (version_ == 2 ? "/io.stat" : "/blkio.throttle.io_service_bytes");
  Result<std::string> text = ReadTextFile(file);
  if (!text.ok()) return text.status();
  CgroupIoBytes b;
  std::stringstream in(*text);
  for (std::string line; std::getline(in, line);) {
    std::istringstream ls(line);
    std::string dev;
    ls >> dev;
    if (dev != device_) continue;
    if (version_ == 2) {
      // "7:3 rbytes=1 wbytes=2 rios=3 wios=4 dbytes=0 dios=0"
      for (std::string kv; ls >> kv;) {
        if (kv.rfind("rbytes=", 0) == 0)
          b.read_bytes = std::stoull(kv.substr(7));
        if (kv.rfind("wbytes=", 0) == 0)
          b.write_bytes = std::stoull(kv.substr(7));
      }
    } else {
      std::string op;
      uint64_t n = 0;
      ls >> op >> n;
      if (op == "Read") b.read_bytes = n;
      if (op == "Write") b.write_bytes = n;
    }
  }
  return b;
}

Status CgroupThrottle::Teardown() {
  Status first = Leave();
  if (entry_.empty()) return first;
  std::string what;
  Status s = UndoCgroup(path_, &what);
  if (s.ok()) {
    (void)journal_->Remove(entry_);
    entry_.clear();
  }
  return first.ok() ? s : first;
}

CgroupThrottle::~CgroupThrottle() { (void)Teardown(); }

Status UndoCgroup(const std::string& path, std::string* what) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    *what = "cgroup " + path + " already gone";
    return Status::OK();
  }
  std::string root = fs::path(path).parent_path().string();
  DT_RETURN_IF_ERROR(MoveProcesses(path, root));
  // A task that has just exited may hold the cgroup for a moment.
  int err = 0;
  for (int attempt = 0; attempt < 25; attempt++) {
    if (rmdir(path.c_str()) == 0 || errno == ENOENT) {
      *what = "removed cgroup " + path;
      return Status::OK();
    }
    err = errno;
    if (err != EBUSY) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(40));
  }
  return Status::FromErrno(err, "remove cgroup " + path);
}

}  // namespace disktune
