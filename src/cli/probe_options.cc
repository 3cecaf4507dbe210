#include "src/cli/probe_options.h"

#include <algorithm>

#include "probes/fsync_point.h"
#include "probes/loop_fs.h"
#include "src/cli/command.h"
#include "src/core/units.h"

namespace disktune::cli {
namespace {

std::string Join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::vector<std::string> MethodNames() {
  std::vector<std::string> v;
  for (SyncMethod m : DurableSyncMethods()) v.emplace_back(SyncMethodName(m));
  return v;
}

void AddDurabilityFlags(CLI::App* cmd, ProbeFlags* f) {
  cmd->add_flag(
      "--write-cache-ab", f->write_cache_ab,
      "root: also run the fsync family with the write cache switched (the "
      "drive's "
      "own switch; the kernel's view on loop devices), then restore it");
  cmd->add_flag(
      "--kernel-cache-switch", f->kernel_cache_switch,
      "with --write-cache-ab on a disk without a drive-level switch, use the "
      "kernel's view (/sys/block/X/queue/write_cache): stops flushes, not "
      "durable");
  cmd->add_option("--fs-matrix", f->fs_matrix,
                  "root: run the fsync family on each filesystem (" +
                      Join(MatrixFilesystems()) + ") on a loop device in --dir")
      ->delimiter(',')
      ->type_name("FS[,FS]");
  cmd->add_option(
         "--fsync-methods", f->fsync_methods,
         "fsync probe: only these methods (" + Join(MethodNames()) + ")")
      ->delimiter(',')
      ->type_name("M[,M]");
  cmd->add_option("--fsync-sizes", f->fsync_sizes,
                  "fsync probe: only these write sizes (bytes, or with a unit: "
                  "2300,4KiB)")
      ->delimiter(',')
      ->type_name("SIZE[,SIZE]");
  cmd->add_option("--fsync-modes", f->fsync_modes,
                  "fsync probe: only these file layouts (append: a growing "
                  "file; overwrite: a written one; prealloc: a file "
                  "fallocate() reserved, as etcd's WAL)")
      ->delimiter(',')
      ->type_name("MODE[,MODE]");
  cmd->add_option("--fsync-duration", f->fsync_duration,
                  "fsync probe: measured time per point (default a quarter "
                  "of --duration); a point stops once it also has 1,000 "
                  "syncs, or at 4x this whatever the count")
      ->type_name("DURATION");
}

Status ApplyDurabilityFlags(const ProbeFlags& f, ProbeConfig* c) {
  for (const auto& fs : f.fs_matrix) {
    const auto& valid = MatrixFilesystems();
    if (std::find(valid.begin(), valid.end(), fs) == valid.end()) {
      return Status::InvalidArgument("--fs-matrix: unknown filesystem '" + fs +
                                     "'; valid: " + Join(valid));
    }
    if (std::find(c->fs_matrix.begin(), c->fs_matrix.end(), fs) ==
        c->fs_matrix.end()) {
      c->fs_matrix.push_back(fs);
    }
  }
  for (const auto& m : f.fsync_methods) {
    if (!ParseSyncMethod(m) || m == "none") {
      return Status::InvalidArgument("--fsync-methods: unknown method '" + m +
                                     "'; valid: " + Join(MethodNames()));
    }
    c->fsync_methods.push_back(m);
  }
  for (const auto& text : f.fsync_sizes) {
    uint64_t bytes = 0;
    if (!text.empty() &&
        text.find_first_not_of("0123456789") == std::string::npos) {
      bytes = std::stoull(text);  // a write size is naturally in bytes: 2300
    } else {
      Result<uint64_t> v = ParseSize(text);
      if (!v.ok()) {
        return Status::InvalidArgument(
            "--fsync-sizes: " + v.status().message() +
            "; e.g. --fsync-sizes 2300,4KiB");
      }
      bytes = *v;
    }
    if (bytes < 1 || bytes > (16u << 20)) {
      return Status::InvalidArgument(
          "--fsync-sizes: " + text +
          " is out of range 1 B..16 MiB; e.g. --fsync-sizes 2300");
    }
    c->fsync_sizes.push_back(bytes);
  }
  for (const auto& m : f.fsync_modes) {
    if (!ParseFileMode(m)) {
      return Status::InvalidArgument("--fsync-modes: unknown mode '" + m +
                                     "'; valid: append, overwrite, prealloc");
    }
    c->fsync_modes.push_back(m);
  }
  if (!f.fsync_duration.empty()) {
    Result<uint64_t> v =
        ParseDurationFlag("--fsync-duration", f.fsync_duration, "2s");
    if (!v.ok()) return v.status();
    if (*v < 1000000 || *v > 60'000'000'000ull) {
      return Status::InvalidArgument(
          "--fsync-duration: " + f.fsync_duration +
          " is out of range 1ms..60s; e.g. --fsync-duration 2s");
    }
    c->fsync_duration_ns = *v;
  }
  if (f.kernel_cache_switch && !f.write_cache_ab) {
    return Status::InvalidArgument(
        "--kernel-cache-switch only applies with --write-cache-ab; add "
        "--write-cache-ab");
  }
  bool narrowed = !f.fsync_methods.empty() || !f.fsync_sizes.empty() ||
                  !f.fsync_modes.empty() || !f.fsync_duration.empty();
  if ((f.write_cache_ab || !f.fs_matrix.empty() || narrowed) &&
      !f.probes.empty() &&
      std::find(f.probes.begin(), f.probes.end(), "fsync") == f.probes.end()) {
    std::string flag = f.write_cache_ab       ? "--write-cache-ab"
                       : !f.fs_matrix.empty() ? "--fs-matrix"
                                              : "--fsync-*";
    return Status::InvalidArgument(
        flag + " runs within the fsync probe; add fsync to --probes");
  }
  c->write_cache_ab = f.write_cache_ab;
  c->kernel_switch = f.kernel_cache_switch;
  return Status::OK();
}

}  // namespace

void AddProbeFlags(CLI::App* cmd, ProbeFlags* f) {
  cmd->add_flag(
      "--quick", f->quick,
      "short points on a 256MiB file (probe finishes within a minute)");
  std::string ids;
  for (const auto& p : AllProbes())
    ids += (ids.empty() ? "" : ", ") + std::string(p->id());
  cmd->add_option("--probes", f->probes, "probes to run (default: all): " + ids)
      ->delimiter(',')
      ->type_name("ID[,ID]");
  cmd->add_option("--file-size", f->file_size,
                  "test file size (default 256MiB quick, 1GiB full); checked "
                  "against free space")
      ->type_name("SIZE");
  cmd->add_option("--duration", f->duration,
                  "measured time per point (default 1s quick, 4s)")
      ->type_name("DURATION");
  cmd->add_option("--warmup", f->warmup,
                  "discarded time before each point (default 250ms quick, 1s)")
      ->type_name("DURATION");
  cmd->add_option("--queue-depths", f->queue_depths,
                  "rand_read queue depths (default 1,2,4,8,16,32,64,128)")
      ->delimiter(',')
      ->type_name("N[,N]");
  cmd->add_option(
         "--measure-with", f->measure_with,
         "which I/O loop measures the block I/O points: auto (default: fio "
         "when installed, else the native io_uring loop), native or fio; a "
         "point fio cannot measure falls back to the native loop, and the "
         "report names the loop of every point")
      ->type_name("auto|native|fio");
  cmd->add_flag("--with-fio", f->with_fio,
                "the native loop measures each point, then fio runs the same "
                "job; stores both and the native/fio ratios");
  cmd->add_flag("--fio-first", f->fio_first,
                "with --with-fio: run fio before the native point instead of "
                "after (whichever runs second may find the device's cache "
                "warm; run both orders to cancel that)");
  cmd->add_flag("--buffered", f->buffered,
                "where O_DIRECT is refused (tmpfs), measure buffered I/O "
                "instead of skipping");
  cmd->add_option("--seed", f->seed, "random seed (recorded in the report)");
  cmd->add_option("--repeat", f->repeat,
                  "measure each probe point N times, the rounds interleaved "
                  "across points; reports the median round and the spread "
                  "(min..max) that compare uses to tell noise from change "
                  "(default 1)")
      ->type_name("N");
  AddDurabilityFlags(cmd, f);
}

Result<ProbeConfig> BuildProbeConfig(const ProbeFlags& f) {
  ProbeConfig c = ProbeConfig::Defaults(f.quick);
  if (!f.file_size.empty()) {
    Result<uint64_t> v = ParseSizeFlag("--file-size", f.file_size, "1GiB");
    if (!v.ok()) return v.status();
    if (*v < (1u << 20)) {
      return Status::InvalidArgument(
          "--file-size: at least 1MiB is needed; e.g. --file-size 1GiB");
    }
    c.file_size_bytes = *v;
  }
  if (!f.duration.empty()) {
    Result<uint64_t> v = ParseDurationFlag("--duration", f.duration, "5s");
    if (!v.ok()) return v.status();
    c.duration_ns = *v;
  }
  if (!f.warmup.empty()) {
    Result<uint64_t> v = ParseDuration(f.warmup);
    if (!v.ok()) {
      return Status::InvalidArgument("--warmup: " + v.status().message() +
                                     "; e.g. --warmup 1s");
    }
    c.warmup_ns = *v;
  }
  if (!f.queue_depths.empty()) {
    for (int qd : f.queue_depths) {
      if (qd < 1 || qd > 4096) {
        return Status::InvalidArgument(
            "--queue-depths: " + std::to_string(qd) +
            " is out of range 1..4096; e.g. --queue-depths 1,8,32");
      }
    }
    c.queue_depths = f.queue_depths;
  }
  c.with_fio = f.with_fio;
  if (f.fio_first && !f.with_fio) {
    return Status::InvalidArgument(
        "--fio-first only orders the fio runs; add --with-fio");
  }
  c.fio_first = f.fio_first;
  if (!f.measure_with.empty()) {
    std::optional<MeasureWith> m = ParseMeasureWith(f.measure_with);
    if (!m) {
      return Status::InvalidArgument("--measure-with: '" + f.measure_with +
                                     "' is not auto, native or fio");
    }
    if (*m == MeasureWith::kFio && f.with_fio) {
      return Status::InvalidArgument(
          "--with-fio compares the native loop with fio; it cannot go with "
          "--measure-with fio");
    }
    c.measure_with = *m;
  }
  c.buffered = f.buffered;
  if (f.seed) c.seed = *f.seed;
  if (f.repeat < 1 || f.repeat > 100) {
    return Status::InvalidArgument("--repeat: " + std::to_string(f.repeat) +
                                   " is out of range 1..100; e.g. --repeat 3");
  }
  c.repeat = f.repeat;
  DT_RETURN_IF_ERROR(ApplyDurabilityFlags(f, &c));
  return c;
}

}  // namespace disktune::cli
