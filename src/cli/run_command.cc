// `disktune run`: the main job end to end. Probes the disk under --dir, runs
// the baseline db_bench scenarios on the embedded engine (LevelDB by
// default), tunes the engine for the chosen workload with the probe's facts,
// and writes result.json, report.html, report.txt and the profile (with the
// engine's own forms) into --out (default: a dated directory under the
// current one), printing where they are.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "engines/engine.h"
#include "probes/device_info.h"
#include "probes/flush_counters.h"
#include "reports/html_report.h"
#include "reports/report.h"
#include "reports/text_report.h"
#include "src/bench/process_stats.h"
#include "src/bench/runner.h"
#include "src/cli/command.h"
#include "src/cli/engine_libraries.h"
#include "src/cli/probe_options.h"
#include "src/cli/probe_session.h"
#include "src/core/signals.h"
#include "src/core/sysinfo.h"
#include "src/core/units.h"
#include "src/tune/engine_forms.h"
#include "src/tune/knobs.h"
#include "src/tune/profile.h"
#include "src/tune/tuner.h"
#include "src/tune/workload.h"

namespace disktune::cli {
namespace {
namespace fs = std::filesystem;

constexpr uint64_t kRunQuickTuneBudgetNs = 60ull * 1000000000ull;
// run --quick writes at most this much in all (probes, bench, tuner).
constexpr uint64_t kRunQuickWriteLimitBytes = 4ull << 30;
// Kept back from the tuner's share: the bench's and the tuner's pages still
// in writeback when the share is computed, and other writers on the disk.
constexpr uint64_t kRunQuickWriteReserveBytes = 256ull << 20;
// The tuner's share when the disk's own count cannot be read.
constexpr uint64_t kRunQuickFallbackTuneWriteBytes = 1ull << 30;

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
};

// Creates --out (its parent must exist); refuses a file or a directory that
// already holds a result, so nothing is overwritten.
Status PrepareOutDir(const std::string& out) {
  std::error_code ec;
  fs::path p = fs::absolute(out, ec);
  if (fs::exists(p, ec)) {
    if (!fs::is_directory(p, ec)) {
      return Status::InvalidArgument("--out " + out +
                                     " is a file; pass a directory");
    }
    if (fs::exists(p / "result.json", ec)) {
      return Status::InvalidArgument(
          "--out " + out +
          " already holds a result.json; choose a new directory");
    }
    return Status::OK();
  }
  if (!fs::is_directory(p.parent_path(), ec)) {
    return Status::NotFound("--out " + out + ": parent directory " +
                            p.parent_path().string() +
                            " does not exist; create it first");
  }
  if (mkdir(p.c_str(), 0755) != 0)
    return Status::FromErrno(errno, "--out " + out);
  return Status::OK();
}

Status WriteText(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::trunc);
  f << text;
  f.flush();
  if (!f) return Status::IOError("write " + path + " failed");
  return Status::OK();
}

bool Skipped(const RunCommandOptions& o, const std::string& step) {
  return std::find(o.skip.begin(), o.skip.end(), step) != o.skip.end();
}

// The baseline scenarios on the engine, in their own scratch directory.
Status RunBaselineBench(const RunCommandOptions& o, ProgressSink* progress,
                        Report* report) {
  bench::BenchRequest req;
  req.engines = {o.engine};
  req.scenarios = {o.scenario};
  req.quick = o.probe.quick;
  req.available = AvailableEngines();
  req.factory = NewEngine;
  Result<std::unique_ptr<ScratchDir>> scratch = OpenScratch(o.common);
  if (!scratch.ok()) return scratch.status();
  req.db_root = (*scratch)->Join("bench");
  req.progress = [progress](std::string_view line) {
    progress->Info(std::string(line));
  };
  Result<std::vector<bench::BenchResult>> results = bench::RunBench(req);
  if (!results.ok()) return results.status();
  report->benches = std::move(*results);
  RecordEngineLibraries(req.engines, report);
  for (const auto& r : report->benches) {
    if (r.status == bench::RunStatus::kFailed ||
        r.status == bench::RunStatus::kPartial) {
      report->warnings.push_back("bench " + r.engine + " " + r.scenario + ": " +
                                 r.error);
    }
  }
  if (InterruptRequested()) return Status::Aborted("interrupted");
  return Status::OK();
}

// What the disk completed writing since `before` (all writers on it);
// nullopt when its counters cannot be read.
std::optional<uint64_t> DiskBytesSince(
    const Result<DeviceInfo>& disk,
    const std::optional<FlushCounters>& before) {
  if (!disk.ok() || !before) return std::nullopt;
  auto now = ReadFlushCounters(disk->disk);
  if (!now.ok()) return std::nullopt;
  return (now->sectors_written - before->sectors_written) * 512;
}

