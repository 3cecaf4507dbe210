// The fsync probe: every way to make a write durable (fsync, fdatasync,
// O_DSYNC, O_SYNC, O_DIRECT|O_DSYNC, io_uring's fsync op) at the sizes a
// database writes (512 B .. 64 KiB, 2300 B being etcd's gate), appending to a
// growing file and overwriting a preallocated one (and, for etcd's gate,
// writing into a file fallocate() reserved, as etcd's WAL does), with
// pg_test_fsync's comparisons, the device flushes each sync caused, and, on
// request, the write cache switched off (--write-cache-ab) and other
// filesystems on loop devices (--fs-matrix).
//
// Result names: "fsync.<method>.<bytes>.<mode>" on the scratch directory,
// "fsync.cache_off.<...>" (or cache_on) for the other write-cache state,
// "fsync.fs.<fs>.<...>" on each filesystem of the matrix, "fsync.pg.<...>"
// for the pg_test_fsync comparisons (src/model/fsync_names.h). Each result
// also carries all of that as typed params, which is what consumers read.
#pragma once

#include <string>
#include <vector>

#include "probes/fsync_point.h"
#include "probes/probe.h"
#include "src/model/device_info.h"

namespace disktune {

class FsyncProbe : public Probe {
 public:
  std::string_view id() const override { return "fsync"; }
  std::string_view description() const override;
  bool needs_test_file() const override { return false; }
  int PointCount(const ProbeConfig& config) const override;
  void PlanPoints(const ProbeConfig& config,
                  std::vector<PlannedStep>* steps) const override;
  Status Run(ProbeContext& ctx,
             std::vector<ProbeResult>* results) const override;
  // The durability verdicts, the write-cache views, the A/B and matrix
  // tables and the "etcd" check (durability_verdict.cc).
  void Analyze(const std::vector<ProbeResult>& results,
               model::Analyses* analyses) const override;
};

// The method x size x mode points, named "<prefix>.<method>.<bytes>.<mode>",
// narrowed by --fsync-methods/--fsync-sizes/--fsync-modes. The prealloc mode
// is in it for fdatasync at 2300 B only (etcd's gate), unless --fsync-modes
// names it.
std::vector<FsyncPoint> FsyncFamily(const ProbeConfig& config,
                                    const std::string& prefix);
// pg_test_fsync's comparisons (none when the family is narrowed by a flag).
std::vector<FsyncPoint> PgComparisonPoints(const ProbeConfig& config);
// Per-point limits: a quarter of --duration (or --fsync-duration, when
// given) measured after a fifth of --warmup (there are ~3x more points than
// in the block probes), at least 1,000 operations unless that takes 4x as
// long.
FsyncLimits FsyncLimitsFor(const ProbeConfig& config);
// etcd's disk check (fio --fdatasync=1 --size=22m --bs=2300) issues 22 MiB /
// 2300 B syncs; the 2300 B fdatasync prealloc and append points issue at
// least as many.
inline constexpr uint64_t kEtcdRecipeSyncs = (22ull << 20) / 2300;  // 10,029
inline constexpr uint64_t kEtcdPointCapNs = 60'000'000'000;         // 1 min
// `limits` adjusted for one point (the etcd point's sync count).
FsyncLimits LimitsForPoint(const FsyncPoint& p, FsyncLimits limits);
// The device I/Os one operation of `p` is expected to cost (its writes, a
// flush, a metadata commit when the file grows): the unit the progress
// estimate counts a point's work in (0 for the unsynced floor).
double SyncIosPerOp(const FsyncPoint& p);
// A point's planned step: warm-up, then min_ops operations at the rate of
// its method's sync I/O ("sync_io.fdatasync"), at least duration_ns and at
// most max_ns (plan_clock.h).
inline constexpr const char* kSyncIoKind = "sync_io";
PlannedStep PlanFsyncPoint(const FsyncPoint& p, const FsyncLimits& limits);
// What one sync I/O costs in the scratch directory, for the progress
// estimate's prior: 32 appended 2300 B fdatasyncs (etcd's write; at most
// 150 ms), their
// mean over SyncIosPerOp. 0 when it cannot tell (memory filesystem, error).
double CalibrateSyncIoNs(const ScratchDir& scratch,
                         const std::optional<DeviceInfo>& device,
                         const std::string& fs_type);
// Names and sizes valid for the narrowing flags.
std::vector<uint64_t> FsyncDefaultSizes(bool quick);

// A target for a directory on `device`: its flush disks, block size and the
// facts recorded with every result (scope, disk, rotational, kernel cache).
FsyncTarget MakeFsyncTarget(const std::string& dir, const DeviceInfo& device,
                            const std::string& scope);

// A failed result, with its params, for each overwrite point in `points`
// (the file to overwrite could not be prepared: `why`).
void RecordOverwriteFailures(const FsyncTarget& target,
                             const std::vector<FsyncPoint>& points,
                             const Status& why, const FsyncLimits& limits,
                             std::vector<ProbeResult>* results);

// Runs `points` on `target`, reporting progress from `*index` on.
Status RunFsyncPoints(ProbeContext& ctx, const FsyncTarget& target,
                      const std::vector<FsyncPoint>& points, int* index,
                      std::vector<ProbeResult>* results);

// The family on `target` with the write cache in the other state, then put
// back (write_cache_ab.cc). Skipped results say why when it cannot run.
Status RunWriteCacheAb(ProbeContext& ctx, const FsyncTarget& target,
                       const DeviceInfo& device, const std::string& prefix,
                       int* index, std::vector<ProbeResult>* results);

// The family on each --fs-matrix filesystem, on a loop device over an image
// in the scratch directory (fs_matrix.cc).
Status RunFsMatrix(ProbeContext& ctx, int* index,
                   std::vector<ProbeResult>* results);

}  // namespace disktune
