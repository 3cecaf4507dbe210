#include "probes/fsync_point.h"

#include <fcntl.h>
#include <liburing.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "probes/flush_counters.h"
#include "src/core/clock.h"
#include "src/core/histogram.h"
#include "src/core/rng.h"
#include "src/core/scratch_dir.h"
#include "src/core/signals.h"
#include "src/core/sync_floor.h"
#include "src/core/units.h"

namespace disktune {
namespace {

constexpr uint64_t kAlign = 4096;

struct FreeDeleter {
  void operator()(char* p) const { free(p); }
};

int OpenFlags(SyncMethod m) {
  switch (m) {
    case SyncMethod::kODsync:
      return O_DSYNC;
    case SyncMethod::kOSync:
      return O_SYNC;
    case SyncMethod::kODirectDsync:
      return O_DIRECT | O_DSYNC;
    default:
      return 0;
  }
}

// Synchronisation requests one operation makes.
uint64_t SyncsPerOp(const FsyncPoint& p) {
  switch (p.method) {
    case SyncMethod::kNone:
      return 0;
    case SyncMethod::kODsync:
    case SyncMethod::kOSync:
    case SyncMethod::kODirectDsync:
      return static_cast<uint64_t>(p.writes_per_op);  // every write syncs
    default:
      return 1;
  }
}

// The open files of one point and one timed operation on them. Records the
// errno of a failure so the caller can tell "disk full" from "refused".
class PointFiles {
 public:
  PointFiles(const FsyncTarget& t, const FsyncPoint& p, uint64_t seed)
      : t_(t), p_(p), rng_(seed) {}
  ~PointFiles() {
    if (ring_ok_) io_uring_queue_exit(&ring_);
    if (sync_fd_ >= 0 && sync_fd_ != fd_) close(sync_fd_);
    if (fd_ >= 0) close(fd_);
    if (!created_name_.empty())
      unlinkat(TargetDirFd(t_), created_name_.c_str(), 0);
  }

