#include "probes/probe_runner.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "probes/fsync_probe.h"
#include "probes/page_cache_check.h"
#include "probes/test_file.h"
#include "probes/throttle_meter.h"
#include "src/core/clock.h"
#include "src/core/scratch_dir.h"
#include "src/core/units.h"
#include "src/model/probe_repeats.h"

namespace disktune {
namespace {

// iotune's habit: name what skews the figures, but measure anyway.
void PreflightWarnings(const Environment& env, ProbeRunOutput* out) {
  if (!env.device) {
    out->warnings.push_back("no block device found behind " + env.target_dir +
                            ": " + env.device_note);
    return;
  }
  const DeviceInfo& d = *env.device;
  if (d.rotational.value_or(false) && d.scheduler == "none") {
    out->warnings.push_back(
        d.disk +
        " is rotational but uses no I/O scheduler; seeks are not merged");
  }
  if (d.write_cache == "write back") {
    out->warnings.push_back(
        d.disk +
        " has a volatile write cache (write back): durable writes depend "
        "on flushes reaching it; the fsync probe checks that");
  }
}

}  // namespace

// The fill's rate before any of it is written, when nothing (a throttle's
// limit) says better: a guess, replaced by the measured rate once 16 MiB are
// written.
constexpr double kFillPriorBytesPerSec = 200e6;

PlanClock PlanProbeRun(const std::vector<const Probe*>& probes,
                       const ProbeConfig& config, uint64_t fill_bytes) {
  PlanClock clock;
  clock.SetPrior(
      "fill", 1e9 / (config.fill_bytes_per_sec > 0 ? config.fill_bytes_per_sec
                                                   : kFillPriorBytesPerSec));
  if (fill_bytes > 0) {
    PlannedStep fill;
    fill.kind = "fill";
    fill.work = static_cast<double>(fill_bytes);
    clock.Add(fill);
  }
  std::vector<PlannedStep> round;
  for (const Probe* p : probes) p->PlanPoints(config, &round);
  for (int r = 0; r < std::max(1, config.repeat); r++) {
    for (const PlannedStep& s : round) {
      // One prior for every method's sync I/O (what it cost here, or the
      // throttle's limit); each learns its own once it ran.
      if (config.sync_io_ns > 0 && s.kind.rfind(kSyncIoKind, 0) == 0)
        clock.SetPrior(s.kind, config.sync_io_ns);
      clock.Add(s);
    }
  }
  return clock;
}

void PlanForThrottle(const ThrottleSpec& spec, ProbeConfig* config) {
  const ThrottleLimits& limits = spec.limits;
  if (spec.sync_floor_ns == 0 && limits.write_iops && *limits.write_iops > 0)
    config->sync_io_ns = 1e9 / static_cast<double>(*limits.write_iops);
  if (limits.write_bytes_per_sec && *limits.write_bytes_per_sec > 0)
    config->fill_bytes_per_sec =
        static_cast<double>(*limits.write_bytes_per_sec);
}

namespace {

// The fill's progress lines: the time left is the fill's rest at the rate
// measured so far (the plan's prior before 16 MiB are written) plus the
// points' plan.
FillProgress FillLines(ProbeContext& ctx, uint64_t* fill_start) {
  return [&ctx, fill_start](uint64_t done, uint64_t total) {
    uint64_t now = NowNanos();
    if (done == 0) *fill_start = now;
    if (ctx.progress == nullptr) return;
    double left = static_cast<double>(ctx.clock.ExpectedNs(0));
    if (done > 0) {
      double rate = static_cast<double>(now - *fill_start) / done;
      left = rate * static_cast<double>(total - done);
    }
    ctx.progress->Step(
        "filling test file " + std::to_string(done * 100 / total) + "%", 0, 1,
        static_cast<uint64_t>(left) + ctx.clock.RemainingNs(1));
  };
}

// Under --throttle, each probe family's and the fill's share of the
// throttled device's counters (probes/throttle_meter.h); does nothing on a
// device that is not throttled.
class FamilyMeter {
 public:
  explicit FamilyMeter(const ScratchDir& scratch)
      : meter_(ThrottleMeterOfFd(scratch.fd())) {}
  void Start() {
    if (meter_) before_ = meter_();
  }
  void EndFill() {
    if (meter_) by_.test_file_fill = meter_() - before_;
  }
  void EndProbe(const Probe& p, int points) {
    if (meter_) by_.Add(std::string(p.id()), points, meter_() - before_);
  }
  void Record(ProbeRunOutput* out) const {
    if (meter_) out->analyses.throttle_by_probe = by_;
  }

