// `disktune tune`: recommend engine settings for a workload under a memory
// budget, verified against the engine's defaults, written as a profile plus
// the engine's own configuration forms.
//
// Writes only in the scratch directory (--dir) while measuring, then the
// --out profile and its engine forms beside it (NAME.json ->
// NAME.rocksdb.ini, or NAME.leveldb.cc and NAME.leveldb.json) and --json.
// Every input is checked before anything is written.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "engines/engine.h"
#include "reports/summarize.h"
#include "src/app/engine_libraries.h"
#include "src/app/session.h"
#include "src/app/throttle_session.h"
#include "src/app/write_count.h"
#include "src/cli/command.h"
#include "src/cli/open_session.h"
#include "src/cli/output_plan.h"
#include "src/cli/probe_session.h"
#include "src/cli/profile_dirs.h"
#include "src/core/clock.h"
#include "src/core/json_input.h"
#include "src/core/output_file.h"
#include "src/core/signals.h"
#include "src/core/units.h"
#include "src/model/environment.h"
#include "src/model/report.h"
#include "src/tune/engine_forms.h"
#include "src/tune/tuner.h"

namespace disktune::cli {
namespace {

namespace fs = std::filesystem;

struct TuneFlags {
  std::string engine = "leveldb";
  std::string workload;
  std::string memory_budget = "128MiB";
  std::string data_size;
  std::string time_budget;
  std::string write_budget;
  std::string probe_result;
  std::string out;
  std::string service;
  bool quick = false;
};

struct TuneCommandOptions {
  CommonOptions common;
  TuneFlags flags;
};

// "profiles/x.json" -> "profiles/x" (the engine forms go beside it).
std::string Stem(const std::string& out) {
  if (out.size() > 5 && out.compare(out.size() - 5, 5, ".json") == 0) {
    return out.substr(0, out.size() - 5);
  }
  return out;
}

// --out, the engine's forms beside it and --json: all of them before the
// tuner measures anything.
Status CheckOutputs(const std::string& engine, const std::string& out,
                    const CommonOptions& common) {
  std::vector<OutputTarget> targets;
  if (!out.empty()) {
    targets.push_back({out, "--out"});
    for (const auto& form : tune::EngineForms(engine, tune::TuneConfig{}, ""))
      targets.push_back({Stem(out) + form.first, "--out"});
  }
  if (!common.json_path.empty() && common.json_path != "-")
    targets.push_back({common.json_path, "--json"});
  return CheckOutputPlan(targets);
}

// Atomically, and never over a file disktune did not write.
Status WriteTextFile(const std::string& path, const std::string& text) {
  return WriteOutputFile(path, text, "--out");
}

// The tuner's request from the flags: every bad input refused here, in the
// order the flags are usually read, before anything is written.
Status ParseTuneRequest(const TuneFlags& f, const std::string& throttle,
                        tune::TuneRequest* req) {
  req->engine = f.engine;
  req->quick = f.quick;
  req->available = AvailableEngines();
  req->factory = NewEngine;
  if (!tune::IsTunableEngine(f.engine)) {
    return Status::InvalidArgument("--engine '" + f.engine +
                                   "': the tuner supports " +
                                   tune::TunableEngineList());
  }
  if (f.workload.empty()) {
    return Status::InvalidArgument(
        "--workload is required: " + tune::BuiltinWorkloadList() +
        ", or a profile file (.json)");
  }
  auto workload = ResolveWorkloadArgument(f.workload);
  if (!workload.ok()) return workload.status();
  req->workload = *workload;
  auto budget = ParseSizeFlag("--memory-budget", f.memory_budget, "128MiB");
  if (!budget.ok()) return budget.status();
  req->memory_budget_bytes = *budget;
  if (!f.data_size.empty()) {
    auto d = ParseSizeFlag("--data-size", f.data_size, "10GiB");
    if (!d.ok()) return d.status();
    req->data_size_bytes = *d;
  }
  req->time_budget_ns =
      f.quick ? tune::kQuickTimeBudgetNs : tune::kDefaultTimeBudgetNs;
  DT_RETURN_IF_ERROR(ParseTuneBudgetFlags(f.time_budget, f.write_budget,
                                          &req->time_budget_ns,
                                          &req->write_budget_bytes));
  DT_RETURN_IF_ERROR(tune::ValidateTuneRequest(*req));
  if (!f.probe_result.empty()) {
    auto report = ReadReportFile(f.probe_result);
    if (!report.ok()) {
      // ReadReportFile names the file already.
      return report.status().WithContext("--probe-result");
    }
    if (report->probes.empty()) {
      return Status::InvalidArgument("--probe-result " + f.probe_result +
                                     ": the report holds no probe results; "
                                     "run `disktune probe --json FILE` first");
    }
    DT_RETURN_IF_ERROR(app::CheckProbeResultThrottle(
        f.probe_result, report->environment.throttle, throttle));
    req->facts = tune::FactsFromProbes(report->probes, report->environment,
                                       "--probe-result " + f.probe_result);
  }
  return Status::OK();
}

// The --out profile, then the engine's own forms beside it.
Status WriteProfileFiles(const tune::TuneResult& result, const std::string& out,
                         const std::string& name) {
  tune::Profile profile = tune::TuneResultToProfile(result, name);
  DT_RETURN_IF_ERROR(WriteJsonFile(out, tune::ProfileToJson(profile), "--out"));
  std::string header = tune::EngineFormsHeader(result, name + ".json");
  for (const auto& [suffix, text] :
       tune::EngineForms(result.engine, result.recommendation, header)) {
    DT_RETURN_IF_ERROR(WriteTextFile(Stem(out) + suffix, text));
  }
  return Status::OK();
}

// The report of a tune run. The environment only for the JSON; the library
// build every trial ran on, and its warning (assertions on), for both
// outputs, as bench records them.
// `scratch_path`: the scratch directory, taken while it existed (a throttled
// one is gone once the class's device is put back).
Report TuneReport(const TuneCommandOptions& opts, const tune::TuneRequest& req,
                  const tune::TuneResult& result, const app::Session& session,
                  const std::string& scratch_path,
                  const Environment& throttled_env) {
  const TuneFlags& f = opts.flags;
  Report report = NewReport("tune");
  report.environment =
      result.environment ? *result.environment : session.environment();
  // Those of this run, not any a --probe-result file carried in.
  report.environment.engine_libraries.clear();
  report.environment.throttle = throttled_env.throttle;
  RecordEngineLibraries({result.engine}, &report);
  report.tune = tune::TuneResultToSummary(result);
  if (!f.out.empty()) report.config["profile_path"] = f.out;
  if (!opts.common.json_path.empty()) {
    report.config["scratch_dir"] = PathToJson(scratch_path);
    report.config["tune"] = {{"engine", req.engine},
                             {"workload", f.workload},
                             {"memory_budget_bytes", req.memory_budget_bytes},
                             {"time_budget_ns", req.time_budget_ns},
                             {"quick", req.quick}};
    if (req.write_budget_bytes > 0) {
      report.config["tune"]["write_budget_bytes"] = req.write_budget_bytes;
    }
    if (req.data_size_bytes) {
      report.config["tune"]["data_size_bytes"] = *req.data_size_bytes;
    }
    if (!f.probe_result.empty()) {
      report.config["tune"]["probe_result"] = f.probe_result;
    }
  }
  report.probes = result.probes;
  return report;
}

// What a person reads: the summary (what to set, first), warnings, the
// throttle, the explanation, the files.
void PrintTuneSummary(std::ostream& human, const Report& report,
                      const tune::TuneResult& result, const std::string& out) {
  human << SummaryText(SummaryOf(report)) << "\n";
  for (const std::string& w : report.warnings) {
    human << "WARNING: " << w << "\n";
  }
  if (const auto& t = report.environment.throttle) {
    human << ThrottleBanner(*t) << "\n" << ThrottleEscapeLine(*t) << "\n";
  }
  for (const std::string& line : result.explanation) human << line << "\n";
  if (!out.empty()) {
    human << "Wrote " << out;
    for (const auto& form :
         tune::EngineForms(result.engine, result.recommendation, "")) {
      human << ", " << Stem(out) << form.first;
    }
    human << "\n";
  }
}

int RunTuneCommand(const TuneCommandOptions& opts, CommandContext& ctx) {
  InstallInterruptHandlers();
  const TuneFlags& f = opts.flags;
  tune::TuneRequest req;
  // The time budget is the command's, opening the session included.
  req.started_ns = NowNanos();
  Status parsed = ParseTuneRequest(f, opts.common.throttle, &req);
  if (!parsed.ok()) return Fail(ctx, parsed);
  if (Status sv = CheckServiceFlag(f.service); !sv.ok()) return Fail(ctx, sv);
  Status outputs = CheckOutputs(f.engine, f.out, opts.common);
  if (!outputs.ok()) return Fail(ctx, outputs);

  auto throttle = app::PlanThrottle(opts.common.throttle);
  if (!throttle.ok()) return Fail(ctx, throttle.status());
  // A killed run's scratch directory (journaled) and objects go before this
  // run makes its own, with a line saying so.
  auto progress = MakeProgress(ctx, opts.common);
  auto session = OpenSession(ctx, opts.common, *throttle, progress.get());
  if (!session.ok()) return Fail(ctx, session.status());
  const app::Session& place = **session;
  const WriteCount written = place.CountWritesFromNow();
  // Where it measured, for the report: the throttled device's directory is
  // gone once the throttle is finished.
  const std::string scratch_path = place.scratch().path();
  // The tuner's probe describes the device the session resolved.
  req.environment = place.environment();
  auto result = tune::RunTuner(req, place.scratch(), progress.get());
  progress->Finish();
  Environment throttled_env;
  if (place.throttled()) {
    Status t = (*session)->FinishThrottle(&throttled_env);
    if (!t.ok() && result.ok()) return Fail(ctx, t);
  }
  if (!result.ok()) return Fail(ctx, result.status());
  if (*throttle) {
    // The profile records the class it was tuned for (its device facts
    // were measured on it).
    result->facts.throttle =
        (*throttle)->class_name + " (" + DescribeThrottle(**throttle) + ")";
  }

  std::string name = f.out.empty()
                         ? result->workload.name + "-" + result->engine
                         : fs::path(Stem(f.out)).filename().string();
  if (!f.out.empty()) {
    Status s = WriteProfileFiles(*result, f.out, name);
    if (!s.ok()) return Fail(ctx, s);
  }
  Report report =
      TuneReport(opts, req, *result, place, scratch_path, throttled_env);
  written.Record(&report);
  FinishReport(f.service, &report);
  if (!opts.common.json_path.empty()) {
    Status s = EmitJson(ctx, opts.common, ReportToJson(report));
    if (!s.ok()) return Fail(ctx, s);
  }
  if (std::ostream* human = HumanStream(ctx, opts.common)) {
    PrintTuneSummary(*human, report, *result, f.out);
  }
  return 0;
}

}  // namespace

void SetupTuneCommand(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<TuneCommandOptions>();
  TuneFlags& f = opts->flags;
  CLI::App* cmd = app.add_subcommand(
      "tune",
      "recommend LevelDB/RocksDB settings for a workload under a memory "
      "budget: rules from the device facts, a measured search, an A/B "
      "against the defaults");
  AddCommonOptions(cmd, &opts->common, /*with_dir=*/true);
  AddServiceOption(cmd, &f.service);
  AddProgressOption(cmd, &opts->common);
  cmd->add_option("--engine", f.engine, "engine to tune: leveldb or rocksdb")
      ->type_name("NAME")
      ->default_str("leveldb");
  cmd->add_option("--workload", f.workload,
                  "built-in workload (" + tune::BuiltinWorkloadList() +
                      ") or a profile file")
      ->type_name("NAME|FILE");
  cmd->add_option("--memory-budget", f.memory_budget,
                  "memory for write buffers, block cache and index/filter "
                  "blocks together (default 128MiB)")
      ->type_name("SIZE");
  cmd->add_option("--data-size", f.data_size,
                  "data the database will hold (keys + values), e.g. 10GiB "
                  "(default: the workload's num)")
      ->type_name("SIZE");
  cmd->add_option("--time-budget", f.time_budget,
                  "time for probing, searching and verifying (default 10m; "
                  "2m with --quick; at least 30s)")
      ->type_name("DURATION");
  cmd->add_option("--write-budget", f.write_budget,
                  "bytes the tuner may write in all (its trials and probe), "
                  "e.g. 2GiB; trials are sized to fit it as they are to the "
                  "time budget (default: no limit but time; at least 64MiB)")
      ->type_name("SIZE");
  cmd->add_option("--probe-result", f.probe_result,
                  "device facts from `disktune probe --json FILE`, measured "
                  "under this run's --throttle, instead of a quick probe")
      ->type_name("FILE");
  cmd->add_option("--out", f.out,
                  "write the profile (and the engine's own forms beside it)")
      ->type_name("FILE.json");
  cmd->add_flag("--quick", f.quick, "a 2-minute time budget");
  cmd->callback([opts, &ctx] { ctx.exit_code = RunTuneCommand(*opts, ctx); });
}

}  // namespace disktune::cli
