#include "src/cli/probe_options.h"

#include "src/cli/command.h"
#include "src/core/units.h"

namespace disktune::cli {

void AddProbeFlags(CLI::App* cmd, ProbeFlags* f) {
  cmd->add_flag("--quick", f->quick,
                "short points on a 256MiB file (probe finishes within a minute)");
  std::string ids;
  for (const auto& p : AllProbes()) ids += (ids.empty() ? "" : ", ") + std::string(p->id());
  cmd->add_option("--probes", f->probes, "probes to run (default: all): " + ids)
      ->delimiter(',')
      ->type_name("ID[,ID]");
  cmd->add_option("--file-size", f->file_size,
                  "test file size (default 256MiB quick, 1GiB full); checked against free space")
      ->type_name("SIZE");
  cmd->add_option("--duration", f->duration, "measured time per point (default 1s quick, 5s)")
      ->type_name("DURATION");
  cmd->add_option("--warmup", f->warmup,
                  "discarded time before each point (default 250ms quick, 1s)")
      ->type_name("DURATION");
  cmd->add_option("--queue-depths", f->queue_depths,
                  "rand_read queue depths (default 1,2,4,8,16,32,64,128)")
      ->delimiter(',')
      ->type_name("N[,N]");
  cmd->add_flag("--with-fio", f->with_fio,
                "after each native point, run the same job in fio and store both");
  cmd->add_flag("--buffered", f->buffered,
                "where O_DIRECT is refused (tmpfs), measure buffered I/O instead of skipping");
  cmd->add_option("--seed", f->seed, "random seed (recorded in the report)");
}

Result<ProbeConfig> BuildProbeConfig(const ProbeFlags& f) {
  ProbeConfig c = ProbeConfig::Defaults(f.quick);
  if (!f.file_size.empty()) {
    Result<uint64_t> v = ParseSizeFlag("--file-size", f.file_size, "1GiB");
    if (!v.ok()) return v.status();
    if (*v < (1u << 20)) {
      return Status::InvalidArgument("--file-size: at least 1MiB is needed; e.g. --file-size 1GiB");
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
      return Status::InvalidArgument("--warmup: " + v.status().message() + "; e.g. --warmup 1s");
    }
    c.warmup_ns = *v;
  }
  if (!f.queue_depths.empty()) {
    for (int qd : f.queue_depths) {
      if (qd < 1 || qd > 4096) {
        return Status::InvalidArgument("--queue-depths: " + std::to_string(qd) +
                                       " is out of range 1..4096; e.g. --queue-depths 1,8,32");
      }
    }
    c.queue_depths = f.queue_depths;
  }
  c.with_fio = f.with_fio;
  c.buffered = f.buffered;
  if (f.seed) c.seed = *f.seed;
  return c;
}

}  // namespace disktune::cli
