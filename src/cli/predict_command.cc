// `disktune predict`: from a probe result alone, what each engine scenario
// will do on that disk and what bounds it. The engines run only in memory
// (/dev/shm), for their CPU cost per op on this CPU; the disk is not touched.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <sstream>

#include "reports/prediction_text.h"
#include "reports/svg_chart.h"
#include "src/app/engine_libraries.h"
#include "src/bench/runner.h"
#include "src/cli/command.h"
#include "src/cli/predict_inputs.h"
#include "src/cli/probe_session.h"
#include "src/core/output_file.h"
#include "src/core/signals.h"
#include "src/core/sysinfo.h"
#include "src/core/units.h"
#include "src/model/report.h"
#include "src/predict/attach.h"
#include "src/predict/from_probes.h"

namespace disktune::cli {
namespace {

inline constexpr const char* kPredictSchema = "disktune.predict";
inline constexpr const char* kPredictSchemaVersion = "1.2";
// The figures the capacity planner asks for first, in an order whose
// reads find a database: fresh fills, then overwrite, then reads.
inline constexpr const char* kDefaultScenarios =
    "fillseq,fillsync,fillrandom,overwrite,readrandom,readrandom-cold,"
    "readseq,readseq-cold";

struct PredictOptions {
  CommonOptions common;
  std::string probe_result;
  PredictWorkload workload = PredictWorkloadOf(kDefaultScenarios);
  std::string html;
};

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
  auto req = PredictRequest(o.workload);
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
  auto plan = bench::PlanBench(*req);
  if (!plan.ok()) return Fail(ctx, plan.status());
  std::vector<bench::BenchResult> rs = predict::PredictFromProbes(
      *plan, *disk, *cal, probed.environment.system.memory_available_bytes);
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
  AddPredictWorkloadOptions(cmd, &o->workload);
  cmd->add_option("--scenario", o->workload.scenarios,
                  "scenario or set name(s), comma-separated")
      ->type_name("NAME[,NAME]|SET")
      ->default_str(kDefaultScenarios);
  cmd->add_option("--html", o->html,
                  "also write the predictions and a chart per engine as HTML")
      ->type_name("FILE");
  cmd->callback([o, &ctx] { ctx.exit_code = RunPredict(*o, ctx); });
}

}  // namespace disktune::cli
