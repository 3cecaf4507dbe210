// `disktune run`: the main job. Probes the disk under --dir, and writes
// result.json and report.txt into --out (default: a dated directory under the
// current one), printing where they are.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "reports/report.h"
#include "reports/text_report.h"
#include "src/cli/command.h"
#include "src/cli/probe_options.h"
#include "src/cli/probe_session.h"
#include "src/core/sysinfo.h"

namespace disktune::cli {
namespace {

struct RunCommandOptions {
  CommonOptions common;
  ProbeFlags probe;
  std::string out_dir;
};

// Creates --out (its parent must exist); refuses a file or a non-empty
// directory holding a previous result, so nothing is overwritten.
Status PrepareOutDir(const std::string& out) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p = fs::absolute(out, ec);
  if (fs::exists(p, ec)) {
    if (!fs::is_directory(p, ec)) {
      return Status::InvalidArgument("--out " + out + " is a file; pass a directory");
    }
    if (fs::exists(p / "result.json", ec)) {
      return Status::InvalidArgument("--out " + out +
                                     " already holds a result.json; choose a new directory");
    }
    return Status::OK();
  }
  if (!fs::is_directory(p.parent_path(), ec)) {
    return Status::NotFound("--out " + out + ": parent directory " + p.parent_path().string() +
                            " does not exist; create it first");
  }
  if (mkdir(p.c_str(), 0755) != 0) return Status::FromErrno(errno, "--out " + out);
  return Status::OK();
}

int RunRunCommand(RunCommandOptions o, CommandContext& ctx) {
  if (o.out_dir.empty()) o.out_dir = "disktune-run-" + LocalStamp();
  // Probe flags are validated before --out is created, so bad input leaves nothing.
  Result<ProbeConfig> cfg = BuildProbeConfig(o.probe);
  if (!cfg.ok()) return Fail(ctx, cfg.status());
  Status js = CheckJsonDestination(o.common);
  if (!js.ok()) return Fail(ctx, js);
  namespace fs = std::filesystem;
  std::error_code ec;
  bool out_existed = fs::exists(o.out_dir, ec);
  Status s = PrepareOutDir(o.out_dir);
  if (!s.ok()) return Fail(ctx, s);

  Report report = NewReport("run");
  report.config["out_dir"] = fs::absolute(o.out_dir, ec).string();
  s = RunProbeSession(o.common, o.probe, ctx, &report);
  if (!s.ok() && !s.IsAborted()) {
    if (!out_existed) fs::remove_all(o.out_dir, ec);
    return Fail(ctx, s);
  }
  std::string result_path = o.out_dir + "/result.json";
  Status ws = WriteJsonFile(result_path, ReportToJson(report));
  if (!ws.ok()) return Fail(ctx, ws);
  std::string text = RenderText(report);
  {
    std::ofstream txt(o.out_dir + "/report.txt");
    txt << text;
  }
  if (!s.ok()) return Fail(ctx, s);  // interrupted: the partial result is kept, marked
  Status e = EmitJson(ctx, o.common, ReportToJson(report));
  if (!e.ok()) return Fail(ctx, e);
  if (std::ostream* human = HumanStream(ctx, o.common)) {
    *human << text << "\nresults in " << fs::absolute(o.out_dir, ec).string()
           << "/: result.json, report.txt\n";
  }
  return 0;
}

}  // namespace

void SetupRunCommand(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<RunCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "run", "the main job: probe the disk and write result.json and the report into --out");
  AddCommonOptions(cmd, &opts->common, /*with_dir=*/true);
  AddProbeFlags(cmd, &opts->probe);
  cmd->add_option("--out", opts->out_dir,
                  "output directory for result.json and the reports (default: "
                  "disktune-run-<time> under the current directory)")
      ->type_name("DIR");
  cmd->callback([opts, &ctx] { ctx.exit_code = RunRunCommand(*opts, ctx); });
}

}  // namespace disktune::cli