  Status Open() {
    int flags = O_WRONLY | O_CLOEXEC | O_NOFOLLOW | OpenFlags(p_.method);
    std::string path, name;
    int dir_fd = TargetDirFd(t_);
    if (p_.mode == FileMode::kOverwrite) {
      path = t_.overwrite_file;
      name = t_.overwrite_name;
    } else {
      std::string base = std::string("fsync-") + FileModeName(p_.mode) + ".dat";
      path = t_.dir + "/" + base;
      name = TargetName(t_, base);
      // What a killed point left under this name in the directory created
      // (never its target: unlinkat removes a link itself).
      unlinkat(dir_fd, name.c_str(), 0);
      flags |= O_CREAT | O_EXCL;
    }
    fd_ = openat(dir_fd, name.c_str(), flags, 0600);
    if (fd_ < 0) return Fail(errno, "open " + path);
    floor_ns_ = SyncFloorOfFd(fd_);
    if (p_.mode != FileMode::kOverwrite) created_name_ = name;
    if (p_.mode == FileMode::kPrealloc) {
      DT_RETURN_IF_ERROR(ReserveSegment());
      // The first segment is committed before any sync is timed.
      if (fsync(fd_) != 0) return Fail(errno, "fsync " + path);
    }
    sync_fd_ = fd_;
    if (p_.sync_other_fd) {
      // A read-only descriptor, as pg_test_fsync's "non-write descriptor".
      sync_fd_ =
          openat(dir_fd, name.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
      if (sync_fd_ < 0) return Fail(errno, "open " + path);
    }
    size_t len = p_.write_bytes * static_cast<uint64_t>(p_.writes_per_op);
    void* mem = nullptr;
    if (posix_memalign(&mem, kAlign, (len + kAlign - 1) / kAlign * kAlign)) {
      return Fail(ENOMEM, "buffer");
    }
    buf_.reset(static_cast<char*>(mem));
    for (size_t i = 0; i + 8 <= len; i += 8) {
      uint64_t v = rng_.Next();
      std::memcpy(buf_.get() + i, &v, 8);
    }
    if (p_.method == SyncMethod::kUringFdatasync) {
      int rc = io_uring_queue_init(16, &ring_, 0);
      if (rc < 0) return Fail(-rc, "io_uring_queue_init");
      ring_ok_ = true;
    }
    region_ = t_.overwrite_bytes - t_.overwrite_bytes % p_.write_bytes;
    return Status::OK();
  }

  // One timed operation: the writes and the sync.
  Status Op() {
    bool uring = p_.method == SyncMethod::kUringFdatasync;
    for (int i = 0; i < p_.writes_per_op; i++) {
      char* b = buf_.get() + static_cast<uint64_t>(i) * p_.write_bytes;
      // A fresh word per write so no layer sees the same block twice.
      uint64_t v = rng_.Next();
      std::memcpy(b, &v, sizeof(v));
      uint64_t off = NextOffset();
      // A full segment is followed by a new one, as etcd cuts its WAL.
      while (p_.mode == FileMode::kPrealloc &&
             off + p_.write_bytes > reserved_) {
        DT_RETURN_IF_ERROR(ReserveSegment());
      }
      if (uring) {
        io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
        io_uring_prep_write(sqe, fd_, b, p_.write_bytes, off);
        sqe->flags |= IOSQE_IO_LINK;
      } else {
        // With O_DSYNC / O_SYNC every write is a sync and meets the floor.
        uint64_t w0 = NowNanos();
        DT_RETURN_IF_ERROR(WriteAll(b, off));
        if (OpenFlags(p_.method) != 0) WaitForSyncFloor(w0, floor_ns_);
      }
    }
    int rc = 0;
    uint64_t t0 = NowNanos();
    switch (p_.method) {
      case SyncMethod::kFsync:
        while ((rc = fsync(sync_fd_)) != 0 && errno == EINTR) {
        }
        if (rc != 0) return Fail(errno, "fsync");
        WaitForSyncFloor(t0, floor_ns_);
        sync_ns_ = NowNanos() - t0;
        break;
      case SyncMethod::kFdatasync:
        while ((rc = fdatasync(sync_fd_)) != 0 && errno == EINTR) {
        }
        if (rc != 0) return Fail(errno, "fdatasync");
        WaitForSyncFloor(t0, floor_ns_);
        sync_ns_ = NowNanos() - t0;
        break;
      case SyncMethod::kUringFdatasync: {
        // The linked writes and their sync complete as one unit.
        Status s = UringSync();
        WaitForSyncFloor(t0, floor_ns_);
        return s;
      }
      default:
        break;
    }
    return Status::OK();
  }

  uint64_t appended_bytes() const { return pos_; }
  // The last fsync()/fdatasync() call alone (what fio reports as "sync").
  uint64_t sync_ns() const { return sync_ns_; }
  // The device's sync-latency floor (src/core/sync_floor.h); 0 = none.
  uint64_t floor_ns() const { return floor_ns_; }
  int error() const { return err_; }

 private:
  Status Fail(int err, const std::string& what) {
    err_ = err;
    return Status::FromErrno(err, what);
  }

  // Reserves the next segment of a preallocated file: mode 0, as etcd's WAL
  // does (the size set, the extents unwritten). glibc's posix_fallocate
  // would write zeros where this fails, another layout, so a filesystem
  // without fallocate skips the point.
  Status ReserveSegment() {
    int rc;
    while ((rc = fallocate(fd_, 0, static_cast<off_t>(reserved_),
                           static_cast<off_t>(kPreallocSegmentBytes))) != 0 &&
           errno == EINTR) {
    }
    if (rc != 0)
      return Fail(errno, "fallocate " + t_.dir + "/" + created_name_);
    reserved_ += kPreallocSegmentBytes;
    return Status::OK();
  }

  uint64_t NextOffset() {
    if (p_.mode != FileMode::kOverwrite) {
      uint64_t off = pos_;
      pos_ += p_.write_bytes;
      return off;
    }
    if (cursor_ + p_.write_bytes > region_) cursor_ = 0;
    uint64_t off = cursor_;
    cursor_ += p_.write_bytes;
    return off;
  }

  Status WriteAll(const char* b, uint64_t off) {
    uint64_t done = 0;
    while (done < p_.write_bytes) {
      ssize_t r = pwrite(fd_, b + done, p_.write_bytes - done, off + done);
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) return Fail(errno, "write");
      if (r == 0) return Fail(ENOSPC, "write");
      done += static_cast<uint64_t>(r);
    }
    return Status::OK();
  }