 private:
  ThrottleMeter meter_;
  ThrottleAccounting before_;
  ThrottleByProbe by_;
};

}  // namespace

Status RunProbes(const std::vector<const Probe*>& probes,
                 const ProbeConfig& config, const ScratchDir& scratch,
                 const Environment& env, ProgressSink* progress,
                 ProbeRunOutput* out, const FilesystemWorkload& fs_workload) {
  PreflightWarnings(env, out);
  ProbeContext ctx;
  ctx.config = &config;
  ctx.scratch = &scratch;
  ctx.device = env.device;
  ctx.filesystem = env.filesystem;
  ctx.progress = progress;
  ctx.fs_workload = fs_workload;

  Result<bool> direct =
      ProbeDirectIo(scratch.fd(), scratch.path(), &ctx.direct_refusal);
  if (!direct.ok()) return direct.status();
  ctx.direct_supported = *direct;

  bool need_file = false;
  for (const Probe* p : probes) need_file |= p->needs_test_file();
  // Where the device cannot be reached directly (tmpfs, some FUSE), every
  // figure would describe memory: refuse unless the operator asked for that.
  if (!ctx.direct_supported && !config.buffered) {
    return Status::NotSupported(
        scratch.path() + ": " + ctx.direct_refusal +
        ", so direct-I/O probes would measure memory; use a --dir on "
        "the disk to test, or pass --buffered");
  }
  if (!ctx.direct_supported) {
    out->warnings.push_back(
        ctx.direct_refusal +
        (config.buffered ? ": probes run buffered and measure the page cache"
                         : ": direct-I/O probes are skipped"));
  }

  const bool fill = need_file && (ctx.direct_supported || config.buffered);
  ProbeConfig planned = config;
  for (const Probe* p : probes) {
    if (p->id() == "fsync" && planned.sync_io_ns <= 0)
      planned.sync_io_ns =
          CalibrateSyncIoNs(scratch, env.device, env.filesystem.type);
  }
  ctx.clock = PlanProbeRun(probes, planned, fill ? config.file_size_bytes : 0);
  ctx.clock_base = fill ? 1 : 0;
  const int rounds = std::max(1, config.repeat);
  for (const Probe* p : probes) ctx.point_total += p->PointCount(config);
  ctx.point_total *= rounds;

  FamilyMeter meter(scratch);
  if (fill) {
    meter.Start();
    uint64_t fill_start = NowNanos();
    Result<TestFile> tf = PrepareTestFile(
        scratch, "probe.dat", config.file_size_bytes, config.seed,
        ctx.direct_supported, FillLines(ctx, &fill_start));
    if (!tf.ok()) return tf.status();
    ctx.clock.Done(0, tf->fill_ns, static_cast<double>(tf->size_bytes));
    ctx.test_file = tf->path;
    out->test_file = tf->path;
    out->bytes_written += tf->size_bytes;
    meter.EndFill();
  }

  // Round r runs every point once before round r + 1 starts, so the rounds
  // of one point are spread over the whole run (see src/model/probe_repeats.h).
  std::vector<std::vector<ProbeResult>> round_results;
  std::map<std::string, const Probe*> producer;  // point name -> its probe
  const Probe* interrupted = nullptr;  // its analysis would see half a run
  Status status = Status::OK();
  for (int round = 0; round < rounds && status.ok(); round++) {
    std::vector<ProbeResult>& mine = round_results.emplace_back();
    for (const Probe* p : probes) {
      size_t first = mine.size();
      meter.Start();
      status = p->Run(ctx, &mine);
      ctx.EndPoint();
      meter.EndProbe(*p, p->PointCount(config));
      ctx.point_base += p->PointCount(config);
      for (size_t i = first; i < mine.size(); i++) {
        const ProbeResult& r = mine[i];
        producer[r.name] = p;
        bool writes =
            r.probe.find("write") != std::string::npos || r.probe == "fsync";
        if (r.bytes && writes) out->bytes_written += *r.bytes;
      }
      if (!status.ok()) {
        interrupted = p;
        break;
      }
    }
  }
  out->results =
      rounds == 1 ? std::move(round_results[0]) : MergeRounds(round_results);
  for (const Probe* p : probes) {
    std::vector<ProbeResult> its;
    for (const ProbeResult& r : out->results) {
      if (producer[r.name] == p) its.push_back(r);
    }
    if (p != interrupted && !its.empty()) p->Analyze(its, &out->analyses);
  }
  meter.Record(out);
  if (!status.ok()) return status;
  for (std::string& w : SummarizeFailures(out->results))
    out->warnings.push_back(std::move(w));

  if (!ctx.test_file.empty() && ctx.direct_supported) {
    Result<uint64_t> resident = PageCacheResidentBytes(ctx.test_file);
    if (resident.ok()) {
      PageCacheCheck pc = CheckPageCache(*resident, config.file_size_bytes);
      out->analyses.page_cache = pc;
      if (!pc.bypassed) {
        out->warnings.push_back(
            FormatBytes(static_cast<double>(*resident)) +
            " of the test file is in the page cache after direct-I/O "
            "probes; reads may not have reached the device");
      }
    }
  }
  return Status::OK();
}

std::vector<std::string> SummarizeFailures(
    const std::vector<ProbeResult>& results) {
  // The same cause fails many points at once (a full disk fails every fsync
  // point): one line per cause, with the points it hit. File names differ
  // from point to point, so a token holding a '/' does not tell causes apart.
  std::vector<std::pair<std::string, std::vector<std::string>>> causes;
  for (const ProbeResult& r : results) {
    if (r.status != ProbeStatus::kFailed) continue;
    std::string key, tok;
    std::istringstream words(r.error);
    while (words >> tok) {
      key += (key.empty() ? "" : " ") +
             (tok.find('/') != std::string::npos ? std::string("<file>") : tok);
    }
    auto it = std::find_if(causes.begin(), causes.end(),
                           [&](const auto& c) { return c.first == key; });
    if (it == causes.end()) {
      causes.push_back({key, {}});
      it = causes.end() - 1;
    }
    it->second.push_back(r.name);
  }
  std::vector<std::string> lines;
  constexpr size_t kNamesShown = 3;
  for (const auto& [cause, names] : causes) {
    if (names.size() == 1) {
      lines.push_back(names[0] + " failed: " + cause);
      continue;
    }
    std::string shown;
    for (size_t i = 0; i < names.size() && i < kNamesShown; i++)
      shown += (i ? ", " : "") + names[i];
    if (names.size() > kNamesShown)
      shown += " and " + std::to_string(names.size() - kNamesShown) + " more";
    lines.push_back(std::to_string(names.size()) + " points failed: " + cause +
                    " (" + shown + ")");
  }
  return lines;
}

bool EveryPointFailed(const std::vector<ProbeResult>& results) {
  bool any_failed = false;
  for (const ProbeResult& r : results) {
    if (r.status == ProbeStatus::kOk) return false;
    any_failed |= r.status == ProbeStatus::kFailed;
  }
  return any_failed;
}

}  // namespace disktune