// The tuner's write budget under --quick: what the 4 GiB limit leaves after
// what the disk counted so far (the probes' writes are synced, so the count
// is current), less a reserve; never below the tuner's minimum.
uint64_t QuickTuneWriteBudget(std::optional<uint64_t> disk_bytes) {
  if (!disk_bytes) return kRunQuickFallbackTuneWriteBytes;
  uint64_t used = *disk_bytes + kRunQuickWriteReserveBytes;
  uint64_t left =
      used < kRunQuickWriteLimitBytes ? kRunQuickWriteLimitBytes - used : 0;
  return std::max(left, tune::kMinWriteBudgetBytes);
}

// Tunes with the facts this run's probes measured; writes the profile and
// the engine's own forms into --out.
Status RunTuneStep(const RunCommandOptions& o, const tune::TuneRequest& base,
                   ProgressSink* progress, Report* report) {
  tune::TuneRequest req = base;
  req.facts = tune::FactsFromProbes(report->probes, report->environment,
                                    "this run's probes");
  Result<std::unique_ptr<ScratchDir>> scratch = OpenScratch(o.common);
  if (!scratch.ok()) return scratch.status();
  Result<tune::TuneResult> result = tune::RunTuner(req, **scratch, progress);
  if (!result.ok()) return result.status();
  report->tune = tune::TuneResultToJson(*result);
  std::string name = result->workload.name + "-" + result->engine;
  std::string stem = o.out_dir + "/profile-" + name;
  DT_RETURN_IF_ERROR(WriteJsonFile(
      stem + ".json",
      tune::ProfileToJson(tune::TuneResultToProfile(*result, name))));
  std::string header =
      tune::EngineFormsHeader(*result, "profile-" + name + ".json");
  for (const auto& [suffix, text] :
       tune::EngineForms(result->engine, result->recommendation, header)) {
    DT_RETURN_IF_ERROR(WriteText(stem + suffix, text));
  }
  for (const auto& line : result->explanation) progress->Info(line);
  return Status::OK();
}

