// --fs-matrix: the fsync family on ext3 / ext4 / xfs, each made on a loop
// device over a sparse image in the scratch directory (so on the disk under
// test), with the filesystem's default mount options, which are reported.
// Figures include the loop driver and the host filesystem's fsync of the
// image: they compare filesystems with each other, not with the bare disk.
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>

#include "probes/device_info.h"
#include "probes/device_journal.h"
#include "probes/fsync_probe.h"
#include "probes/loop_fs.h"
#include "src/core/scratch_dir.h"
#include "src/core/signals.h"
#include "src/model/fsync_names.h"

namespace disktune {
namespace {

// The image is sparse, but what the points write must fit on the host: at
// most 3/4 of its free space, at most 1 GiB, at least what mkfs.xfs accepts.
constexpr uint64_t kImageMaxBytes = 1ull << 30;
constexpr uint64_t kImageMinBytes = 320ull << 20;
constexpr uint64_t kOverwriteBytes = 16ull << 20;

uint64_t ImageBytes(int dir_fd) {
  struct statvfs sv {};
  if (fstatvfs(dir_fd, &sv) != 0) return kImageMaxBytes;
  uint64_t room = static_cast<uint64_t>(sv.f_bavail) * sv.f_frsize / 4 * 3;
  room = std::min(room, kImageMaxBytes);
  // Below the minimum, LoopFs::Create refuses with the sizes in the message.
  return room < kImageMinBytes ? kImageMinBytes : room & ~((1ull << 20) - 1);
}

}  // namespace

Status RunFsMatrix(ProbeContext& ctx, int* index,
                   std::vector<ProbeResult>* results) {
  const ProbeConfig& cfg = *ctx.config;
  for (const std::string& fs : cfg.fs_matrix) {
    std::string prefix = FsyncFamilyPrefix(fs);
    std::vector<FsyncPoint> points = FsyncFamily(cfg, prefix);
    int per_fs = static_cast<int>(points.size()) * (cfg.write_cache_ab ? 2 : 1);
    if (InterruptRequested()) return Status::Aborted("fsync probe interrupted");
    Result<std::unique_ptr<LoopFs>> lfs =
        geteuid() != 0
            ? Result<std::unique_ptr<LoopFs>>(Status::PermissionDenied(
                  "needs root (losetup, mkfs, mount); run as root to compare "
                  "filesystems"))
            : LoopFs::Create(ctx.scratch->fd(), ctx.scratch->path(), fs,
                             ImageBytes(ctx.scratch->fd()), &ProcessJournal());
    if (!lfs.ok()) {
      if (lfs.status().IsAborted()) return lfs.status();
      ProbeResult r =
          ProbeResult::Skipped("fsync", prefix, lfs.status().message());
      r.params.filesystem = fs;
      results->push_back(std::move(r));
      *index += per_fs;
      continue;
    }
    LoopFs& l = **lfs;
    Result<DeviceInfo> dev = ResolveDevice(l.mount_point());
    DeviceInfo d = dev.ok() ? *dev : ReadDiskAttributes(l.loop_name());
    FsyncTarget t = MakeFsyncTarget(
        l.mount_point(), d,
        fs + " on " + l.loop_name() + " (image in the scratch directory)");
    t.filesystem = fs;
    t.extra["mount_options"] = l.mount_options();
    Result<int> root = l.OpenMountRoot();
    if (!root.ok()) return root.status();
    struct Closer {
      int fd;
      ~Closer() { close(fd); }
    } closer{*root};
    t.dir_fd = *root;
    Status s = PrepareOverwriteFile(&t, kOverwriteBytes, cfg.seed);
    if (!s.ok()) {
      RecordOverwriteFailures(t, points, s, FsyncLimitsFor(cfg), results);
      std::erase_if(points, [](const FsyncPoint& p) {
        return p.mode == FileMode::kOverwrite;
      });
    }
    s = RunFsyncPoints(ctx, t, points, index, results);
    if (s.ok() && cfg.write_cache_ab)
      s = RunWriteCacheAb(ctx, t, d, prefix, index, results);
    if (s.ok() && ctx.fs_workload) {
      ctx.StartPoint(prefix + " workload", *index);
      size_t first = results->size();
      s = ctx.fs_workload(l.MountHandlePath("workload"), fs, results);
      for (size_t i = first; i < results->size(); i++) {
        (*results)[i].params.filesystem = fs;
        (*results)[i].params.extra["mount_options"] = l.mount_options();
      }
    }
    (void)RemoveOverwriteFile(t);
    close(closer.fd);
    closer.fd = -1;
    Status td = l.Teardown();
    if (!s.ok()) return s;
    if (!td.ok())
      return td.WithContext("cleaning up the " + fs + " loop filesystem");
  }
  return Status::OK();
}

}  // namespace disktune
