#include "probes/block_io_point.h"

#include <fcntl.h>
#include <unistd.h>

#include <optional>

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
  return config.with_fio ? 2 * one + 300000000 : one;
}

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
  Result<int> fd = OpenTestFile(ctx.test_file, direct, point.write);
  if (!fd.ok()) {
    *out = ProbeResult::Failed(point.probe, name, fd.status().message());
    out->params = r.params;
    return Status::OK();
  }
  if (!direct) posix_fadvise(*fd, 0, 0, POSIX_FADV_DONTNEED);
  // fio runs the same job on the same file, after the native point or, with
  // --fio-first, before it.
  std::optional<FioComparison> fio;
  auto run_fio = [&]() -> Status {
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
    Result<FioComparison> f = RunFio(fj);
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
  if (point.write) {
    // One pass over the test file at most, plus half a pass of warm-up.
    job.max_bytes = cfg.file_size_bytes;
    job.max_warmup_bytes = cfg.file_size_bytes / 2;
    r.params.extra["max_bytes"] = job.max_bytes;
  }
  Result<UringJobResult> jr = RunUringJob(job);
  if (point.write && jr.ok()) fdatasync(*fd);
  close(*fd);
  if (!jr.ok()) {
    if (jr.status().IsAborted()) return jr.status();
    *out = ProbeResult::Failed(point.probe, name, jr.status().message());
    out->params = r.params;
    return Status::OK();
  }
  double secs = jr->elapsed_ns / 1e9;
  if (jr->ops == 0 || secs <= 0) {
    *out = ProbeResult::Failed(
        point.probe, name,
        "no I/O completed inside the measured window; use a longer "
        "--duration");
    out->params = r.params;
    return Status::OK();
  }
  r.iops = jr->ops / secs;
  r.bytes_per_sec = jr->bytes / secs;
  r.latency_ns = jr->latency_ns.Summary();
  r.samples = jr->ops;
  r.bytes = jr->bytes;
  r.elapsed_ns = jr->elapsed_ns;
  if (cfg.with_fio && !cfg.fio_first) DT_RETURN_IF_ERROR(run_fio());
  if (fio) {
    AddFioRatios(r, &*fio);
    r.fio = *fio;
  }
  *out = std::move(r);
  return Status::OK();
}

}  // namespace disktune
