#include "src/app/throttle_session.h"

#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>

#include "probes/device_info.h"
#include "src/core/units.h"

namespace disktune::app {
namespace {

constexpr uint64_t kImageMaxBytes = 32ull << 30;
constexpr uint64_t kImageMinBytes = 1ull << 30;

uint64_t ImageBytes(const std::string& dir) {
  struct statvfs sv {};
  if (statvfs(dir.c_str(), &sv) != 0) return kImageMinBytes;
  uint64_t room = static_cast<uint64_t>(sv.f_bavail) * sv.f_frsize / 4 * 3;
  room = std::min(room, kImageMaxBytes) & ~((1ull << 20) - 1);
  // Below the minimum, LoopFs::Create refuses with the sizes in the message.
  return std::max(room, kImageMinBytes);
}

}  // namespace

Result<std::optional<ThrottleSpec>> PlanThrottle(const std::string& throttle) {
  if (throttle.empty()) return std::optional<ThrottleSpec>();
  Result<ThrottleSpec> spec = ParseThrottle(throttle);
  if (!spec.ok()) return spec.status();
  if (geteuid() != 0) {
    return Status::PermissionDenied(
        "--throttle needs root (a loop device, a mount and a cgroup); run as "
        "root, or leave --throttle out to measure the disk as it is");
  }
  return std::optional<ThrottleSpec>(*spec);
}

Status CheckThrottledProbes(const ProbeConfig& config,
                            const std::string& throttle) {
  if (throttle.empty()) return Status::OK();
  if (!config.fs_matrix.empty()) {
    return Status::InvalidArgument(
        "--fs-matrix cannot run under --throttle: its filesystems sit on loop "
        "devices of their own, which the throttle's cgroup does not limit and "
        "a class's sync floor does not reach; run it without --throttle");
  }
  // Bad syntax is PlanThrottle's to refuse, with the valid forms.
  Result<ThrottleSpec> spec = ParseThrottle(throttle);
  if (config.write_cache_ab && spec.ok() && spec->sync_floor_ns > 0) {
    return Status::InvalidArgument(
        "--write-cache-ab cannot run under a --throttle with a sync floor: "
        "the floor is laid under every sync whether flushes are sent or not, "
        "so both halves would measure the floor; run it without --throttle, "
        "or add sync=none (e.g. --throttle hdd,sync=none)");
  }
  return Status::OK();
}

Status CheckProbeResultThrottle(const std::string& path,
                                const std::optional<ThrottleRecord>& measured,
                                const std::string& throttle) {
  std::optional<ThrottleSpec> planned;
  if (!throttle.empty()) {
    Result<ThrottleSpec> spec = ParseThrottle(throttle);
    if (!spec.ok()) return Status::OK();
    planned = *spec;
  }
  if (!measured && !planned) return Status::OK();
  if (measured && planned && measured->spec.limits == planned->limits &&
      measured->spec.sync_floor_ns == planned->sync_floor_ns) {
    return Status::OK();
  }
  std::string was = "without --throttle";
  if (measured) {
    const ThrottleSpec& m = measured->spec;
    was = "under " +
          (m.class_name == "custom" ? "the limits"
                                    : "the " + m.class_name + " class") +
          " (" + DescribeThrottle(m) + ")";
  }
  std::string now = "without --throttle";
  std::string probe = "`disktune probe --json FILE`";
  if (planned) {
    now = "under --throttle " + throttle + " (" + DescribeThrottle(*planned) +
          ")";
    probe = "`disktune probe --throttle " + throttle + " --json FILE`";
  }
  return Status::InvalidArgument(
      "--probe-result " + path + " was measured " + was + ", and this run is " +
      now + ": its figures describe another disk; measure this one with " +
      probe + ", or leave --probe-result out");
}

Result<std::unique_ptr<ThrottleSession>> ThrottleSession::Start(
    const ThrottleSpec& spec, const ScratchDir& outer, ProgressSink* progress) {
  std::string fs = ThrottleFilesystemFor(ReadFilesystemInfo(outer.path()).type);
  uint64_t image = ImageBytes(outer.path());
  if (progress) {
    progress->Info("throttle: making a " + fs +
                   " filesystem on a loop "
                   "device (direct I/O, image up to " +
                   FormatBytes(static_cast<double>(image)) + " in " +
                   outer.path() + "), limited to " + DescribeThrottle(spec));
  }
  std::unique_ptr<ThrottleSession> t(new ThrottleSession());
  Result<std::unique_ptr<ThrottledDevice>> d = ThrottledDevice::Create(
      outer.path(), fs, image, spec, /*cgroup_version=*/0, &ProcessJournal());
  if (!d.ok()) return d.status().WithContext("--throttle");
  t->device_ = std::move(*d);
  Result<std::unique_ptr<ScratchDir>> inner =
      ScratchDir::Create(t->device_->mount_point(), "--throttle");
  if (!inner.ok()) return inner.status();
  t->inner_ = std::move(*inner);
  DT_RETURN_IF_ERROR(t->device_->Enter());
  return t;
}

Status ThrottleSession::Finish(Environment* env) {
  if (!device_) return Status::OK();
  if (inner_) inner_->Remove();
  std::string leftover = inner_ ? inner_->leftover() : "";
  inner_.reset();
  if (env) env->throttle = device_->Record();
  Status s = device_->Teardown();
  device_.reset();
  if (s.ok() && !leftover.empty())
    s = Status::IOError("could not remove " + leftover);
  return s.ok() ? s : s.WithContext("removing the --throttle device");
}

ThrottleSession::~ThrottleSession() { (void)Finish(nullptr); }

}  // namespace disktune::app
