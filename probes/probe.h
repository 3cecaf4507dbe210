// The Probe interface and the registry of probes in this build.
//
// A probe measures one aspect of the device under the scratch directory and
// returns one ProbeResult per measured configuration. Probes are the only code
// that touches raw I/O APIs (liburing, O_DIRECT, ioctl, sysfs).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/core/plan_clock.h"
#include "src/core/progress.h"
#include "src/core/status.h"
#include "src/model/analyses.h"
#include "src/model/device_info.h"
#include "src/model/probe_result.h"

namespace disktune {

class ScratchDir;

// Which I/O loop measures the block I/O points: kAuto is fio when it is
// installed, the native io_uring loop otherwise (and always with --with-fio,
// which compares the native loop against fio).
enum class MeasureWith { kAuto, kNative, kFio };
const char* MeasureWithName(MeasureWith m);  // "auto", "native", "fio"
std::optional<MeasureWith> ParseMeasureWith(const std::string& name);

// The effective configuration of a probe run (echoed into the report).
struct ProbeConfig {
  bool quick = false;
  uint64_t file_size_bytes = 0;  // the shared test file
  uint64_t duration_ns = 0;      // measured time per point
  uint64_t warmup_ns = 0;        // discarded time before each point
  bool buffered = false;         // allow buffered I/O where O_DIRECT is refused
  bool with_fio = false;
  bool fio_first = false;  // run each fio job before its native point
  MeasureWith measure_with = MeasureWith::kAuto;
  uint64_t seed = 0;
  int repeat = 1;  // rounds per point, interleaved (src/model/probe_repeats.h)
  std::vector<int> queue_depths;  // for rand_read
  bool write_cache_ab = false;    // durability: switch the write cache (root)
  bool kernel_switch =
      false;  // durability: allow the kernel-view switch on real disks
  std::vector<std::string> fs_matrix;  // durability: filesystems to compare
  // durability: narrow the fsync family (empty = all); see fsync_probe.h.
  std::vector<std::string> fsync_methods;
  std::vector<uint64_t> fsync_sizes;
  std::vector<std::string> fsync_modes;
  // durability: measured time per fsync point (0: a quarter of duration_ns;
  // FsyncLimitsFor in fsync_probe.h).
  uint64_t fsync_duration_ns = 0;
  // For the progress estimate only (not echoed): what one I/O of a sync is
  // expected to cost, in ns (0: RunProbes calibrates it), and the write
  // bandwidth the test file fills at (0: learnt as it fills). A throttled run
  // derives both from its limits (PlanHintsForThrottle).
  double sync_io_ns = 0;
  double fill_bytes_per_sec = 0;

  // Quick / full defaults (flags override fields afterwards).
  static ProbeConfig Defaults(bool quick);
};
void to_json(nlohmann::json& j, const ProbeConfig& c);

// Work the caller runs on each --fs-matrix filesystem after its fsync family:
// `disktune probe` passes the fillsync scenario (probes do not link the
// engines). Gets the filesystem's mount point (a directory it may use) and
// its name; appends its results, named "fsync.fs.<fs>.<what>".
using FilesystemWorkload =
    std::function<Status(const std::string& dir, const std::string& fs,
                         std::vector<ProbeResult>* results)>;

// What a probe gets to run with.
struct ProbeContext {
  const ProbeConfig* config = nullptr;
  const ScratchDir* scratch = nullptr;
  // The shared, preallocated test file filled with incompressible data.
  std::string test_file;
  bool direct_supported = true;  // O_DIRECT accepted on the scratch filesystem
  std::string direct_refusal;    // why not, when it is not
  std::optional<DeviceInfo> device;
  FilesystemInfo filesystem;
  ProgressSink* progress = nullptr;
  // Index of the first point of this probe and the run's total, for progress.
  int point_base = 0;
  int point_total = 0;
  // The run's plan, one step per point from `clock_base` on (plan_clock.h):
  // the time left shown at each point, learning from the points that ran.
  PlanClock clock;
  int clock_base = 0;
  FilesystemWorkload fs_workload;  // may be empty

  // Reports that a point starts, with the time left from the plan; ends the
  // point still open (as having done its planned work).
  void StartPoint(const std::string& name, int index_in_probe);
  // The open point has done `work_so_far` units: a line with the time left
  // from its own pace (PlanClock::RemainingWithin).
  void UpdatePoint(const std::string& name, double work_so_far);
  // The open point ended after doing `work_done` units of its planned work
  // (PlanPoints: I/Os for the fsync points).
  void EndPoint(double work_done);
  void EndPoint();  // with its planned work

 private:
  std::optional<size_t> open_step_;
  uint64_t open_start_ns_ = 0;
};

class Probe {
 public:
  virtual ~Probe() = default;
  virtual std::string_view id() const = 0;
  virtual std::string_view description() const = 0;
  // Whether it reads/writes the shared test file (the run prepares it once).
  virtual bool needs_test_file() const { return true; }
  // Number of measured points, and one planned step per point in run order:
  // what each is expected to take under `config` (default: warm-up plus
  // duration, a time-bound point).
  virtual int PointCount(const ProbeConfig& config) const = 0;
  virtual void PlanPoints(const ProbeConfig& config,
                          std::vector<PlannedStep>* steps) const;
  // Runs every point. Never throws; a point that cannot run is skipped/failed
  // in its result. Returns Aborted (with the results so far) on SIGINT/SIGTERM.
  virtual Status Run(ProbeContext& ctx,
                     std::vector<ProbeResult>* results) const = 0;
  // Derived findings over this probe's results, added under report "analyses"
  // (e.g. the saturation queue depth). Default: none.
  virtual void Analyze(const std::vector<ProbeResult>& /*results*/,
                       model::Analyses* /*analyses*/) const {}
};

struct ProbeInfo {
  std::string_view id;
  std::string_view description;
};

// Every probe in this build, in run order.
const std::vector<std::unique_ptr<Probe>>& AllProbes();
// The ids of the probes `disktune probe` runs when none are named.
std::vector<std::string> DefaultProbeIds();
// InvalidArgument listing the valid ids when one is unknown.
Result<std::vector<const Probe*>> SelectProbes(
    const std::vector<std::string>& ids);

}  // namespace disktune