  Status UringSync() {
    io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
    io_uring_prep_fsync(sqe, sync_fd_, IORING_FSYNC_DATASYNC);
    unsigned want = static_cast<unsigned>(p_.writes_per_op) + 1;
    int rc;
    do {
      rc = io_uring_submit_and_wait(&ring_, want);
    } while (rc == -EINTR);
    if (rc < 0) return Fail(-rc, "io_uring_submit");
    Status first;
    for (unsigned i = 0; i < want; i++) {
      io_uring_cqe* cqe = nullptr;
      do {
        rc = io_uring_wait_cqe(&ring_, &cqe);
      } while (rc == -EINTR);
      if (rc < 0) return Fail(-rc, "io_uring_wait_cqe");
      int res = cqe->res;
      io_uring_cqe_seen(&ring_, cqe);
      // A short write (the disk filled up) cancels the linked fsync.
      bool is_write = i + 1 < want;
      if (first.ok() && res < 0)
        first = Fail(-res, is_write ? "write" : "fsync");
      if (first.ok() && is_write &&
          static_cast<uint64_t>(res) < p_.write_bytes) {
        first = Fail(ENOSPC, "write");
      }
    }
    return first;
  }

  const FsyncTarget& t_;
  const FsyncPoint& p_;
  Rng rng_;
  int fd_ = -1, sync_fd_ = -1, err_ = 0;
  std::string
      created_name_;  // relative to the target handle; removed on every path
  uint64_t reserved_ = 0;  // bytes of the preallocated file reserved
  std::unique_ptr<char, FreeDeleter> buf_;
  io_uring ring_{};
  bool ring_ok_ = false;
  uint64_t pos_ = 0, cursor_ = 0, region_ = 0, sync_ns_ = 0, floor_ns_ = 0;
};

}  // namespace

ProbeParams FsyncPointParams(const FsyncTarget& t, const FsyncPoint& p,
                             const FsyncLimits& l) {
  ProbeParams params;
  params.block_size_bytes = p.write_bytes;
  params.pattern = FileModeName(p.mode);
  params.direct = p.method == SyncMethod::kODirectDsync;
  params.duration_ns = l.duration_ns;
  params.warmup_ns = l.warmup_ns;
  params.io_engine =
      p.method == SyncMethod::kUringFdatasync ? "io_uring" : "psync";
  params.method = SyncMethodName(p.method);
  if (p.mode == FileMode::kOverwrite)
    params.file_size_bytes = t.overwrite_bytes;
  if (p.mode == FileMode::kPrealloc)
    params.file_size_bytes = kPreallocSegmentBytes;
  params.extra = t.extra;
  params.writes_per_op = p.writes_per_op;
  params.write_cache = t.write_cache;
  params.filesystem = t.filesystem;
  params.variant = p.variant;
  if (p.sync_other_fd) params.extra["sync_descriptor"] = "other (read-only)";
  if (!p.note.empty()) params.extra["note"] = p.note;
  return params;
}

namespace {

// The point's outcome for an errno, with what an operator can do about it.
ProbeResult ErrorResult(const FsyncTarget& t, const FsyncPoint& p, int err,
                        const Status& s, uint64_t appended) {
  if (err == ENOSPC || err == EDQUOT) {
    return ProbeResult::Failed(
        "fsync", p.name,
        "disk full: " + s.message() + " in " + t.dir + " after appending " +
            FormatBytes(static_cast<double>(appended)) +
            "; free space on that filesystem or choose another --dir");
  }
  if ((err == EOPNOTSUPP || err == ENOSYS) && p.mode == FileMode::kPrealloc &&
      s.message().find("fallocate") != std::string::npos) {
    return ProbeResult::Skipped("fsync", p.name,
                                "the filesystem under " + t.dir +
                                    " cannot preallocate a file (" +
                                    s.message() + ")");
  }
  if (err == EINVAL && p.method == SyncMethod::kODirectDsync) {
    return ProbeResult::Skipped("fsync", p.name,
                                "the filesystem under " + t.dir +
                                    " refuses O_DIRECT (" + s.message() + ")");
  }
  if (p.method == SyncMethod::kUringFdatasync &&
      (err == ENOSYS || err == EPERM) &&
      s.message().find("io_uring") != std::string::npos) {
    return ProbeResult::Skipped("fsync", p.name,
                                "io_uring is not available: " + s.message());
  }
  return ProbeResult::Failed("fsync", p.name, s.message());
}

}  // namespace

int TargetDirFd(const FsyncTarget& t) {
  return t.dir_fd >= 0 ? t.dir_fd : AT_FDCWD;
}

std::string TargetName(const FsyncTarget& t, const std::string& name) {
  return t.dir_fd >= 0 ? name : t.dir + "/" + name;
}

Status RemoveOverwriteFile(const FsyncTarget& t) {
  if (t.overwrite_name.empty()) return Status::OK();
  return UnlinkAt(TargetDirFd(t), t.overwrite_name, t.overwrite_file);
}

Status PrepareOverwriteFile(FsyncTarget* target, uint64_t bytes,
                            uint64_t seed) {
  std::string path = target->dir + "/fsync-overwrite.dat";
  std::string name = TargetName(*target, "fsync-overwrite.dat");
  int dir_fd = TargetDirFd(*target);
  unlinkat(dir_fd, name.c_str(), 0);  // a killed run's, in our directory
  Result<int> created = CreateFileAt(dir_fd, name, O_WRONLY, path);
  if (!created.ok()) return created.status();
  int fd = *created;
  Rng rng(seed);
  std::vector<uint64_t> chunk((1 << 20) / 8);
  Status s;
  for (uint64_t done = 0; done < bytes && s.ok();) {
    for (auto& w : chunk) w = rng.Next();
    uint64_t n = std::min<uint64_t>(bytes - done, chunk.size() * 8);
    ssize_t r = pwrite(fd, chunk.data(), n, done);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      int err = r < 0 ? errno : ENOSPC;
      s = err == ENOSPC
              ? Status::NoSpace("disk full writing " + path +
                                "; free space or choose another --dir")
              : Status::FromErrno(err, "write " + path);
    }
    if (r > 0) done += static_cast<uint64_t>(r);
  }
  if (s.ok() && fsync(fd) != 0) s = Status::FromErrno(errno, "fsync " + path);
  close(fd);
  if (!s.ok()) {
    unlinkat(dir_fd, name.c_str(), 0);
    return s;
  }
  target->overwrite_file = path;
  target->overwrite_name = name;
  target->overwrite_bytes = bytes;
  return Status::OK();
}

