#include "probes/fsync_probe.h"

#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <functional>

#include "probes/durability_verdict.h"
#include "probes/flush_counters.h"
#include "probes/write_cache.h"
#include "src/core/histogram.h"
#include "src/core/scratch_dir.h"
#include "src/core/sysinfo.h"
#include "src/core/units.h"
#include "src/model/fsync_names.h"
#include "src/model/named_figures.h"

namespace disktune {
namespace {

// pg_test_fsync's file: 16 MB, overwritten in place.
constexpr uint64_t kOverwriteBytes = 16ull << 20;
// Time a filesystem of the matrix needs besides its points (mkfs, mount).
constexpr uint64_t kFsSetupNanos = 3000000000ull;

bool Wanted(const std::vector<std::string>& filter, const std::string& v) {
  return filter.empty() ||
         std::find(filter.begin(), filter.end(), v) != filter.end();
}

bool Narrowed(const ProbeConfig& c) {
  return !c.fsync_methods.empty() || !c.fsync_sizes.empty() ||
         !c.fsync_modes.empty();
}

// etcd's disk check: fdatasync after each 2300 B write.
bool IsEtcdRecipe(SyncMethod m, uint64_t write_bytes) {
  return m == SyncMethod::kFdatasync && write_bytes == kEtcdWriteBytes;
}

bool IsMemoryFs(const std::string& type) {
  return type == "tmpfs" || type == "ramfs";
}

// Leaves room for the rest of the run: a point may append at most a quarter
// of the free space.
Status FitToSpace(const FsyncTarget& t, FsyncLimits* l) {
  const std::string& dir = t.dir;
  struct statvfs sv {};
  int rc = t.dir_fd >= 0 ? fstatvfs(t.dir_fd, &sv) : statvfs(dir.c_str(), &sv);
  if (rc != 0) return Status::FromErrno(errno, "statvfs " + dir);
  uint64_t free_bytes = static_cast<uint64_t>(sv.f_bavail) * sv.f_frsize;
  constexpr uint64_t kMinAppend = 1ull << 20;
  if (free_bytes / 4 < kMinAppend) {
    return Status::NoSpace("disk full: " + dir + " has only " +
                           FormatBytes(static_cast<double>(free_bytes)) +
                           " free, the fsync probe needs at least " +
                           FormatBytes(4.0 * kMinAppend) +
                           "; free space or choose another --dir");
  }
  l->max_append_bytes = std::min(l->max_append_bytes, free_bytes / 4);
  return Status::OK();
}

}  // namespace

std::string_view FsyncProbe::description() const {
  return "durable writes: fsync, fdatasync, O_DSYNC, O_SYNC, O_DIRECT|O_DSYNC, "
         "io_uring fsync at 512 B..64 KiB, append vs overwrite (and etcd's "
         "preallocated WAL layout), flushes per "
         "sync, pg_test_fsync comparisons (--write-cache-ab, --fs-matrix)";
}

std::vector<uint64_t> FsyncDefaultSizes(bool quick) {
  if (quick) return {2300, 4096, 16384};
  return {512, 2300, 4096, 8192, 16384, 65536};
}

std::vector<FsyncPoint> FsyncFamily(const ProbeConfig& c,
                                    const std::string& prefix) {
  std::vector<uint64_t> sizes =
      c.fsync_sizes.empty() ? FsyncDefaultSizes(c.quick) : c.fsync_sizes;
  std::vector<FsyncPoint> points;
  for (SyncMethod m : DurableSyncMethods()) {
    if (!Wanted(c.fsync_methods, SyncMethodName(m))) continue;
    for (uint64_t size : sizes) {
      for (FileMode mode :
           {FileMode::kAppend, FileMode::kOverwrite, FileMode::kPrealloc}) {
        if (!Wanted(c.fsync_modes, FileModeName(mode))) continue;
        // Unless asked for by name, the preallocated layout is measured
        // where a gate reads it: etcd's 2300 B fdatasync.
        if (mode == FileMode::kPrealloc && c.fsync_modes.empty() &&
            !IsEtcdRecipe(m, size)) {
          continue;
        }
        FsyncPoint p;
        p.method = m;
        p.write_bytes = size;
        p.mode = mode;
        p.name = prefix + "." + FsyncFamilyKey(m, size, mode);
        points.push_back(p);
      }
    }
  }
  return points;
}

std::vector<FsyncPoint> PgComparisonPoints(const ProbeConfig& c) {
  if (Narrowed(c)) return {};
  auto point = [](const char* name, SyncMethod m, uint64_t size, int n,
                  const char* note) {
    FsyncPoint p;
    p.variant = std::string("pg.") + name;
    p.name = "fsync." + p.variant;
    p.method = m;
    p.write_bytes = size;
    p.writes_per_op = n;
    p.mode = FileMode::kOverwrite;
    p.note = note;
    return p;
  };
  std::vector<FsyncPoint> v;
  v.push_back(point("one_8k_write", SyncMethod::kFdatasync, 8192, 1,
                    "one 8 kB write per fdatasync (compare two_8k_writes)"));
  v.push_back(point("two_8k_writes", SyncMethod::kFdatasync, 8192, 2,
                    "two 8 kB writes per fdatasync"));
  std::vector<int> splits =
      c.quick ? std::vector<int>{1, 16} : std::vector<int>{1, 2, 4, 8, 16};
  for (int n : splits) {
    uint64_t size = 16384 / static_cast<uint64_t>(n);
    std::string name =
        "osync_" + std::to_string(n) + "x" + std::to_string(size / 1024) + "k";
    v.push_back(point(name.c_str(), SyncMethod::kOSync, size, n,
                      "16 kB as O_SYNC writes; latency per 16 kB"));
  }
  FsyncPoint other = point("fsync_other_fd", SyncMethod::kFsync, 8192, 1,
                           "8 kB written on one descriptor, fsync on another");
  other.sync_other_fd = true;
  v.push_back(other);
  v.push_back(point("unsynced", SyncMethod::kNone, 8192, 1,
                    "8 kB writes without any sync: the floor"));
  return v;
}

FsyncLimits LimitsForPoint(const FsyncPoint& p, FsyncLimits l) {
  // etcd's own disk check (fio --fdatasync=1 --size=22m --bs=2300) issues
  // 22 MiB / 2300 B = 10,029 syncs; the point etcd's gate reads issues at
  // least as many, also under --quick, within a cap of a minute.
  // The preallocated point is etcd's own layout (its gate reads it); the
  // growing one is the same write to a log that grows, as LevelDB's does.
  if (IsEtcdRecipe(p.method, p.write_bytes) && p.writes_per_op == 1 &&
      p.mode != FileMode::kOverwrite && !p.sync_other_fd) {
    l.min_ops = std::max<uint64_t>(l.min_ops, kEtcdRecipeSyncs);
    l.max_ns = std::max<uint64_t>(l.max_ns, kEtcdPointCapNs);
    l.max_append_bytes =
        std::max<uint64_t>(l.max_append_bytes, kEtcdRecipeSyncs * 2300 * 2);
  }
  return l;
}

FsyncLimits FsyncLimitsFor(const ProbeConfig& c) {
  FsyncLimits l;
  l.duration_ns = c.fsync_duration_ns > 0
                      ? c.fsync_duration_ns
                      : std::max<uint64_t>(c.duration_ns / 4, 1000000);
  l.warmup_ns = c.warmup_ns / 5;
  l.max_ns = 4 * l.duration_ns;
  // Enough syncs for the p99 a gate reads (MinSamplesForQuantile: 1,000);
  // a disk too slow to give them within max_ns gets its p99 marked as
  // resting on too few samples, and `check` answers INSUFFICIENT.
  l.min_ops = MinSamplesForQuantile(0.99);
  l.max_append_bytes = c.quick ? (64ull << 20) : (256ull << 20);
  return l;
}

FsyncTarget MakeFsyncTarget(const std::string& dir, const DeviceInfo& device,
                            const std::string& scope) {
  FsyncTarget t;
  t.dir = dir;
  t.flush_disks = FlushDisks(device);
  t.logical_block_bytes = device.logical_block_size.value_or(512);
  t.extra["scope"] = scope;
  t.extra["disk"] = device.disk;
  if (device.rotational) t.extra["rotational"] = *device.rotational;
  if (!t.flush_disks.empty()) {
    // The kernel's view of the device the filesystem writes to.
    Result<std::string> wc = ReadTextFile(
        "/sys/block/" + t.flush_disks.front() + "/queue/write_cache");
    if (wc.ok()) t.extra["kernel_write_cache"] = *wc;
    t.extra["cache_device"] = t.flush_disks.front();
  }
  if (!device.disk.empty()) {
    DriveCacheView drive = ReadWriteCacheView(device.disk).drive;
    if (drive.enabled)
      t.extra["drive_write_cache"] = *drive.enabled ? "enabled" : "disabled";
  }
  return t;
}

void RecordOverwriteFailures(const FsyncTarget& target,
                             const std::vector<FsyncPoint>& points,
                             const Status& why, const FsyncLimits& limits,
                             std::vector<ProbeResult>* results) {
  for (const auto& p : points) {
    if (p.mode != FileMode::kOverwrite) continue;
    ProbeResult r = ProbeResult::Failed("fsync", p.name, why.message());
    r.params = FsyncPointParams(target, p, LimitsForPoint(p, limits));
    results->push_back(std::move(r));
  }
}

Status RunFsyncPoints(ProbeContext& ctx, const FsyncTarget& target,
                      const std::vector<FsyncPoint>& points, int* index,
                      std::vector<ProbeResult>* results) {
  const ProbeConfig& cfg = *ctx.config;
  FsyncLimits limits = FsyncLimitsFor(cfg);
  Status space = FitToSpace(target, &limits);
  for (const FsyncPoint& p : points) {
    FsyncLimits point_limits = LimitsForPoint(p, limits);
    ctx.StartPoint(p.name, (*index)++);
    if (!space.ok()) {
      ProbeResult r = ProbeResult::Failed("fsync", p.name, space.message());
      r.params = FsyncPointParams(target, p, point_limits);
      results->push_back(std::move(r));
      ctx.EndPoint(0);
      continue;
    }
    ProbeResult r;
    uint64_t seed = cfg.seed ^ std::hash<std::string>{}(p.name);
    const double ios = SyncIosPerOp(p);
    auto tick = [&ctx, &p, ios](uint64_t ops) {
      ctx.UpdatePoint(p.name, static_cast<double>(ops) * ios);
    };
    DT_RETURN_IF_ERROR(RunFsyncPoint(target, p, point_limits, seed, &r, tick));
    // The syncs it did (warm-up ones included in its time, not its count).
    ctx.EndPoint(static_cast<double>(r.samples.value_or(0)) * ios);
    results->push_back(std::move(r));
  }
  return Status::OK();
}

int FsyncProbe::PointCount(const ProbeConfig& c) const {
  int family = static_cast<int>(FsyncFamily(c, "fsync").size());
  int n = family + static_cast<int>(PgComparisonPoints(c).size());
  int per_target = c.write_cache_ab ? 2 * family : family;
  if (c.write_cache_ab) n += family;
  n += static_cast<int>(c.fs_matrix.size()) * per_target;
  return n;
}

double SyncIosPerOp(const FsyncPoint& p) {
  if (p.method == SyncMethod::kNone) return 0;
  // A sync of an overwrite is its writes and a cache flush; an append (or
  // a write into a reserved extent) also commits metadata: one more I/O,
  // a journal write (benchmarks/README.md, "Progress estimates").
  const double meta = p.mode == FileMode::kOverwrite ? 0 : 1;
  const double w = p.writes_per_op;
  switch (p.method) {
    case SyncMethod::kODsync:
    case SyncMethod::kOSync:
    case SyncMethod::kODirectDsync:
      return w * (2 + meta);  // every write is synced on its own
    default:
      return w + 1 + meta;
  }
}

PlannedStep PlanFsyncPoint(const FsyncPoint& p, const FsyncLimits& limits) {
  PlannedStep s;
  // Each method learns its own cost: an fsync of an append can cost a
  // multiple of an fdatasync's (benchmarks/README.md, "Progress
  // estimates").
  s.kind = std::string(kSyncIoKind) + "." + SyncMethodName(p.method);
  s.fixed_ns = limits.warmup_ns;
  s.work = static_cast<double>(limits.min_ops) * SyncIosPerOp(p);
  s.min_ns = limits.duration_ns;
  s.max_ns = limits.max_ns;
  return s;
}

double CalibrateSyncIoNs(const ScratchDir& scratch,
                         const std::optional<DeviceInfo>& device,
                         const std::string& fs_type) {
  if (IsMemoryFs(fs_type)) return 0;
  FsyncTarget target = MakeFsyncTarget(
      scratch.path(), device.value_or(DeviceInfo{}), "scratch directory");
  target.dir_fd = scratch.fd();
  FsyncPoint p;
  p.name = "fsync.calibration";
  p.method = SyncMethod::kFdatasync;
  // etcd's write: its point, 10,029 of them, is most of a probe's time.
  p.write_bytes = kEtcdWriteBytes;
  p.mode = FileMode::kAppend;
  FsyncLimits l;
  l.warmup_ns = 0;
  l.duration_ns = 0;
  l.max_ns = 150'000'000;
  l.min_ops = 32;
  l.max_append_bytes = 1ull << 20;
  ProbeResult r;
  Status s = RunFsyncPoint(target, p, l, 1, &r);
  if (!s.ok() || r.status != ProbeStatus::kOk || !r.samples || !r.elapsed_ns ||
      *r.samples == 0)
    return 0;
  return static_cast<double>(*r.elapsed_ns) / static_cast<double>(*r.samples) /
         SyncIosPerOp(p);
}

void FsyncProbe::PlanPoints(const ProbeConfig& c,
                            std::vector<PlannedStep>* steps) const {
  const FsyncLimits limits = FsyncLimitsFor(c);
  auto plan = [&](const std::vector<FsyncPoint>& points, uint64_t setup_ns) {
    for (const FsyncPoint& p : points) {
      PlannedStep s = PlanFsyncPoint(p, LimitsForPoint(p, limits));
      s.fixed_ns += setup_ns;
      setup_ns = 0;
      steps->push_back(s);
    }
  };
  std::vector<FsyncPoint> family = FsyncFamily(c, "fsync");
  std::vector<FsyncPoint> pg = PgComparisonPoints(c);
  plan(family, 0);
  plan(pg, 0);
  if (c.write_cache_ab) plan(family, 0);
  for (const std::string& fs : c.fs_matrix) {
    std::vector<FsyncPoint> on_fs = FsyncFamily(c, FsyncFamilyPrefix(fs));
    plan(on_fs, kFsSetupNanos);
    if (c.write_cache_ab) plan(on_fs, 0);
  }
}

Status FsyncProbe::Run(ProbeContext& ctx,
                       std::vector<ProbeResult>* results) const {
  const ProbeConfig& cfg = *ctx.config;
  int index = 0;
  if (IsMemoryFs(ctx.filesystem.type)) {
    results->push_back(ProbeResult::Skipped(
        "fsync", "fsync",
        ctx.scratch->path() + " is on " + ctx.filesystem.type +
            " (memory): fsync there returns without reaching any disk; use a "
            "--dir on the disk to test"));
  } else {
    DeviceInfo device = ctx.device.value_or(DeviceInfo{});
    FsyncTarget target =
        MakeFsyncTarget(ctx.scratch->path(), device, "scratch directory");
    target.dir_fd = ctx.scratch->fd();
    if (!ctx.device) {
      target.extra["note"] = "no block device found: flushes are not counted";
    }
    std::vector<FsyncPoint> family = FsyncFamily(cfg, "fsync");
    std::vector<FsyncPoint> pg = PgComparisonPoints(cfg);
    family.insert(family.end(), pg.begin(), pg.end());
    Status prep = PrepareOverwriteFile(&target, kOverwriteBytes, cfg.seed);
    struct Remove {
      const FsyncTarget& t;
      ~Remove() { (void)RemoveOverwriteFile(t); }
    } remove{target};
    if (!prep.ok()) {
      RecordOverwriteFailures(target, family, prep, FsyncLimitsFor(cfg),
                              results);
      family.erase(std::remove_if(family.begin(), family.end(),
                                  [](const FsyncPoint& p) {
                                    return p.mode == FileMode::kOverwrite;
                                  }),
                   family.end());
    }
    DT_RETURN_IF_ERROR(RunFsyncPoints(ctx, target, family, &index, results));
    if (cfg.write_cache_ab) {
      if (!ctx.device) {
        ProbeResult r = ProbeResult::Skipped(
            "fsync", "fsync.write_cache_ab",
            "no block device behind " + ctx.scratch->path() +
                ": there is no write cache to switch");
        r.params.variant = kVariantWriteCacheAb;
        results->push_back(std::move(r));
      } else {
        DT_RETURN_IF_ERROR(
            RunWriteCacheAb(ctx, target, device, "fsync", &index, results));
      }
    }
  }
  if (!cfg.fs_matrix.empty()) {
    DT_RETURN_IF_ERROR(RunFsMatrix(ctx, &index, results));
  }
  return Status::OK();
}

void FsyncProbe::Analyze(const std::vector<ProbeResult>& results,
                         model::Analyses* analyses) const {
  AnalyzeDurability(results, analyses);
}

}  // namespace disktune
