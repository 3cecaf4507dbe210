#include "src/app/probe_step.h"

#include <string>
#include <utility>

#include "probes/probe_runner.h"
#include "src/app/fillsync_on_fs.h"
#include "src/core/json_input.h"
#include "src/core/units.h"

namespace disktune::app {

Status RunProbeStep(const ProbePlan& plan, const Session& session,
                    ProgressSink* progress, bool keep, Report* report) {
  const ScratchDir& dir = session.scratch();
  const ProbeConfig& config = plan.config;
  // The size check comes before any write, with the flag to change named.
  // Probes that make their own files (fsync) check their own space.
  bool need_file = false;
  for (const Probe* p : plan.probes) need_file |= p->needs_test_file();
  if (need_file) {
    DT_RETURN_IF_ERROR(dir.RequireFreeSpace(
        config.file_size_bytes + (64ull << 20),
        "--file-size " + FormatBytes(config.file_size_bytes)));
  }

  report->environment = session.environment();
  report->config["probe"] = config;
  nlohmann::json ids = nlohmann::json::array();
  for (const Probe* p : plan.probes) ids.push_back(std::string(p->id()));
  report->config["probes"] = ids;
  report->config["scratch_dir"] = PathToJson(dir.path());

  ProbeRunOutput out;
  FilesystemWorkload fs_workload;
  if (!config.fs_matrix.empty()) fs_workload = FillsyncWorkload(config.quick);
  Status s = RunProbes(plan.probes, config, dir, report->environment, progress,
                       &out, fs_workload);
  if (!out.test_file.empty() && !keep) (void)dir.Unlink("probe.dat");
  report->probes = std::move(out.results);
  report->analyses = std::move(out.analyses);
  report->warnings = std::move(out.warnings);
  report->bytes_written = out.bytes_written;
  if (s.IsAborted()) report->completion = "interrupted";
  return s;
}

}  // namespace disktune::app
