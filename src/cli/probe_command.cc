// `disktune probe`: the device probes, as a report.
#include "probes/probe_runner.h"
#include "reports/text_report.h"
#include "src/app/probe_step.h"
#include "src/cli/command.h"
#include "src/cli/open_session.h"
#include "src/cli/probe_options.h"
#include "src/cli/probe_session.h"
#include "src/core/signals.h"
#include "src/model/report.h"

namespace disktune::cli {
namespace {

struct ProbeCommandOptions {
  CommonOptions common;
  ProbeFlags probe;
  std::string service;
};

// The probe step in a Session of its own; the throttle (when given) goes
// before the report is finished, recording what escaped it.
Status ProbeInSession(const ProbeCommandOptions& o, CommandContext& ctx,
                      Report* report) {
  Result<ProbeSetup> setup = PlanProbeStep(o.common, o.probe);
  if (!setup.ok()) return setup.status();
  std::unique_ptr<TerminalProgress> progress = MakeProgress(ctx, o.common);
  Result<std::unique_ptr<app::Session>> session =
      OpenSession(ctx, o.common, setup->throttle, progress.get());
  if (!session.ok()) return session.status();
  Status s = app::RunProbeStep(setup->plan, **session, progress.get(),
                               o.common.keep, report);
  progress->Finish();
  Status t = (*session)->FinishThrottle(&report->environment);
  return s.ok() ? t : s;
}

int RunProbeCommand(const ProbeCommandOptions& o, CommandContext& ctx) {
  InstallInterruptHandlers();
  if (Status sv = CheckServiceFlag(o.service); !sv.ok()) return Fail(ctx, sv);
  Report report = NewReport("probe");
  Status s = ProbeInSession(o, ctx, &report);
  FinishReport(o.service, &report);
  if (!s.ok() && !report.probes.empty() && s.IsAborted()) {
    (void)EmitJson(ctx, o.common, ReportToJson(report));
  }
  if (!s.ok()) return Fail(ctx, s);
  Status js = EmitJson(ctx, o.common, ReportToJson(report));
  if (!js.ok()) return Fail(ctx, js);
  if (std::ostream* human = HumanStream(ctx, o.common))
    *human << RenderText(report);
  if (EveryPointFailed(report.probes)) {
    ctx.err << "disktune: every measurement failed (see the warnings above); "
               "nothing was measured\n";
    return kExitMeasurementFailed;
  }
  return kExitOk;
}

}  // namespace

void SetupProbeCommand(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<ProbeCommandOptions>();
  CLI::App* cmd = app.add_subcommand("probe",
                                     "measure the disk under --dir: direct-I/O "
                                     "reads and writes, IOPS vs queue depth");
  AddCommonOptions(cmd, &opts->common, /*with_dir=*/true);
  AddProgressOption(cmd, &opts->common);
  AddProbeFlags(cmd, &opts->probe);
  AddServiceOption(cmd, &opts->service);
  cmd->callback([opts, &ctx] { ctx.exit_code = RunProbeCommand(*opts, ctx); });
}

}  // namespace disktune::cli