Status RunFsyncPoint(const FsyncTarget& target, const FsyncPoint& point,
                     const FsyncLimits& limits, uint64_t seed, ProbeResult* out,
                     const FsyncTick& tick) {
  ProbeResult r;
  r.probe = "fsync";
  r.name = point.name;
  r.params = FsyncPointParams(target, point, limits);
  auto finish = [&](ProbeResult res) {
    res.params = r.params;
    *out = std::move(res);
    return Status::OK();
  };
  if (point.method == SyncMethod::kODirectDsync &&
      point.write_bytes % target.logical_block_bytes != 0) {
    return finish(ProbeResult::Skipped(
        "fsync", point.name,
        "O_DIRECT writes must be multiples of the device's logical block (" +
            std::to_string(target.logical_block_bytes) + " B); " +
            std::to_string(point.write_bytes) + " B is not"));
  }
  if (point.mode == FileMode::kOverwrite &&
      target.overwrite_bytes < point.write_bytes * point.writes_per_op) {
    return finish(ProbeResult::Failed(
        "fsync", point.name,
        "no preallocated file to overwrite in " + target.dir));
  }

  PointFiles files(target, point, seed);
  Status s = files.Open();
  if (!s.ok()) return finish(ErrorResult(target, point, files.error(), s, 0));
  uint64_t op_bytes = point.write_bytes * point.writes_per_op;
  auto room = [&] {
    return point.mode == FileMode::kOverwrite ||
           files.appended_bytes() + op_bytes <= limits.max_append_bytes;
  };

  // Warm-up: the first syncs of a new file also commit its creation.
  uint64_t start = NowNanos();
  for (int n = 0; NowNanos() - start < limits.warmup_ns || n < 2; n++) {
    if (InterruptRequested()) return Status::Aborted("fsync probe interrupted");
    if (!room()) break;
    s = files.Op();
    if (!s.ok()) {
      return finish(
          ErrorResult(target, point, files.error(), s, files.appended_bytes()));
    }
  }

  Histogram hist, sync_hist;
  bool separate_sync = point.method == SyncMethod::kFsync ||
                       point.method == SyncMethod::kFdatasync;
  uint64_t ops = 0;
  std::string limit = "time";
  FlushSnapshot before = FlushSnapshot::Take(target.flush_disks);
  uint64_t t0 = NowNanos(), elapsed = 0, last_tick = t0;
  while (true) {
    if (InterruptRequested()) return Status::Aborted("fsync probe interrupted");
    if (!room()) {
      limit = "append_size_cap";
      break;
    }
    uint64_t a = NowNanos();
    s = files.Op();
    uint64_t b = NowNanos();
    if (!s.ok()) {
      return finish(
          ErrorResult(target, point, files.error(), s, files.appended_bytes()));
    }
    hist.Add(b - a);
    if (separate_sync) sync_hist.Add(files.sync_ns());
    ops++;
    elapsed = b - t0;
    if (tick && b - last_tick >= kTickNs) {
      last_tick = b;
      tick(ops);
    }
    if (elapsed >= limits.duration_ns && ops >= limits.min_ops) break;
    if (elapsed >= limits.max_ns) {
      limit = "time_cap";
      break;
    }
  }
  FlushSnapshot after = FlushSnapshot::Take(target.flush_disks);
  if (ops == 0 || elapsed == 0) {
    return finish(ProbeResult::Failed(
        "fsync", point.name,
        "no operation completed: the space allowed for the appended file (" +
            FormatBytes(static_cast<double>(limits.max_append_bytes)) +
            ") is smaller than one write"));
  }
  r.ops_per_sec = static_cast<double>(ops) * 1e9 / static_cast<double>(elapsed);
  r.bytes_per_sec = r.ops_per_sec.value() * static_cast<double>(op_bytes);
  r.latency_ns = hist.Summary();
  r.samples = ops;
  r.bytes = ops * op_bytes;
  r.elapsed_ns = elapsed;
  r.metrics["limit"] = limit;
  // Each sync lasted at least this (--throttle's class): the figures are
  // the class's, not the host disk's.
  if (files.floor_ns() > 0 && SyncsPerOp(point) > 0)
    r.metrics["sync_floor_ns"] = files.floor_ns();
  if (auto sync = sync_hist.Summary()) r.metrics["sync_latency_ns"] = *sync;
  AddFlushMetrics(target.flush_disks, after.Since(before),
                  ops * SyncsPerOp(point), &r.metrics);
  *out = std::move(r);
  return Status::OK();
}

}  // namespace disktune