int RunRunCommand(RunCommandOptions o, CommandContext& ctx) {
  InstallInterruptHandlers();
  if (o.out_dir.empty()) o.out_dir = "disktune-run-" + LocalStamp();
  for (const auto& s : o.skip) {
    if (s != "bench" && s != "tune") {
      return Fail(ctx, Status::InvalidArgument("--skip: unknown step '" + s +
                                               "'; valid: bench, tune"));
    }
  }
  // Every flag is validated before --out is created, so bad input leaves
  // nothing.
  Result<ProbeConfig> cfg = BuildProbeConfig(o.probe);
  if (!cfg.ok()) return Fail(ctx, cfg.status());
  if (Result<std::unique_ptr<Engine>> e = NewEngine(o.engine); !e.ok()) {
    return Fail(ctx, e.status().WithContext("--engine"));
  }
  tune::TuneRequest tune_req;
  if (!Skipped(o, "tune")) {
    if (!tune::IsTunableEngine(o.engine)) {
      return Fail(ctx, Status::InvalidArgument("--engine '" + o.engine +
                                               "': the tuner supports " +
                                               tune::TunableEngineList() +
                                               "; or pass --skip tune"));
    }
    Result<tune::Workload> w = tune::ResolveWorkload(o.workload);
    if (!w.ok()) return Fail(ctx, w.status().WithContext("--workload"));
    Result<uint64_t> budget =
        ParseSizeFlag("--memory-budget", o.memory_budget, "128MiB");
    if (!budget.ok()) return Fail(ctx, budget.status());
    tune_req.engine = o.engine;
    tune_req.workload = *w;
    tune_req.memory_budget_bytes = *budget;
    tune_req.quick = o.probe.quick;
    // run --quick must write at most 4 GiB in all: its tuner gets 60 s and
    // (below) a write budget of what the probes and the bench left; on the
    // development VM a 60 s tune of `mixed` alone wrote 5.1 GB.
    tune_req.time_budget_ns =
        o.probe.quick ? kRunQuickTuneBudgetNs : tune::kDefaultTimeBudgetNs;
    Status budgets = ParseTuneBudgetFlags(o.time_budget, o.write_budget,
                                          &tune_req.time_budget_ns,
                                          &tune_req.write_budget_bytes);
    if (!budgets.ok()) return Fail(ctx, budgets);
    tune_req.available = AvailableEngines();
    tune_req.factory = NewEngine;
    Status v = tune::ValidateTuneRequest(tune_req);
    if (!v.ok()) return Fail(ctx, v);
  }
  if (!Skipped(o, "bench")) {
    bench::BenchRequest probe_plan;
    probe_plan.engines = {o.engine};
    probe_plan.scenarios = {o.scenario};
    probe_plan.quick = o.probe.quick;
    probe_plan.available = AvailableEngines();
    probe_plan.factory = NewEngine;
    Result<bench::BenchPlan> plan = bench::PlanBench(probe_plan);
    if (!plan.ok()) return Fail(ctx, plan.status().WithContext("--scenario"));
  }
  Status js = CheckJsonDestination(o.common);
  if (!js.ok()) return Fail(ctx, js);
  std::error_code ec;
  bool out_existed = fs::exists(o.out_dir, ec);
  Status s = PrepareOutDir(o.out_dir);
  if (!s.ok()) return Fail(ctx, s);
  std::string out_abs = fs::absolute(o.out_dir, ec).string();

  // What the run wrote: the disk's own sector count (it sees what reached the
  // device, but also other writers) and the kernel's per-process count (it
  // counts a large folio whole each time a small write re-dirties it, so it
  // can exceed what the disk received).
  std::string parent =
      o.common.dir.empty()
          ? "."
          : fs::path(fs::absolute(o.common.dir, ec)).parent_path().string();
  Result<DeviceInfo> disk = ResolveDevice(parent);
  std::optional<FlushCounters> disk_before;
  if (disk.ok()) {
    if (auto c = ReadFlushCounters(disk->disk); c.ok()) disk_before = *c;
  }
  bench::ProcessSnapshot io_before = bench::TakeProcessSnapshot();
  Report report = NewReport("run");
  report.config["out_dir"] = out_abs;
  report.config["run"] = {{"engine", o.engine},
                          {"scenario", o.scenario},
                          {"workload", o.workload},
                          {"memory_budget", o.memory_budget},
                          {"skip", o.skip}};
  s = RunProbeSession(o.common, o.probe, ctx, &report);
  auto progress = MakeProgress(ctx, o.common);
  if (s.ok() && !Skipped(o, "bench"))
    s = RunBaselineBench(o, progress.get(), &report);
  if (s.ok() && !Skipped(o, "tune")) {
    if (o.probe.quick && o.write_budget.empty()) {
      tune_req.write_budget_bytes =
          QuickTuneWriteBudget(DiskBytesSince(disk, disk_before));
    }
    s = RunTuneStep(o, tune_req, progress.get(), &report);
  }
  progress->Finish();
  bench::ProcessSnapshot io_after = bench::TakeProcessSnapshot();
  nlohmann::json written;
  written["rule"] =
      "disk_bytes: sectors the disk completed writing during the run (all "
      "writers on it); "
      "process_bytes: the kernel's per-process write count (/proc/self/io)";
  if (io_before.device_write_bytes && io_after.device_write_bytes) {
    written["process_bytes"] =
        *io_after.device_write_bytes - *io_before.device_write_bytes;
    report.bytes_written = written["process_bytes"];
  }
  if (std::optional<uint64_t> d = DiskBytesSince(disk, disk_before)) {
    written["disk"] = disk->disk;
    written["disk_bytes"] = *d;
    report.bytes_written = *d;
  }
  report.analyses["bytes_written"] = written;
  if (!s.ok() && !s.IsAborted()) {
    if (!out_existed) fs::remove_all(o.out_dir, ec);
    return Fail(ctx, s);
  }
  if (s.IsAborted()) report.completion = "interrupted";

  Status ws = WriteJsonFile(o.out_dir + "/result.json", ReportToJson(report));
  std::string text = RenderText(report);
  if (ws.ok()) ws = WriteText(o.out_dir + "/report.txt", text);
  if (ws.ok()) ws = WriteText(o.out_dir + "/report.html", RenderHtml(report));
  if (!ws.ok()) return Fail(ctx, ws);
  if (!s.ok())
    return Fail(ctx, s);  // interrupted: the partial result is kept, marked
  Status e = EmitJson(ctx, o.common, ReportToJson(report));
  if (!e.ok()) return Fail(ctx, e);
  if (std::ostream* human = HumanStream(ctx, o.common)) {
    *human << text << "\nresults in " << out_abs << "/:";
    for (const auto& entry : fs::directory_iterator(out_abs, ec)) {
      *human << " " << entry.path().filename().string();
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
  cmd->add_option("--skip", opts->skip, "leave out steps: bench, tune")
      ->delimiter(',')
      ->type_name("STEP[,STEP]");
  cmd->callback([opts, &ctx] { ctx.exit_code = RunRunCommand(*opts, ctx); });
}

}  // namespace disktune::cli
