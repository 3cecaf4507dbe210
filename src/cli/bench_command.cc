// `disktune bench`: db_bench scenarios on one or more engines, as a report.
// stdout opens with the summary (reports/summarize.h), then the figures as
// db_bench's own lines and the predictions (all to stderr with --json -);
// progress to stderr; --json has every figure.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

#include "engines/engine.h"
#include "engines/engine_settings.h"
#include "reports/findings_2011.h"
#include "reports/memory_budget.h"
#include "reports/prediction_text.h"
#include "reports/summarize.h"
#include "src/app/engine_libraries.h"
#include "src/app/predict_step.h"
#include "src/app/session.h"
#include "src/app/throttle_session.h"
#include "src/app/write_count.h"
#include "src/bench/process_stats.h"
#include "src/bench/runner.h"
#include "src/bench/scenario.h"
#include "src/bench/scenario_sets.h"
#include "src/bench/space_preflight.h"
#include "src/cli/command.h"
#include "src/cli/open_session.h"
#include "src/cli/predict_inputs.h"
#include "src/cli/probe_session.h"
#include "src/cli/profile_dirs.h"
#include "src/core/json_input.h"
#include "src/core/signals.h"
#include "src/core/units.h"
#include "src/model/environment.h"
#include "src/model/knob_spec.h"
#include "src/model/report.h"
#include "src/predict/engine_facts.h"
#include "src/tune/profile.h"

