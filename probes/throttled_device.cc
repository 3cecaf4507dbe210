#include "probes/throttled_device.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "probes/device_info.h"
#include "probes/throttle_meter.h"
#include "src/core/sync_floor.h"
#include "src/core/sysinfo.h"

namespace disktune {
namespace {
namespace fs = std::filesystem;

// Well inside the kernel's 30 s dirty expiry (so the flusher finds little
// left), but long enough that a file deleted within seconds (a LevelDB log
// after its memtable is flushed) is not written at all, as on a real disk
// (benchmarks/README.md, "Device classes").
constexpr auto kPacerPeriod = std::chrono::seconds(5);

// Fields 3 and 7 of /sys/block/<dev>/stat: sectors read and written.
void DeviceBytes(const std::string& loop_name, ThrottleAccounting* a) {
  Result<std::string> stat = ReadTextFile("/sys/block/" + loop_name + "/stat");
  if (!stat.ok()) return;
  std::istringstream in(*stat);
  uint64_t f[7] = {};
  for (uint64_t& v : f) in >> v;
  a->device_read_bytes = f[2] * 512;
  a->device_write_bytes = f[6] * 512;
}

// The loop device's request geometry (ThrottleRecord::request_bytes): a
// buffered request is one segment per page, so the largest is
// min(max_sectors_kb, max_segments x the page size).
void RequestGeometry(const std::string& loop_name, ThrottleRecord* r) {
  const std::string q = "/sys/block/" + loop_name + "/queue/";
  auto sectors_kb = SysfsNumber(q + "max_sectors_kb");
  auto segments = SysfsNumber(q + "max_segments");
  if (sectors_kb && segments && *sectors_kb > 0 && *segments > 0) {
    const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    r->request_bytes = std::min(*sectors_kb << 10, *segments * page);
  }
  if (auto ra = SysfsNumber(q + "read_ahead_kb")) {
    r->read_ahead_bytes = *ra << 10;
  }
}

// The journal thread of an ext3/ext4 filesystem on `loop_name`: the kernel
// thread named "jbd2/<dev>-<journal inode>" (a kernel thread has an empty
// command line). 0 when there is none (xfs logs from shared workqueues).
pid_t JournalThread(const std::string& loop_name) {
  const std::string prefix = "jbd2/" + loop_name + "-";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    const std::string pid = e.path().filename().string();
    if (pid.empty() || !std::all_of(pid.begin(), pid.end(), ::isdigit))
      continue;
    Result<std::string> comm = ReadTextFile(e.path().string() + "/comm");
    if (!comm.ok() || comm->rfind(prefix, 0) != 0) continue;
    Result<std::string> cmdline = ReadTextFile(e.path().string() + "/cmdline");
    if (cmdline.ok() && cmdline->empty()) return std::stoi(pid);
  }
  return 0;
}

}  // namespace

std::string ThrottleFilesystemFor(const std::string& host_type) {
  const auto& ok = MatrixFilesystems();
  return std::find(ok.begin(), ok.end(), host_type) != ok.end() ? host_type
                                                                : "ext4";
}

Result<std::unique_ptr<ThrottledDevice>> ThrottledDevice::Create(
    const std::string& scratch_dir, const std::string& fs_type,
    uint64_t image_bytes, const ThrottleSpec& spec, int cgroup_version,
    DeviceJournal* journal) {
  if (geteuid() != 0) {
    return Status::PermissionDenied(
        "--throttle needs root (loop device, mount, cgroup); run as root");
  }
  std::unique_ptr<ThrottledDevice> d(new ThrottledDevice());
  d->spec_ = spec;
  d->host_dir_ = scratch_dir;
  LoopFsOptions opts;
  opts.name = "throttle";
  opts.direct_io = true;
  Result<std::unique_ptr<LoopFs>> l =
      LoopFs::Create(scratch_dir, fs_type, image_bytes, journal, opts);
  if (!l.ok()) return l.status();
  d->fs_ = std::move(*l);
  Result<std::unique_ptr<CgroupThrottle>> c = CgroupThrottle::Create(
      d->fs_->device_number(), spec.limits, cgroup_version, journal);
  if (!c.ok()) return c.status();  // d's destructor removes the filesystem
  d->cgroup_ = std::move(*c);
  // Under v1 the journal's commits are written by its own kernel thread,
  // outside the writer's cgroup. A class of rates alone (cloud) takes the
  // thread in: a cloud volume counts every journal write against its IOPS.
  // A class with a sync floor (hdd) leaves it out: the floor stands for the
  // whole sync, journal included (a drive writes the journal sequentially
  // within the revolution), and its bytes are reported as escaped. The rule
  // and what each choice measured: benchmarks/README.md, "Device classes".
  if (d->cgroup_->version() == 1 && spec.sync_floor_ns == 0) {
    if (pid_t jbd = JournalThread(d->fs_->loop_name());
        jbd > 0 && d->cgroup_->Adopt(jbd).ok()) {
      d->journal_thread_ = "jbd2/" + d->fs_->loop_name();
    }
  }
  if (spec.sync_floor_ns > 0) {
    d->floored_dev_ = ParseDeviceNumber(d->fs_->device_number());
    if (d->floored_dev_ == 0) {
      return Status::IOError(
          "--throttle: cannot read the loop device's "
          "number '" +
          d->fs_->device_number() + "'");
    }
    SetDeviceSyncFloor(d->floored_dev_, spec.sync_floor_ns);
  }
  d->base_ = d->Snapshot();  // the loop device's counters include mkfs
  // The probe runner's per-probe accounting reads the counters through the
  // device's number (probes/throttle_meter.h).
  d->metered_dev_ = ParseDeviceNumber(d->fs_->device_number());
  ThrottledDevice* raw = d.get();
  SetThrottleMeter(d->metered_dev_, [raw] { return raw->Snapshot(); });
  return d;
}

