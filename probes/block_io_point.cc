#include "probes/block_io_point.h"

#include <fcntl.h>
#include <unistd.h>

#include <optional>

#include "probes/cgroup_throttle.h"
#include "probes/fio_runner.h"
#include "probes/test_file.h"
#include "probes/uring_job.h"

namespace disktune {

std::string BlockPointName(const BlockPoint& p) {
  std::string bs = p.block_size >= (1u << 20)
                       ? std::to_string(p.block_size >> 20) + "m"
                       : std::to_string(p.block_size >> 10) + "k";
  return std::string(p.probe) + "." + bs + ".qd" +
         std::to_string(p.queue_depth);
}

uint64_t BlockPointNanos(const ProbeConfig& config) {
  uint64_t one = config.warmup_ns + config.duration_ns;
  if (config.with_fio) return 2 * one + 300000000;
  // fio starting up, when it may measure.
  return config.measure_with == MeasureWith::kNative ? one : one + 150000000;
}

namespace {

// The fio job equivalent to a point: same file, pattern, block size, depth,
// warm-up and duration.
FioJob PointFioJob(const ProbeContext& ctx, const BlockPoint& point,
                   bool direct) {
  const ProbeConfig& cfg = *ctx.config;
  FioJob fj;
  fj.file = ctx.test_file;
  fj.file_size_bytes = cfg.file_size_bytes;
  fj.write = point.write;
  fj.random = point.random;
  fj.block_size = point.block_size;
  fj.queue_depth = point.queue_depth;
  fj.direct = direct;
  fj.warmup_ns = cfg.warmup_ns;
  fj.duration_ns = cfg.duration_ns;
  fj.huge_pages = FioHugePagesFit(point.queue_depth, point.block_size);
  return fj;
}

// The most a bio of 4 KiB pages carries on a queue of 128 segments (the loop
// device under --throttle): a larger write from such buffers is split.
constexpr uint64_t kPageBioBytes = 128 * 4096;

// Why the native loop measures this point instead of fio ("" when fio was
// not wanted, or would measure).
std::string NativeReason(const ProbeContext& ctx, const BlockPoint& point,
                         bool* use_fio) {
  const ProbeConfig& cfg = *ctx.config;
  *use_fio = false;
  if (cfg.with_fio || cfg.measure_with == MeasureWith::kNative) return "";
  if (!FioInstalled()) {
    return "fio is not installed (apt-get install fio)";
  }
  if (cfg.measure_with == MeasureWith::kAuto && point.write &&
      point.block_size > kPageBioBytes &&
      !FioHugePagesFit(point.queue_depth, point.block_size) &&
      OwnCgroupLimitsWriteIops(ctx.test_file)) {
    return "a cgroup limits this device's write IOPS, which charges every "
           "bio, and fio's buffers (4 KiB pages) would split each write into "
           "bios of 512 KiB; the native loop's huge-page buffers send it "
           "whole, as writeback does (reserve huge pages, vm.nr_hugepages, "
           "for fio to measure it)";
  }
  *use_fio = true;
  return "";
}

}  // namespace

Status RunBlockPoint(ProbeContext& ctx, const BlockPoint& point,
                     ProbeResult* out) {
  const ProbeConfig& cfg = *ctx.config;
  std::string name = BlockPointName(point);
  ProbeResult r;
  r.probe = point.probe;
  r.name = name;
  r.params.block_size_bytes = point.block_size;
  r.params.queue_depth = point.queue_depth;
  r.params.pattern = point.random ? "random" : "sequential";
  r.params.file_size_bytes = cfg.file_size_bytes;
  r.params.duration_ns = cfg.duration_ns;
  r.params.warmup_ns = cfg.warmup_ns;
  r.params.io_engine = "io_uring";
  r.params.extra["seed"] = cfg.seed;

  if (!ctx.direct_supported && !cfg.buffered) {
    *out = ProbeResult::Skipped(
        point.probe, name,
        ctx.direct_refusal +
            "; use a --dir on a disk, or pass --buffered to measure "
            "through the page cache");
    out->params = r.params;
    return Status::OK();
  }
  bool direct = ctx.direct_supported;
  r.params.direct = direct;
  if (!direct) {
    r.params.extra["note"] = "buffered I/O (" + ctx.direct_refusal +
                             "): measures the page cache, not the device";
  }
  // Native writes stop after one pass over the file (plus half a pass of
  // warm-up); fio gets the same total as its io_size.
  uint64_t max_bytes = point.write ? cfg.file_size_bytes : 0;
  uint64_t max_warmup_bytes = point.write ? cfg.file_size_bytes / 2 : 0;
  if (point.write) r.params.extra["max_bytes"] = max_bytes;

  bool use_fio = false;
  r.measured_by_reason = NativeReason(ctx, point, &use_fio);
  if (use_fio) {
    FioJob fj = PointFioJob(ctx, point, direct);
    fj.max_bytes = max_bytes ? max_bytes + max_warmup_bytes : 0;
    Result<FioComparison> f = RunFio(fj);
    if (!f.ok()) return f.status();  // only Aborted comes back as an error
    Status filled = FillFromFio(*f, &r);
    if (filled.ok()) {
      *out = std::move(r);
      return Status::OK();
    }
    r.measured_by_reason = filled.message();
  }
  r.measured_by = MeasuredBy::kNative;
  // A point the native loop could not measure keeps who tried and why.
  auto fail = [&](const std::string& error) {
    *out = ProbeResult::Failed(point.probe, name, error);
    out->params = r.params;
    out->measured_by = r.measured_by;
    out->measured_by_reason = r.measured_by_reason;
  };

  Result<int> fd = OpenTestFile(ctx.test_file, direct, point.write);
  if (!fd.ok()) {
    fail(fd.status().message());
    return Status::OK();
  }
  if (!direct) posix_fadvise(*fd, 0, 0, POSIX_FADV_DONTNEED);
  // With --with-fio, fio runs the same job on the same file, after the
  // native point or, with --fio-first, before it.
  std::optional<FioComparison> fio;
  auto run_fio = [&]() -> Status {
    Result<FioComparison> f = RunFio(PointFioJob(ctx, point, direct));
    if (!f.ok()) return f.status();  // only Aborted comes back as an error
    fio = *f;
    return Status::OK();
  };
  if (cfg.with_fio && cfg.fio_first) {
    Status s = run_fio();
    if (!s.ok()) {
      close(*fd);
      return s;
    }
  }
  UringJob job;
  job.fd = *fd;
  job.write = point.write;
  job.random = point.random;
  job.block_size = point.block_size;
  job.queue_depth = point.queue_depth;
  job.region_bytes = cfg.file_size_bytes;
  job.warmup_ns = cfg.warmup_ns;
  job.duration_ns = cfg.duration_ns;
  // Each point gets its own stream so adding a point does not shift the others.
  job.seed = cfg.seed ^ std::hash<std::string>{}(name);
  job.max_bytes = max_bytes;
  job.max_warmup_bytes = max_warmup_bytes;
  Result<UringJobResult> jr = RunUringJob(job);
  if (point.write && jr.ok()) fdatasync(*fd);
  close(*fd);
  if (!jr.ok()) {
    if (jr.status().IsAborted()) return jr.status();
    fail(jr.status().message());
    return Status::OK();
  }
  double secs = jr->elapsed_ns / 1e9;
  if (jr->ops == 0 || secs <= 0) {
    fail(
        "no I/O completed inside the measured window; use a longer "
        "--duration");
    return Status::OK();
  }
  r.iops = jr->ops / secs;
  r.bytes_per_sec = jr->bytes / secs;
  r.latency_ns = jr->latency_ns.Summary();
  r.samples = jr->ops;
  r.bytes = jr->bytes;
  r.elapsed_ns = jr->elapsed_ns;
  r.metrics["context_switches"] = jr->context_switches;
  if (cfg.with_fio && !cfg.fio_first) DT_RETURN_IF_ERROR(run_fio());
  if (fio) {
    AddFioRatios(r, &*fio);
    r.fio = *fio;
  }
  *out = std::move(r);
  return Status::OK();
}

}  // namespace disktune