namespace disktune::cli {
namespace {

// Flags as typed; counts stay signed so "--num -5" gets a clear message from
// the validation instead of a parse error about unsigned integers.
struct BenchFlags {
  std::string engines = "leveldb";
  std::string scenarios;
  std::string profile;
  std::optional<int64_t> num, reads, writes, threads, warmup, batch;
  std::optional<int64_t> max_threads, intervals;
  std::optional<int64_t> pulse_reads, pulse_inserts, pulse_deletes, pulses;
  std::string value_size, key_size;
  std::optional<double> compression_ratio;
  std::optional<uint64_t> seed;
  int repeat = 1;
  bool quick = false;
  std::string data_size;
  // Engine knobs as typed, by KnobSpec::json_key (src/model/knob_spec.h).
  std::map<std::string_view, std::string> knobs;
  bool sync = false;
  bool in_memory = false;
  std::string page_cache;
  std::string service;
  std::vector<std::string> engine_settings;
  // The model's disk figures: a probe result file, else measured here.
  std::string probe_result;
  bool no_predict = false;
};

struct BenchCommandOptions {
  CommonOptions common;
  BenchFlags flags;
};

// Value and key sizes are bytes in db_bench (--value_size=100); a bare number
// is taken as bytes here too, and units are accepted.
Result<int64_t> ParseByteCount(const std::string& flag,
                               const std::string& text) {
  bool digits =
      !text.empty() &&
      std::all_of(
          text.begin() + (text[0] == '-' ? 1 : 0), text.end(),
          [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  if (digits && text != "-") {
    try {
      return static_cast<int64_t>(std::stoll(text));
    } catch (...) {
      return Status::InvalidArgument(flag + ": '" + text + "' is out of range");
    }
  }
  auto r = ParseSizeFlag(flag, text, "100");
  if (!r.ok()) return r.status();
  return static_cast<int64_t>(*r);
}

Result<bench::Overrides> BuildOverrides(const BenchFlags& f) {
  bench::Overrides o;
  o.num = f.num;
  o.reads = f.reads;
  o.writes = f.writes;
  o.threads = f.threads;
  o.warmup_ops = f.warmup;
  o.entries_per_batch = f.batch;
  o.max_threads = f.max_threads;
  o.intervals = f.intervals;
  o.pulse_reads = f.pulse_reads;
  o.pulse_inserts = f.pulse_inserts;
  o.pulse_deletes = f.pulse_deletes;
  o.pulses = f.pulses;
  o.compression_ratio = f.compression_ratio;
  o.seed = f.seed;
  if (!f.value_size.empty()) {
    auto v = ParseByteCount("--value-size", f.value_size);
    if (!v.ok()) return v.status();
    o.value_size = *v;
  }
  if (!f.key_size.empty()) {
    auto v = ParseByteCount("--key-size", f.key_size);
    if (!v.ok()) return v.status();
    o.key_size = *v;
  }
  if (!f.data_size.empty()) {
    auto v = ParseSizeFlag("--data-size", f.data_size, "10GB");
    if (!v.ok()) return v.status();
    o.data_size_bytes = *v;
  }
  for (const KnobSpec& k : Knobs()) {
    auto text = f.knobs.find(k.json_key);
    if (text == f.knobs.end() || text->second.empty()) continue;
    Result<KnobValue> v = ParseKnobFlag(k, text->second);
    if (!v.ok()) return v.status();
    o.knobs.Set(k.id, *v);
  }
  if (f.sync) o.sync = true;
  if (f.in_memory) o.in_memory = true;
  for (const std::string& text : f.engine_settings) {
    auto setting = ParseEngineSetting(text);
    if (!setting.ok()) {
      return Status::InvalidArgument("--engine-setting: " +
                                     setting.status().message());
    }
    o.engine_settings.push_back(*setting);
  }
  if (!f.page_cache.empty()) {
    auto p = bench::ParsePageCachePolicy(f.page_cache);
    if (!p) {
      return Status::InvalidArgument("--page-cache: unknown '" + f.page_cache +
                                     "'; valid: auto, fadvise, drop, keep");
    }
    o.page_cache = *p;
  }
  return o;
}

// Profile values are the base; flags typed on the command line win.
void MergeProfile(const bench::Overrides& profile, bench::Overrides* o) {
  auto take = [](auto& dst, const auto& src) {
    if (!dst && src) dst = src;
  };
  take(o->num, profile.num);
  take(o->reads, profile.reads);
  take(o->writes, profile.writes);
  take(o->threads, profile.threads);
  take(o->value_size, profile.value_size);
  take(o->key_size, profile.key_size);
  take(o->compression_ratio, profile.compression_ratio);
  take(o->seed, profile.seed);
  MergeKnobs(profile.knobs, /*overwrite=*/false, &o->knobs);
  take(o->in_memory, profile.in_memory);
  take(o->sync, profile.sync);
  take(o->entries_per_batch, profile.entries_per_batch);
}

// The disk's figures for the predictions (src/predict): a probe result, or
// the model's few probe points measured in `dir` (inside the throttle, when
// there is one, so they describe the device the engines ran on).
std::optional<predict::DiskFigures> PredictionDisk(const BenchFlags& f,
                                                   const CommonOptions& common,
                                                   CommandContext& ctx,
                                                   const app::Session& session,
                                                   Report* report) {
  if (common.quiet == false && f.probe_result.empty()) {
    ctx.err << "measuring the probe points the prediction needs\n";
  }
  auto disk = ModelDiskFigures(f.probe_result, common, ctx, session, report);
  if (!disk.ok()) {
    report->warnings.push_back("no predictions: " + disk.status().message());
    return std::nullopt;
  }
  return *disk;
}

// Every figure's prediction: the same steps in memory for the CPU cost, then
// the model. A failure costs the predictions only.
void Predict(const predict::DiskFigures& disk, const CommonOptions& common,
             CommandContext& ctx, const bench::BenchPlan& plan,
             const bench::BenchRequest& req, Report* report) {
  app::PredictBenches(req, plan.engines, disk,
                      common.quiet ? nullptr : &ctx.err, report);
}

// The request the flags and the profile describe, before anything is
// created: --profile's workload is the base and typed flags win.
struct BenchSetup {
  bench::BenchRequest req;
  // A tuned profile's memory budget, which peak RSS is reported against.
  std::optional<uint64_t> memory_budget;
  std::string profile_shown;
};

// --quick shrinks a profile's counts as it shrinks the defaults.
void ShrinkForQuick(bench::Overrides* o) {
  for (std::optional<int64_t>* n : {&o->num, &o->reads, &o->writes}) {
    if (*n) {
      **n = std::max<int64_t>(1, static_cast<int64_t>(static_cast<double>(**n) *
                                                      bench::kQuickScale));
    }
  }
}

Status ApplyProfile(const BenchFlags& f, bool quiet, CommandContext& ctx,
                    BenchSetup* s) {
  auto profile_path = ResolveProfileArgument("--profile", f.profile);
  if (!profile_path.ok()) return profile_path.status();
  auto profile = tune::ReadProfileForBench(*profile_path);
  if (!profile.ok()) return profile.status();
  bench::Overrides from_profile = profile->overrides;
  if (f.quick) ShrinkForQuick(&from_profile);
  // A profile that sizes nothing runs the default key count: said, so a
  // forgotten workload section is not a silent million keys.
  if (!from_profile.num && !f.num && f.data_size.empty() && !quiet) {
    ctx.err << "disktune: note: profile " << f.profile
            << " has no workload num: using --num "
            << (f.quick ? static_cast<uint64_t>(bench::kDefaultNum *
                                                bench::kQuickScale)
                        : bench::kDefaultNum)
            << " (the default); give --num to choose\n";
  }
  MergeProfile(from_profile, &s->req.user);
  if (profile->memory_budget_bytes) {
    s->memory_budget = *profile->memory_budget_bytes;
    s->profile_shown = f.profile;
  }
  if (f.scenarios.empty()) s->req.scenarios = profile->scenarios;
  if (profile->engine && f.engines == "leveldb") {
    s->req.engines = {*profile->engine};
  }
  return Status::OK();
}

Result<BenchSetup> BuildBenchSetup(const BenchCommandOptions& opts,
                                   CommandContext& ctx) {
  const BenchFlags& f = opts.flags;
  BenchSetup s;
  auto overrides = BuildOverrides(f);
  if (!overrides.ok()) return overrides.status();
  s.req.user = *overrides;
  s.req.engines = {f.engines};
  DT_RETURN_IF_ERROR(CheckServiceFlag(f.service));
  s.req.scenarios = {f.scenarios};
  if (!f.profile.empty()) {
    DT_RETURN_IF_ERROR(ApplyProfile(f, opts.common.quiet, ctx, &s));
  }
  if (f.scenarios.empty() && s.req.scenarios.empty()) {
    s.req.scenarios = {"baseline-2011"};
  }
  if (s.req.scenarios.size() == 1 && s.req.scenarios[0].empty()) {
    s.req.scenarios = {"baseline-2011"};
  }
  s.req.quick = f.quick;
  s.req.repeat = f.repeat;
  s.req.available = AvailableEngines();
  s.req.factory = NewEngine;
  return s;
}

// Bad flags are refused before the scratch directory is touched: the plan,
// the JSON destination and a --probe-result file.
Result<bench::BenchPlan> PlanBenchCommand(const BenchCommandOptions& opts,
                                          const bench::BenchRequest& req) {
  auto plan = bench::PlanBench(req);
  if (!plan.ok()) return plan.status();
  DT_RETURN_IF_ERROR(CheckJsonDestination(opts.common));
  const BenchFlags& f = opts.flags;
  if (!f.probe_result.empty() && !f.no_predict) {
    Report probe_file;
    auto disk = DiskFiguresFromFile(f.probe_result, &probe_file);
    if (!disk.ok()) return disk.status();
    DT_RETURN_IF_ERROR(app::CheckProbeResultThrottle(
        f.probe_result, probe_file.environment.throttle, opts.common.throttle));
  }
  return plan;
}

// Where the bench runs: the Session (the scratch directory, and under
// --throttle the throttled device's directory inside it). Destroyed in
// reverse order: progress, then the session.
struct BenchPlace {
  std::unique_ptr<app::Session> session;
  std::unique_ptr<TerminalProgress> progress;
  const ScratchDir& dir() const { return session->scratch(); }
};

// Opens the place (after a killed run's leftovers are put back, with a line
// saying so), starts the throttle with each step's share of its accounting
// in the step's notes, and checks the engines' room to start and the data's
// fit.
Status OpenBenchPlace(const BenchCommandOptions& opts, CommandContext& ctx,
                      const bench::BenchPlan& plan, bench::BenchRequest* req,
                      BenchPlace* place) {
  auto throttle = app::PlanThrottle(opts.common.throttle);
  if (!throttle.ok()) return throttle.status();
  place->progress = MakeProgress(ctx, opts.common);
  auto session =
      OpenSession(ctx, opts.common, *throttle, place->progress.get());
  if (!session.ok()) return session.status();
  place->session = std::move(*session);
  if (app::ThrottleSession* ts = place->session->throttled()) {
    auto before = std::make_shared<ThrottleAccounting>();
    req->step_started = [ts, before] { *before = ts->Snapshot(); };
    req->step_finished = [ts, before](bench::BenchResult* r) {
      ThrottleRecord rec;
      rec.accounting = ts->Snapshot() - *before;
      r->notes.push_back(ThrottleEscapeLine(rec));
    };
  }
  const ScratchDir& dir = place->dir();
  for (const std::string& e : plan.engines) {
    DT_RETURN_IF_ERROR(bench::CheckRoomToStart(
        e, req->user.knobs, dir.path(),
        opts.common.dir.empty() ? "the current directory's filesystem"
                                : opts.common.dir));
  }
  DT_RETURN_IF_ERROR(bench::CheckDataFits(plan, dir.path()));
  req->db_root = dir.HandlePath("bench");
  req->db_root_shown = dir.Join("bench");
  return Status::OK();
}

// The figures are held until the run ends and printed under the summary,
// so the answer comes first; while it runs, the step lines (from the plan:
// bench_clock.h) show where it is.
void RouteBenchOutput(TerminalProgress* steps, std::string* held,
                      bench::BenchRequest* req) {
  req->results = [held](std::string_view line) {
    held->append(line);
    held->push_back('\n');
  };
  req->progress = [steps](std::string_view line) {
    steps->Info(std::string(line));
  };
  req->step_line = [steps](const std::string& label, int index, int total,
                           uint64_t remaining_ns) {
    steps->Step(label, index, total, remaining_ns);
  };
}

// The report before any engine runs: the environment, the libraries and the
// configuration. A library build that skews every figure (assertions on) is
// said where the figures go, before them, as the engines' own db_bench says
// it in its header: `> file` keeps the figures with their caveat.
Report StartBenchReport(const BenchPlace& place, const bench::BenchPlan& plan,
                        const bench::BenchRequest& req) {
  const ScratchDir& dir = place.dir();
  Report report = NewReport("bench");
  report.environment = place.session->environment();
  RecordEngineLibraries(plan.engines, &report);
  for (const std::string& w : report.warnings) req.results("WARNING: " + w);
  if (const app::ThrottleSession* t = place.session->throttled())
    req.results(ThrottleBanner(t->Record()));
  report.config["scratch_dir"] = PathToJson(dir.path());
  report.config["bench"] = {{"engines", plan.engines},
                            {"scenarios", req.scenarios},
                            {"quick", req.quick},
                            {"repeat", req.repeat},
                            {"steps", plan.steps.size()}};
  return report;
}

// The analyses over the figures: the 2011 findings, and peak RSS against a
// tuned profile's memory budget.
void AddBenchAnalyses(const BenchSetup& s, std::optional<uint64_t> harness_anon,
                      Report* report) {
  report->analyses.leveldb_2011 = CheckFindings2011(report->benches);
  if (s.memory_budget) {
    if (auto mem = CheckMemoryBudget(report->benches, *s.memory_budget,
                                     s.profile_shown, harness_anon)) {
      report->analyses.memory_budget = std::move(*mem);
    }
  }
}

// The summary, the held figures and the predictions on the human stream;
// the JSON; then the exit code. Failed or partial scenarios make the
// command fail with exit 3 (a measurement failed: an engine error, the
// free-space guard's stop, the guard gone); skipped ones (no in-memory
// mode) do not.
int PrintBenchResults(const BenchCommandOptions& opts, CommandContext& ctx,
                      const Report& report, const std::string& held,
                      bool predicted) {
  if (std::ostream* figures = HumanStream(ctx, opts.common)) {
    *figures << SummaryText(SummaryOf(report)) << "\n" << held;
    if (predicted) *figures << RenderPredictionsText(report.benches);
    *figures << std::flush;
  }
  Status out = EmitJson(ctx, opts.common, ReportToJson(report));
  if (!out.ok()) return Fail(ctx, out);
  if (InterruptRequested()) return Fail(ctx, Status::Aborted("interrupted"));
  for (const bench::BenchResult& r : report.benches) {
    if (r.status == bench::RunStatus::kFailed ||
        r.status == bench::RunStatus::kPartial) {
      ctx.err << "disktune: " << r.engine << " " << r.scenario << ": "
              << r.error << "\n";
      return kExitMeasurementFailed;
    }
  }
  return 0;
}

// The figures on stdout (stderr when the JSON goes there), progress on
// stderr, so `> file` keeps the results.
int RunBenchCommand(const BenchCommandOptions& opts, CommandContext& ctx) {
  InstallInterruptHandlers();
  const BenchFlags& f = opts.flags;
  auto setup = BuildBenchSetup(opts, ctx);
  if (!setup.ok()) return Fail(ctx, setup.status());
  bench::BenchRequest& req = setup->req;
  auto plan = PlanBenchCommand(opts, req);
  if (!plan.ok()) return Fail(ctx, plan.status());
  BenchPlace place;
  Status opened = OpenBenchPlace(opts, ctx, *plan, &req, &place);
  if (!opened.ok()) return Fail(ctx, opened);
  TerminalProgress* steps = place.progress.get();
  auto held = std::make_shared<std::string>();
  RouteBenchOutput(steps, held.get(), &req);

  Report report = StartBenchReport(place, *plan, req);
  // What the process holds before any engine opens: the memory budget check
  // counts the engine's share as the anonymous RSS above it.
  std::optional<uint64_t> harness_anon = bench::AnonRss();
  const WriteCount written = place.session->CountWritesFromNow();
  auto results = bench::RunBench(req);
  std::optional<predict::DiskFigures> disk;
  if (results.ok() && !f.no_predict && !InterruptRequested()) {
    disk = PredictionDisk(f, opts.common, ctx, *place.session, &report);
  }
  if (place.session->throttled()) {
    Status t = place.session->FinishThrottle(&report.environment);
    if (!t.ok() && results.ok()) return Fail(ctx, t);
    req.results(ThrottleEscapeLine(*report.environment.throttle));
  }
  if (!results.ok()) {
    steps->Finish();
    if (std::ostream* figures = HumanStream(ctx, opts.common)) {
      *figures << *held << std::flush;
    }
    return Fail(ctx, results.status());
  }
  if (InterruptRequested()) report.completion = "interrupted";
  report.benches = *results;
  const bool predicted = disk && !InterruptRequested();
  if (predicted) Predict(*disk, opts.common, ctx, *plan, req, &report);
  written.Record(&report);
  FinishReport(f.service, &report);
  AddBenchAnalyses(*setup, harness_anon, &report);
  steps->Finish();
  return PrintBenchResults(opts, ctx, report, *held, predicted);
}

std::string ScenarioHelp() {
  std::ostringstream s;
  s << "\nScenarios (--scenario NAME[,NAME]):\n";
  for (const bench::ScenarioSpec& spec : bench::Scenarios()) {
    s << "  " << spec.name
      << std::string(20 - std::min<size_t>(19, spec.name.size()), ' ')
      << spec.help << "\n";
  }
  s << "\nScenario sets (--scenario SET):\n";
  for (const bench::ScenarioSet& set : bench::ScenarioSets()) {
    s << "  " << set.name
      << std::string(20 - std::min<size_t>(19, set.name.size()), ' ')
      << set.help << "\n";
  }
  return s.str();
}

const char* KnobTypeName(KnobUnit unit) {
  switch (unit) {
    case KnobUnit::kBytes:
      return "SIZE";
    case KnobUnit::kCompression:
      return "CODEC";
    case KnobUnit::kBool:
      return "on|off";
    case KnobUnit::kEnum:
      return "NAME";
    case KnobUnit::kCount:
    case KnobUnit::kBitsPerKey:
      break;
  }
  return "INT";
}

}  // namespace

void SetupBenchCommand(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<BenchCommandOptions>();
  BenchFlags& f = opts->flags;
  CLI::App* cmd = app.add_subcommand("bench",
                                     "run db_bench scenarios on embedded "
                                     "engines in --dir and report each figure");
  AddCommonOptions(cmd, &opts->common, /*with_dir=*/true);
  AddServiceOption(cmd, &f.service);
  AddProgressOption(cmd, &opts->common);
  cmd->add_option("--engine", f.engines,
                  "engine id(s), comma-separated, or 'all'")
      ->type_name("NAME[,NAME]|all")
      ->default_str("leveldb");
  cmd->add_option("--scenario", f.scenarios,
                  "scenario or set name(s), comma-separated")
      ->type_name("NAME[,NAME]|SET")
      ->default_str("baseline-2011");
  cmd->add_option("--profile", f.profile,
                  "read the workload and engine options from a profile: a name "
                  "(`disktune list` shows them) or a file")
      ->type_name("FILE");
  cmd->add_option("--num", f.num,
                  "number of keys (db_bench --num; default 1000000)");
  cmd->add_option("--reads", f.reads, "ops of read scenarios (default: num)");
  cmd->add_option("--writes", f.writes,
                  "ops of write scenarios (default: num)");
  cmd->add_option("--threads", f.threads,
                  "threads per scenario (db_bench: each does the ops)");
  cmd->add_option("--value-size", f.value_size,
                  "value size, bytes (default 100)")
      ->type_name("BYTES");
  cmd->add_option("--key-size", f.key_size,
                  "key size, bytes (default 16: db_bench's %016d)")
      ->type_name("BYTES");
  cmd->add_option("--compression-ratio", f.compression_ratio,
                  "how far values compress (default 0.5)");
  cmd->add_option("--repeat", f.repeat,
                  "run everything N times: median, min, max, 95% interval")
      ->type_name("N");
  cmd->add_flag("--quick", f.quick,
                "num 100000 instead of 1000000; yardsticks and pulses /10");
  cmd->add_option("--seed", f.seed,
                  "base seed of every random choice (default 301)");
  cmd->add_option("--warmup", f.warmup, "untimed reads before read scenarios");
  cmd->add_option("--batch", f.batch,
                  "entries per write batch (db_bench entries_per_batch)");
  for (const KnobSpec& k : Knobs()) {
    cmd->add_option("--" + std::string(k.flag), f.knobs[k.json_key],
                    std::string(k.help))
        ->type_name(KnobTypeName(k.unit));
  }
  cmd->add_flag("--sync", f.sync, "sync every write");
  cmd->add_flag("--in-memory", f.in_memory, "use the engine's in-memory mode");
  cmd->add_option("--max-threads", f.max_threads,
                  "fillrandom-threads: up to N writers");
  cmd->add_option("--intervals", f.intervals,
                  "fillrandom-growth: number of intervals");
  cmd->add_option(
         "--data-size", f.data_size,
         "UTXO data set size, e.g. 10GB (sets num = size / 105.5 bytes)")
      ->type_name("SIZE");
  cmd->add_option("--pulse-reads", f.pulse_reads,
                  "UTXO: keys read per pulse (90000)");
  cmd->add_option("--pulse-inserts", f.pulse_inserts,
                  "UTXO: keys inserted per pulse (210000)");
  cmd->add_option("--pulse-deletes", f.pulse_deletes,
                  "UTXO: keys deleted per pulse (30000)");
  cmd->add_option("--pulses", f.pulses, "UTXO: pulses per thread count (3)");
  cmd->add_option("--engine-setting", f.engine_settings,
                  "an engine's own setting, NAME=VALUE, repeatable "
                  "(e.g. lmdb.writemap=off; `disktune list` shows them)");
  cmd->add_option("--page-cache", f.page_cache,
                  "UTXO cold reads: auto (fadvise, drop_caches as root if "
                  "needed), fadvise, "
                  "drop, keep");
  cmd->add_option("--probe-result", f.probe_result,
                  "predict each figure from this probe result's disk figures, "
                  "measured under this run's --throttle (default: measure "
                  "the few points the model needs, seconds)")
      ->type_name("FILE");
  cmd->add_flag("--no-predict", f.no_predict,
                "no prediction: skip the model's probe points and the "
                "in-memory CPU calibration");
  cmd->footer(ScenarioHelp());
  cmd->callback([opts, &ctx] { ctx.exit_code = RunBenchCommand(*opts, ctx); });
}

}  // namespace disktune::cli
