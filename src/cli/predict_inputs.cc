#include "src/cli/predict_inputs.h"

#include "src/cli/probe_session.h"
#include "src/predict/disk_figures.h"

namespace disktune::cli {

Result<predict::DiskFigures> DiskFiguresFromFile(const std::string& path,
                                                 Report* report) {
  auto read = ReadReportFile(path);
  if (!read.ok()) return read.status();
  auto disk = predict::DiskFiguresFromProbes(read->probes);
  if (!disk.ok()) return disk.status().WithContext("--probe-result " + path);
  *report = std::move(*read);
  return disk;
}

Result<predict::DiskFigures> ModelDiskFigures(
    const std::string& probe_result_path, const CommonOptions& common,
    CommandContext& ctx, const app::Session& session, Report* report) {
  if (!probe_result_path.empty()) {
    Report from_file;
    auto disk = DiskFiguresFromFile(probe_result_path, &from_file);
    if (!disk.ok()) return disk.status();
    report->config["probe_result"] = probe_result_path;
    return disk;
  }
  // The points disk_figures.h reads, short: predict::ModelProbeArgs().
  ProbeFlags flags;
  flags.quick = true;
  flags.probes = {"seq_read", "rand_read", "seq_write", "fsync"};
  flags.file_size = "64MiB";
  flags.duration = "500ms";
  flags.warmup = "100ms";
  flags.queue_depths = {1, 32};
  flags.fsync_methods = {"fdatasync"};
  flags.fsync_sizes = {"512"};
  flags.fsync_modes = {"append"};
  flags.measure_with = "native";
  CommonOptions quiet = common;
  quiet.json_path.clear();
  quiet.progress = "never";
  Result<ProbeSetup> setup = PlanProbeStep(quiet, flags);
  if (!setup.ok()) return setup.status();
  std::unique_ptr<TerminalProgress> progress = MakeProgress(ctx, quiet);
  Report probed;
  Status s = app::RunProbeStep(setup->plan, session, progress.get(),
                               common.keep, &probed);
  progress->Finish();
  if (!s.ok()) return s;
  auto disk = predict::DiskFiguresFromProbes(probed.probes);
  for (ProbeResult& p : probed.probes) report->probes.push_back(std::move(p));
  report->bytes_written += probed.bytes_written;
  return disk;
}

}  // namespace disktune::cli
