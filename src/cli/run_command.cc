// `disktune run`: the main job end to end. Probes the disk under --dir, runs
// the baseline db_bench scenarios on the embedded engine (LevelDB by
// default), tunes the engine for the chosen workload with the probe's facts,
// and writes result.json, report.html, report.txt and the profile (with the
// engine's own forms) into --out (default: a dated directory under the
// current one), printing where they are.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "engines/engine.h"
#include "reports/html_report.h"
#include "reports/text_report.h"
#include "src/app/run_plan.h"
#include "src/app/session.h"
#include "src/app/write_count.h"
#include "src/bench/runner.h"
#include "src/cli/command.h"
#include "src/cli/open_session.h"
#include "src/cli/output_plan.h"
#include "src/cli/probe_options.h"
#include "src/cli/probe_session.h"
#include "src/cli/profile_dirs.h"
#include "src/core/json_input.h"
#include "src/core/output_file.h"
#include "src/core/signals.h"
#include "src/core/sysinfo.h"
#include "src/core/units.h"
#include "src/model/report.h"
#include "src/tune/engine_forms.h"
#include "src/tune/knobs.h"
#include "src/tune/profile.h"
#include "src/tune/run_budget.h"
#include "src/tune/tuner.h"
#include "src/tune/workload.h"

namespace disktune::cli {
namespace {
namespace fs = std::filesystem;

struct RunCommandOptions {
  CommonOptions common;
  ProbeFlags probe;
  std::string out_dir;
  std::string engine = "leveldb";
  std::string scenario = "baseline-2011";
  std::string workload = "mixed";
  std::string memory_budget = "128MiB";
  std::string time_budget;
  std::string write_budget;
  std::vector<std::string> skip;  // "bench", "tune"
  std::string service;
};

bool Skipped(const RunCommandOptions& o, const std::string& step) {
  return std::find(o.skip.begin(), o.skip.end(), step) != o.skip.end();
}

// Creates --out (its parent must exist); refuses a file or a directory that
// already holds a result, so nothing is overwritten.
// The files `run` writes into --out besides the profile.
constexpr const char* kRunOutputs[] = {"result.json", "report.txt",
                                       "report.html"};

// --out: a new directory (the default name gets "-2", "-3", ... when taken),
// or an existing one where none of the run's output names is taken by a file
// disktune did not write. Checked before anything is measured.
struct OutDir {
  std::string path;
  bool created = false;
  std::vector<std::string> written;  // removed again if the run fails
};

// The names `run` writes into --out: the reports, and the profile with the
// engine's forms beside it when the tuner runs (named as RunTuneStep names
// them: profile-<workload>-<engine>).
std::vector<std::string> RunOutputNames(const RunCommandOptions& o,
                                        const tune::TuneRequest& tune_req) {
  std::vector<std::string> names(std::begin(kRunOutputs),
                                 std::end(kRunOutputs));
  if (Skipped(o, "tune")) return names;
  std::string stem = "profile-" + tune_req.workload.name + "-" + o.engine;
  names.push_back(stem + ".json");
  for (const auto& form : tune::EngineForms(o.engine, tune::TuneConfig{}, ""))
    names.push_back(stem + form.first);
  return names;
}

Result<OutDir> PrepareOutDir(const std::string& out, bool default_name,
                             const std::vector<std::string>& names) {
  OutDir d;
  struct stat st {};
  if (!default_name && stat(out.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) {
      return Status::InvalidArgument("--out " + out +
                                     " is a file; pass a directory");
    }
    // An earlier run's result is kept, even though disktune wrote it.
    struct stat rst {};
    if (lstat((out + "/result.json").c_str(), &rst) == 0) {
      return Status::InvalidArgument(
          "--out " + out +
          " already holds a result.json; choose a new directory");
    }
    std::vector<OutputTarget> targets;
    for (const std::string& name : names)
      targets.push_back({out + "/" + name, "--out"});
    Status s = CheckOutputPlan(targets);
    if (!s.ok()) return s;
    d.path = out;
    return d;
  }
  Result<std::string> made = CreateFreshDirectory(out, default_name, "--out");
  if (!made.ok()) return made.status();
  d.path = *made;
  d.created = true;
  return d;
}

Status WriteOut(OutDir* d, const std::string& name, const std::string& text) {
  std::string path = d->path + "/" + name;
  DT_RETURN_IF_ERROR(WriteOutputFile(path, text, "--out"));
  d->written.push_back(path);
  return Status::OK();
}

// After a failed run: only the files this run wrote, then the directory if
// this run made it (rmdir: only when nothing else is in it).
void RemoveOutputs(const OutDir& d) {
  for (const std::string& p : d.written) unlink(p.c_str());
  if (d.created) rmdir(d.path.c_str());
}

// The baseline scenarios' request, as planned and as run.
bench::BenchRequest BaselineBenchRequest(const RunCommandOptions& o) {
  bench::BenchRequest req;
  req.engines = {o.engine};
  req.scenarios = {o.scenario};
  req.quick = o.probe.quick;
  req.available = AvailableEngines();
  req.factory = NewEngine;
  return req;
}

// The tuner's request from the flags, checked (the write budget under
// --quick is set once the probes and the bench have run).
Result<tune::TuneRequest> PlanTuneStep(const RunCommandOptions& o) {
  if (!tune::IsTunableEngine(o.engine)) {
    return Status::InvalidArgument(
        "--engine '" + o.engine + "': the tuner supports " +
        tune::TunableEngineList() + "; or pass --skip tune");
  }
  Result<tune::Workload> w = ResolveWorkloadArgument(o.workload);
  if (!w.ok()) return w.status().WithContext("--workload");
  Result<uint64_t> budget =
      ParseSizeFlag("--memory-budget", o.memory_budget, "128MiB");
  if (!budget.ok()) return budget.status();
  tune::TuneRequest req;
  req.engine = o.engine;
  req.workload = *w;
  req.memory_budget_bytes = *budget;
  req.quick = o.probe.quick;
  req.time_budget_ns = tune::RunTuneTimeBudgetNs(o.probe.quick);
  DT_RETURN_IF_ERROR(ParseTuneBudgetFlags(o.time_budget, o.write_budget,
                                          &req.time_budget_ns,
                                          &req.write_budget_bytes));
  req.available = AvailableEngines();
  req.factory = NewEngine;
  DT_RETURN_IF_ERROR(tune::ValidateTuneRequest(req));
  return req;
}

// Every flag checked before anything is created, so bad input leaves
// nothing: the steps, the probe flags, the engine, the tuner's request and
// the bench plan.
Status PlanRun(const RunCommandOptions& o, const bench::BenchRequest& bench_req,
               tune::TuneRequest* tune_req) {
  for (const auto& s : o.skip) {
    if (s != "bench" && s != "tune") {
      return Status::InvalidArgument("--skip: unknown step '" + s +
                                     "'; valid: bench, tune");
    }
  }
  DT_RETURN_IF_ERROR(CheckServiceFlag(o.service));
  Result<ProbeConfig> cfg = BuildProbeConfig(o.probe);
  if (!cfg.ok()) return cfg.status();
  DT_RETURN_IF_ERROR(app::CheckThrottledProbes(*cfg, o.common.throttle));
  if (Result<std::unique_ptr<Engine>> e = NewEngine(o.engine); !e.ok()) {
    return e.status().WithContext("--engine");
  }
  if (!Skipped(o, "tune")) {
    Result<tune::TuneRequest> t = PlanTuneStep(o);
    if (!t.ok()) return t.status();
    *tune_req = std::move(*t);
  }
  if (!Skipped(o, "bench")) {
    Result<bench::BenchPlan> plan = bench::PlanBench(bench_req);
    if (!plan.ok()) return plan.status().WithContext("--scenario");
  }
  return Status::OK();
}

// The tuner's profile and the engine's own forms, into --out.
Status WriteTuneOutputs(const tune::TuneResult* result, OutDir* out) {
  std::string name = result->workload.name + "-" + result->engine;
  std::string stem = "profile-" + name;
  DT_RETURN_IF_ERROR(WriteOut(
      out, stem + ".json",
      DumpJson(tune::ProfileToJson(tune::TuneResultToProfile(*result, name))) +
          "\n"));
  std::string header =
      tune::EngineFormsHeader(*result, "profile-" + name + ".json");
  for (const auto& [suffix, text] :
       tune::EngineForms(result->engine, result->recommendation, header)) {
    DT_RETURN_IF_ERROR(WriteOut(out, stem + suffix, text));
  }
  return Status::OK();
}

// The plan of steps the session runs (app/run_plan.h), from the checked
// flags and requests.
app::RunPlan MakeRunPlan(const RunCommandOptions& o, const ProbeSetup& probe,
                         const bench::BenchRequest& bench_req,
                         const tune::TuneRequest& tune_req, OutDir* out) {
  app::RunPlan plan;
  plan.probe = probe.plan;
  plan.keep = o.common.keep;
  if (!Skipped(o, "bench")) plan.bench = bench_req;
  if (!Skipped(o, "tune")) plan.tune = tune_req;
  plan.quick_write_budget = o.probe.quick && o.write_budget.empty();
  // The explanation is the report's recommendation table, printed once there.
  plan.tuned = [out](const tune::TuneResult& r) {
    return WriteTuneOutputs(&r, out);
  };
  return plan;
}

int RunRunCommand(RunCommandOptions o, CommandContext& ctx) {
  InstallInterruptHandlers();
  bool default_out = o.out_dir.empty();
  if (default_out) o.out_dir = "disktune-run-" + LocalStamp();
  // Planned first: every flag is validated before --out is created.
  tune::TuneRequest tune_req;
  bench::BenchRequest bench_req = BaselineBenchRequest(o);
  if (Status planned = PlanRun(o, bench_req, &tune_req); !planned.ok()) {
    return Fail(ctx, planned);
  }
  Status js = CheckJsonDestination(o.common);
  if (!js.ok()) return Fail(ctx, js);
  Result<ProbeSetup> probe = PlanProbeStep(o.common, o.probe);
  if (!probe.ok()) return Fail(ctx, probe.status());
  const std::optional<ThrottleSpec>& throttle = probe->throttle;
  std::error_code ec;
  Result<OutDir> out =
      PrepareOutDir(o.out_dir, default_out, RunOutputNames(o, tune_req));
  if (!out.ok()) return Fail(ctx, out.status());
  std::string out_abs = fs::absolute(out->path, ec).string();

  Report report = NewReport("run");
  report.config["out_dir"] = PathToJson(out_abs);
  report.config["run"] = {{"engine", o.engine},
                          {"scenario", o.scenario},
                          {"workload", o.workload},
                          {"memory_budget", o.memory_budget},
                          {"skip", o.skip}};
  // The probes, the bench and the tuner share one Session (one scratch
  // directory, its device resolved once), opened after a killed run's
  // device settings are put back.
  auto progress = MakeProgress(ctx, o.common);
  Result<std::unique_ptr<app::Session>> session =
      OpenSession(ctx, o.common, throttle, progress.get());
  Status s = session.ok() ? Status::OK() : session.status();
  if (s.ok()) {
    s = app::RunRunPlan(MakeRunPlan(o, *probe, bench_req, tune_req, &*out),
                        **session, progress.get(), &report);
  }
  // What the run wrote (write_count.h), from the session's start.
  std::optional<WriteCount> written;
  if (session.ok()) {
    written = (*session)->writes_since_open();
    Status t = (*session)->FinishThrottle(&report.environment);
    if (s.ok()) s = t;
    session->reset();
  }
  progress->Finish();
  if (written) written->Record(&report);
  FinishReport(o.service, &report);
  if (!s.ok() && !s.IsAborted()) {
    RemoveOutputs(*out);
    return Fail(ctx, s);
  }
  if (s.IsAborted()) report.completion = "interrupted";

  Status ws =
      WriteOut(&*out, "result.json", DumpJson(ReportToJson(report)) + "\n");
  std::string text = RenderText(report);
  if (ws.ok()) ws = WriteOut(&*out, "report.txt", text);
  if (ws.ok()) ws = WriteOut(&*out, "report.html", RenderHtml(report));
  if (!ws.ok()) return Fail(ctx, ws);
  if (!s.ok())
    return Fail(ctx, s);  // interrupted: the partial result is kept, marked
  Status e = EmitJson(ctx, o.common, ReportToJson(report));
  if (!e.ok()) return Fail(ctx, e);
  if (std::ostream* human = HumanStream(ctx, o.common)) {
    *human << text << "\nresults in " << out_abs << "/:";
    for (const std::string& p : out->written) {
      *human << " " << fs::path(p).filename().string();
    }
    *human << "\n";
  }
  return 0;
}

}  // namespace

void SetupRunCommand(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<RunCommandOptions>();
  CLI::App* cmd =
      app.add_subcommand("run",
                         "the main job: probe the disk, run the baseline "
                         "scenarios on the engine, tune it for "
                         "the workload, and write result.json, report.html and "
                         "the profile into --out");
  AddCommonOptions(cmd, &opts->common, /*with_dir=*/true);
  AddProgressOption(cmd, &opts->common);
  AddProbeFlags(cmd, &opts->probe);
  cmd->add_option("--out", opts->out_dir,
                  "output directory for result.json, the reports and the "
                  "profile (default: "
                  "disktune-run-<time> under the current directory)")
      ->type_name("DIR");
  cmd->add_option("--engine", opts->engine,
                  "the embedded engine to bench and tune")
      ->default_str("leveldb");
  cmd->add_option("--scenario", opts->scenario,
                  "the baseline scenario set or list to bench")
      ->default_str("baseline-2011");
  cmd->add_option("--workload", opts->workload,
                  "workload to tune for: " + tune::BuiltinWorkloadList() +
                      ", or a profile file")
      ->default_str("mixed");
  cmd->add_option("--memory-budget", opts->memory_budget,
                  "memory the engine may use")
      ->default_str("128MiB");
  cmd->add_option("--time-budget", opts->time_budget,
                  "time the tuner may take (default 60s with --quick, 10m)")
      ->type_name("DURATION");
  cmd->add_option("--write-budget", opts->write_budget,
                  "bytes the tuner may write (default with --quick: what "
                  "the run's 4GiB leaves after the probes and the bench; "
                  "otherwise no limit but time)")
      ->type_name("SIZE");
  AddServiceOption(cmd, &opts->service);
  cmd->add_option("--skip", opts->skip, "leave out steps: bench, tune")
      ->delimiter(',')
      ->type_name("STEP[,STEP]");
  cmd->callback([opts, &ctx] { ctx.exit_code = RunRunCommand(*opts, ctx); });
}

}  // namespace disktune::cli
