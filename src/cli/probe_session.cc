#include "src/cli/probe_session.h"

#include <unistd.h>

#include <filesystem>

#include "probes/probe_runner.h"
#include "src/cli/fillsync_on_fs.h"
#include "src/cli/restore_command.h"
#include "src/cli/throttle_session.h"
#include "src/core/json_input.h"
#include "src/core/output_file.h"
#include "src/core/signals.h"
#include "src/core/units.h"

namespace disktune::cli {

Status CheckJsonDestination(const CommonOptions& common) {
  if (common.json_path.empty() || common.json_path == "-") return Status::OK();
  return CheckOutputFile(common.json_path, "--json");
}

Status RunProbeSession(const CommonOptions& common, const ProbeFlags& flags,
                       CommandContext& ctx, const ScratchDir* scratch,
                       Report* report, ProgressSink* given) {
  InstallInterruptHandlers();
  Result<ProbeConfig> config = BuildProbeConfig(flags);
  if (!config.ok()) return config.status();
  Result<std::vector<const Probe*>> probes =
      SelectProbes(flags.probes.empty() ? DefaultProbeIds() : flags.probes);
  if (!probes.ok()) return probes.status().WithContext("--probes");
  DT_RETURN_IF_ERROR(CheckJsonDestination(common));
  // A caller passing its scratch directory has throttled it already; the
  // limits still set the progress estimate's priors.
  Result<std::optional<ThrottleSpec>> throttle = PlanThrottle(common);
  if (!throttle.ok()) return throttle.status();
  DT_RETURN_IF_ERROR(CheckThrottledProbes(*config, common.throttle));
  if (*throttle) PlanForThrottle(**throttle, &*config);
  std::unique_ptr<TerminalProgress> own_progress;
  ProgressSink* progress = given;
  if (progress == nullptr) {
    own_progress = MakeProgress(ctx, common);
    progress = own_progress.get();
  }
  std::unique_ptr<ScratchDir> own;
  std::unique_ptr<ThrottleSession> throttled;
  if (scratch == nullptr) {
    // A run killed with a device setting changed is repaired before
    // measuring (a caller passing its scratch directory has done so).
    DT_RETURN_IF_ERROR(RecoverFromKilledRun(ctx));
    Result<std::unique_ptr<ScratchDir>> opened = OpenScratch(common);
    if (!opened.ok()) return opened.status();
    own = std::move(*opened);
    scratch = own.get();
    if (*throttle) {
      Result<std::unique_ptr<ThrottleSession>> t =
          ThrottleSession::Start(**throttle, *own, progress);
      if (!t.ok()) return t.status();
      throttled = std::move(*t);
      scratch = &throttled->scratch();
    }
  }
  const ScratchDir& dir = *scratch;
  // The size check comes before any write, with the flag to change named.
  // Probes that make their own files (fsync) check their own space.
  bool need_file = false;
  for (const Probe* p : *probes) need_file |= p->needs_test_file();
  Status space =
      need_file ? dir.RequireFreeSpace(
                      config->file_size_bytes + (64ull << 20),
                      "--file-size " + FormatBytes(config->file_size_bytes))
                : Status::OK();
  if (!space.ok()) return space;

  report->environment = CollectEnvironment(dir.path());
  report->config["probe"] = *config;
  nlohmann::json ids = nlohmann::json::array();
  for (const Probe* p : *probes) ids.push_back(std::string(p->id()));
  report->config["probes"] = ids;
  report->config["scratch_dir"] = PathToJson(dir.path());

  ProbeRunOutput out;
  FilesystemWorkload fs_workload;
  if (!config->fs_matrix.empty()) fs_workload = FillsyncWorkload(config->quick);
  Status s = RunProbes(*probes, *config, dir, report->environment, progress,
                       &out, fs_workload);
  if (own_progress) own_progress->Finish();
  // A shared scratch directory outlives the session: the space of the test
  // file goes back to what runs next in it.
  if (own == nullptr && !out.test_file.empty() && !common.keep)
    (void)dir.Unlink("probe.dat");
  report->probes = std::move(out.results);
  report->analyses = std::move(out.analyses);
  report->warnings = std::move(out.warnings);
  report->bytes_written = out.bytes_written;
  if (throttled) {
    Status t = throttled->Finish(&report->environment);
    if (s.ok()) s = t;
  }
  if (s.IsAborted()) report->completion = "interrupted";
  return s;
}

}  // namespace disktune::cli