Status ThrottledDevice::Enter() {
  DT_RETURN_IF_ERROR(cgroup_->Enter());
  // $DISKTUNE_THROTTLE_PACER=off: for the lab's comparison only
  // (benchmarks/device_classes.sh); the report then says so.
  const char* pacer_env = getenv("DISKTUNE_THROTTLE_PACER");
  pacer_off_ = pacer_env && std::string(pacer_env) == "off";
  if (cgroup_->version() == 1 && !pacer_off_ && !pacer_.joinable()) {
    {
      std::lock_guard<std::mutex> l(mu_);
      stop_ = false;
    }
    // Made after Enter, so the thread is in the cgroup too.
    pacer_ = std::thread([this] { PacerLoop(); });
  }
  return Status::OK();
}

void ThrottledDevice::PacerLoop() {
  std::unique_lock<std::mutex> l(mu_);
  while (!stop_) {
    l.unlock();
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(
             mount_point(), fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (!it->is_regular_file(ec)) continue;
      int fd = open(it->path().c_str(), O_RDONLY | O_CLOEXEC | O_NOATIME);
      if (fd < 0) continue;  // deleted meanwhile
      // Starts writeback here, in this thread's cgroup; waits for nothing.
      (void)sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
      close(fd);
    }
    l.lock();
    cv_.wait_for(l, kPacerPeriod, [this] { return stop_; });
  }
}

void ThrottledDevice::StopPacer() {
  if (!pacer_.joinable()) return;
  {
    std::lock_guard<std::mutex> l(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  pacer_.join();
}

Status ThrottledDevice::Leave() {
  StopPacer();
  return cgroup_ ? cgroup_->Leave() : Status::OK();
}

ThrottleAccounting ThrottledDevice::Snapshot() const {
  ThrottleAccounting a;
  if (fs_) DeviceBytes(fs_->loop_name(), &a);
  if (cgroup_) {
    Result<CgroupIoBytes> c = cgroup_->Charged();
    if (c.ok()) {
      a.charged_read_bytes = c->read_bytes;
      a.charged_write_bytes = c->write_bytes;
    }
  }
  return a;
}

ThrottleRecord ThrottledDevice::Record() const {
  ThrottleRecord r;
  r.spec = spec_;
  r.mechanism = cgroup_->mechanism();
  r.cgroup_version = cgroup_->version();
  r.cgroup = cgroup_->path();
  r.loop_device = fs_->loop_device();
  r.filesystem = fs_->fs_type() + " (" + fs_->mount_options() + ")";
  r.host_dir = host_dir_;
  RequestGeometry(fs_->loop_name(), &r);
  if (cgroup_->version() == 1 && pacer_off_) {
    r.writeback =
        "under cgroup v1 the kernel's flusher writes outside the cgroup; the "
        "writeback pacer was off ($DISKTUNE_THROTTLE_PACER=off)";
  } else if (cgroup_->version() == 1) {
    r.writeback =
        "under cgroup v1 the kernel's flusher writes outside the cgroup, so "
        "a thread of the run starts writeback of every file on the device "
        "every 5 s (charged to the cgroup)";
  }
  if (!journal_thread_.empty()) {
    r.writeback += std::string(r.writeback.empty() ? "" : "; ") +
                   "the filesystem's journal thread (" + journal_thread_ +
                   ") writes in the cgroup, so journal commits are charged";
  }
  r.accounting = Snapshot() - base_;
  return r;
}

Status ThrottledDevice::Teardown() {
  if (metered_dev_ != 0) {
    SetThrottleMeter(metered_dev_, nullptr);
    metered_dev_ = 0;
  }
  Status first = Leave();
  if (floored_dev_ != 0) {
    SetDeviceSyncFloor(floored_dev_, 0);
    floored_dev_ = 0;
  }
  if (cgroup_) {
    Status s = cgroup_->Teardown();
    if (first.ok()) first = s;
  }
  if (fs_) {
    Status s = fs_->Teardown();
    if (first.ok()) first = s;
  }
  return first;
}

ThrottledDevice::~ThrottledDevice() { (void)Teardown(); }

}  // namespace disktune
