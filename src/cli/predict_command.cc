// `disktune predict`: from a probe result alone, what each engine scenario
// will do on that disk and what bounds it. The engines run only in memory
// (/dev/shm), for their CPU cost per op on this CPU; the disk is not touched.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <sstream>

#include "reports/prediction_text.h"
#include "reports/report.h"
#include "reports/svg_chart.h"
#include "src/app/engine_libraries.h"
#include "src/bench/runner.h"
#include "src/bench/scenario.h"
#include "src/cli/command.h"
#include "src/cli/predict_inputs.h"
#include "src/cli/probe_session.h"
#include "src/core/output_file.h"
#include "src/core/signals.h"
#include "src/core/sysinfo.h"
#include "src/core/units.h"
#include "src/predict/attach.h"
#include "src/predict/engine_facts.h"

namespace disktune::cli {
namespace {

inline constexpr const char* kPredictSchema = "disktune.predict";
inline constexpr const char* kPredictSchemaVersion = "1.0";
// The figures the capacity planner asks for first, in an order whose
// reads find a database: fresh fills, then overwrite, then reads.
inline constexpr const char* kDefaultScenarios =
    "fillseq,fillsync,fillrandom,overwrite,readrandom,readrandom-cold,"
    "readseq,readseq-cold";

struct PredictOptions {
  CommonOptions common;
  std::string probe_result;
  std::string engines = "leveldb";
  std::string scenarios = kDefaultScenarios;
  std::optional<int64_t> num, reads, writes;
  std::optional<int64_t> value_size, key_size;
  std::optional<double> compression_ratio;
  std::string html;
};

Result<bench::BenchRequest> BuildRequest(const PredictOptions& o) {
  bench::BenchRequest req;
  req.engines = {o.engines};
  req.scenarios = {o.scenarios};
  req.user.num = o.num;
  req.user.reads = o.reads;
  req.user.writes = o.writes;
  req.user.value_size = o.value_size;
  req.user.key_size = o.key_size;
  req.user.compression_ratio = o.compression_ratio;
  req.available = AvailableEngines();
  req.factory = NewEngine;
  auto plan = bench::PlanBench(req);
  if (!plan.ok()) return plan.status();
  for (const std::string& e : plan->engines) {
    if (!predict::HasModel(e)) {
      return Status::InvalidArgument("--engine " + e +
                                     ": no model (predict knows leveldb and "
                                     "rocksdb)");
    }
  }
  for (const bench::PlannedStep& s : plan->steps) {
    if (!predict::KindOf(std::string(s.spec->name)) &&
        s.spec->db == bench::DbUse::kNone) {
      return Status::InvalidArgument("--scenario " + std::string(s.spec->name) +
                                     ": no model for a CPU-only yardstick");
    }
  }
  return req;
}

// One predicted figure per step of the in-memory run that has a model; the
// scenario names are the requested ones (a -cold step ran warm in memory).
std::vector<bench::BenchResult> Predicted(const bench::BenchRequest& req,
                                          const predict::DiskFigures& disk,
                                          const predict::Calibration& cal,
                                          const Report& probed) {
  auto plan = bench::PlanBench(req);
  std::vector<bench::BenchResult> out;
  for (const bench::BenchResult& run : cal.results) {
    if (run.step < 1 || static_cast<size_t>(run.step) > plan->steps.size())
      continue;
    bench::BenchResult r = run;
    r.scenario = std::string(plan->steps[run.step - 1].spec->name);
    r.metrics.ops_per_sec = 0;  // nothing measured on the disk
    std::string why_not;
    r.prediction = predict::PredictStep(
        r, disk, cal, probed.environment.system.memory_available_bytes,
        &why_not);
    if (r.prediction) out.push_back(std::move(r));
  }
  return out;
}

nlohmann::json ToJson(const PredictOptions& o, const Report& probed,
                      const predict::DiskFigures& disk,
                      const predict::Calibration& cal,
                      const std::vector<bench::BenchResult>& rs) {
  nlohmann::json predictions = nlohmann::json::array();
  for (const bench::BenchResult& r : rs) {
    predictions.push_back(
        {{"engine", r.engine},
         {"scenario", r.scenario},
         {"num", r.params.num},
         {"ops", r.metrics.ops},
         {"prediction", bench::PredictionToJson(*r.prediction)}});
  }
  return {{"schema", kPredictSchema},
          {"schema_version", kPredictSchemaVersion},
          {"tool_version", NewReport("predict").tool_version},
          {"created_at", UtcTimestamp()},
          {"probe_result",
           {{"path", o.probe_result},
            {"hostname", probed.environment.system.hostname},
            {"cpu_model", probed.environment.system.cpu_model},
            {"memory_available_bytes",
             probed.environment.system.memory_available_bytes}}},
          {"disk", predict::DiskFiguresToJson(disk)},
          {"cpu_calibrated_on", cal.cpu_model},
          {"predictions", predictions}};
}

std::string HtmlPage(const Report& probed, const std::string& body) {
  return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>"
         "disktune predict: " +
         svg::Escape(probed.environment.system.hostname) +
         "</title><style>body{font-family:sans-serif;margin:2em}"
         "td.num{text-align:right}td,th{padding:2px 8px}</style></head>"
         "<body><h2>What the engines will do on " +
         svg::Escape(probed.environment.system.hostname) + "'s disk</h2>\n" +
         body + "</body></html>\n";
}

int RunPredict(const PredictOptions& o, CommandContext& ctx) {
  InstallInterruptHandlers();
  if (o.probe_result.empty()) {
    return Fail(ctx, Status::InvalidArgument(
                         "--probe-result FILE is required (a `disktune "
                         "probe --json FILE` result)"));
  }
  Report probed;
  auto disk = DiskFiguresFromFile(o.probe_result, &probed);
  if (!disk.ok()) return Fail(ctx, disk.status());
  auto req = BuildRequest(o);
  if (!req.ok()) return Fail(ctx, req.status());
  Status js = CheckJsonDestination(o.common);
  if (!js.ok()) return Fail(ctx, js);
  if (!o.html.empty()) {
    Status hs = CheckOutputFile(o.html, "--html");
    if (!hs.ok()) return Fail(ctx, hs);
  }
  if (!o.common.quiet) {
    ctx.err << "calibrating the engines' CPU cost in memory (/dev/shm)\n";
  }
  auto cal = predict::Calibrate(*req);
  if (!cal.ok()) return Fail(ctx, cal.status());
  if (InterruptRequested()) return Fail(ctx, Status::Aborted("interrupted"));
  std::vector<bench::BenchResult> rs = Predicted(*req, *disk, *cal, probed);
  Status out = EmitJson(ctx, o.common, ToJson(o, probed, *disk, *cal, rs));
  if (!out.ok()) return Fail(ctx, out);
  if (std::ostream* human = HumanStream(ctx, o.common)) {
    *human << "disk of " << probed.environment.system.hostname << " (from "
           << o.probe_result << "); CPU cost calibrated on " << cal->cpu_model
           << "\n"
           << RenderPredictionsText(rs);
  }
  if (!o.html.empty()) {
    Status w = WriteOutputFile(
        o.html, HtmlPage(probed, RenderPredictionsHtml(rs)), "--html");
    if (!w.ok()) return Fail(ctx, w);
  }
  return kExitOk;
}

}  // namespace

void SetupPredictCommand(CLI::App& app, CommandContext& ctx) {
  auto o = std::make_shared<PredictOptions>();
  CLI::App* cmd = app.add_subcommand(
      "predict",
      "from a probe result alone: what each engine scenario will do on that "
      "disk, and what bounds it (the engines run only in memory, for their "
      "CPU cost)");
  AddCommonOptions(cmd, &o->common, /*with_dir=*/false);
  cmd->add_option("--probe-result", o->probe_result,
                  "the disk: a `disktune probe --json FILE` result")
      ->type_name("FILE");
  cmd->add_option("--engine", o->engines, "engine id(s): leveldb, rocksdb")
      ->type_name("NAME[,NAME]")
      ->default_str("leveldb");
  cmd->add_option("--scenario", o->scenarios,
                  "scenario or set name(s), comma-separated")
      ->type_name("NAME[,NAME]|SET")
      ->default_str(kDefaultScenarios);
  cmd->add_option("--num", o->num,
                  "number of keys (db_bench --num; default 1000000)");
  cmd->add_option("--reads", o->reads, "ops of read scenarios (default: num)");
  cmd->add_option("--writes", o->writes,
                  "ops of write scenarios (default: num)");
  cmd->add_option("--value-size", o->value_size,
                  "value size, bytes (default 100)")
      ->type_name("BYTES");
  cmd->add_option("--key-size", o->key_size,
                  "key size, bytes (default 16: db_bench's %016d)")
      ->type_name("BYTES");
  cmd->add_option("--compression-ratio", o->compression_ratio,
                  "how far values compress (default 0.5)");
  cmd->add_option("--html", o->html,
                  "also write the predictions and a chart per engine as HTML")
      ->type_name("FILE");
  cmd->callback([o, &ctx] { ctx.exit_code = RunPredict(*o, ctx); });
}

}  // namespace disktune::cli
