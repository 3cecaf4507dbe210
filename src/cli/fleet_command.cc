// `disktune fleet results/`: many hosts' results side by side, the fleet
// median of each figure per device model, and the hosts that stand out (the
// rule is in reports/fleet.h), and each host's predicted engine figures
// from its probes (fleet_predictions.h). Text on stdout; --json, --html,
// --prometheus files; --fail-on-outlier exits 1 when a host stands out.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <set>

#include "reports/fleet.h"
#include "reports/fleet_render.h"
#include "src/cli/command.h"
#include "src/cli/fleet_predictions.h"
#include "src/cli/predict_inputs.h"
#include "src/cli/report_input.h"
#include "src/core/signals.h"

namespace disktune::cli {
namespace {

struct FleetCommandOptions {
  CommonOptions common;
  std::vector<std::string> inputs;
  std::string html;
  std::string prometheus;
  std::string group_by = "model";
  double max_mads = FleetRule().max_mads;
  double min_ratio = FleetRule().min_ratio;
  int min_hosts = static_cast<int>(FleetRule().min_hosts);
  bool fail_on_outlier = false;
  PredictWorkload workload = PredictWorkloadOf(kFleetPredictScenarios);
  bool no_predict = false;
};

// The files named, and the *.json files directly inside the directories
// named (sorted, so the order does not depend on the filesystem).
Result<std::vector<std::string>> ExpandInputs(
    const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  std::set<std::string> seen;
  for (const std::string& in : inputs) {
    std::error_code ec;
    fs::file_status st = fs::status(in, ec);
    if (ec || !fs::exists(st)) {
      return Status::InvalidArgument(
          in +
          ": no such file or directory; give result files or a "
          "directory of them");
    }
    std::vector<std::string> found;
    if (fs::is_directory(st)) {
      for (const auto& e : fs::directory_iterator(in, ec)) {
        if (e.path().extension() == ".json" && e.is_regular_file(ec)) {
          found.push_back(e.path().string());
        }
      }
      if (ec) return Status::FromErrno(ec.value(), "read directory " + in);
      std::sort(found.begin(), found.end());
    } else {
      found.push_back(in);
    }
    for (const std::string& f : found) {
      std::string key = fs::weakly_canonical(f, ec).string();
      if (seen.insert(key.empty() ? f : key).second) files.push_back(f);
    }
  }
  if (files.empty()) {
    return Status::InvalidArgument(
        "no result files (*.json) in " + inputs.front() +
        "; give result files or a directory of them");
  }
  return files;
}

int RunFleetCommand(const FleetCommandOptions& o, CommandContext& ctx) {
  FleetRule rule;
  if (!(o.max_mads > 0) || !std::isfinite(o.max_mads)) {
    return Fail(ctx,
                Status::InvalidArgument(
                    "--max-mads must be a number > 0; e.g. --max-mads 3.5"));
  }
  if (!(o.min_ratio >= 1) || !std::isfinite(o.min_ratio)) {
    return Fail(ctx,
                Status::InvalidArgument(
                    "--min-ratio must be a number >= 1; e.g. --min-ratio 1.5"));
  }
  if (o.min_hosts < 3) {
    return Fail(ctx, Status::InvalidArgument(
                         "--min-hosts must be 3 or more (with two hosts there "
                         "is no telling which is odd); e.g. --min-hosts 3"));
  }
  if (o.group_by != "model" && o.group_by != "none") {
    return Fail(ctx, Status::InvalidArgument("--group-by '" + o.group_by +
                                             "': valid: model, none"));
  }
  rule.max_mads = o.max_mads;
  rule.min_ratio = o.min_ratio;
  rule.min_hosts = static_cast<size_t>(o.min_hosts);
  rule.group_by_model = o.group_by == "model";

  std::optional<FleetPredictor> predictor;
  if (!o.no_predict) {
    auto req = PredictRequest(o.workload);
    if (!req.ok()) return Fail(ctx, req.status());
    auto plan = bench::PlanBench(*req);
    if (!plan.ok()) return Fail(ctx, plan.status());
    predictor.emplace(*req, *plan, o.common.quiet ? nullptr : &ctx.err);
  }

  Result<std::vector<std::string>> files = ExpandInputs(o.inputs);
  if (!files.ok()) return Fail(ctx, files.status());
  InstallInterruptHandlers();
  FleetBuilder builder(rule);
  size_t readable = 0;
  for (const std::string& f : *files) {
    Result<Report> r = LoadResultFile(f);
    if (!r.ok()) {
      // One host's bad file must not hide the rest of the fleet; it is
      // listed in every output.
      builder.Skip(f, r.status().message());
      if (!o.common.quiet) {
        ctx.err << "disktune: skipping " << r.status().message() << "\n";
      }
      continue;
    }
    // Only the figures are kept: the report is dropped here.
    builder.Add(
        f, *r, predictor ? predictor->For(*r) : std::vector<FleetPrediction>{});
    if (InterruptRequested()) return Fail(ctx, Status::Aborted("interrupted"));
    readable++;
  }
  if (predictor) builder.SetPredictionBasis(predictor->Basis());
  if (readable == 0) {
    return Fail(ctx, Status::InvalidArgument(
                         "none of the " + std::to_string(files->size()) +
                         " files is a readable disktune result"));
  }
  FleetReport fleet = builder.Finish();

  Status s = EmitJson(ctx, o.common, FleetToJson(fleet));
  if (!s.ok()) return Fail(ctx, s);
  if (!o.html.empty()) {
    s = WriteOutput(ctx, o.html, FleetHtml(fleet));
    if (!s.ok()) return Fail(ctx, s);
  }
  if (!o.prometheus.empty()) {
    s = WriteOutput(ctx, o.prometheus, FleetPrometheus(fleet));
    if (!s.ok()) return Fail(ctx, s);
  }
  if (std::ostream* human = HumanStream(ctx, o.common)) {
    *human << FleetText(fleet);
  }
  return o.fail_on_outlier && !fleet.outliers.empty() ? 1 : 0;
}

}  // namespace

void SetupFleetCommand(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<FleetCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "fleet",
      "many hosts' results side by side: the figures that matter per host, "
      "the median per device model, and the hosts that stand out");
  cmd->add_option("RESULTS", opts->inputs,
                  "result files, or directories of them (*.json)")
      ->required()
      ->type_name("FILE|DIR");
  AddCommonOptions(cmd, &opts->common, /*with_dir=*/false);
  cmd->add_option("--html", opts->html,
                  "also write an HTML page (a strip chart per figure)")
      ->type_name("FILE");
  cmd->add_option("--prometheus", opts->prometheus,
                  "also write a Prometheus textfile (a host label per sample)")
      ->type_name("FILE");
  cmd->add_option("--group-by", opts->group_by,
                  "compare hosts within a device model (model, the default) "
                  "or all together (none)")
      ->type_name("model|none");
  cmd->add_option("--max-mads", opts->max_mads,
                  "an outlier is more than N MADs from its group's median "
                  "(default 3.5) ...")
      ->type_name("N");
  cmd->add_option("--min-ratio", opts->min_ratio,
                  "... and at least X times away from it (default 1.5)")
      ->type_name("X");
  cmd->add_option("--min-hosts", opts->min_hosts,
                  "groups smaller than N get medians but no outliers "
                  "(default 3)")
      ->type_name("N");
  cmd->add_flag("--fail-on-outlier", opts->fail_on_outlier,
                "exit 1 when any host is an outlier (for pipelines)");
  // The predicted figures' workload: `disktune predict`'s flags.
  AddPredictWorkloadOptions(cmd, &opts->workload);
  cmd->add_flag("--no-predict", opts->no_predict,
                "no prediction: skip the in-memory CPU calibration and the "
                "predicted fillsync, fillrandom and cold readrandom");
  cmd->callback([opts, &ctx] { ctx.exit_code = RunFleetCommand(*opts, ctx); });
}

}  // namespace disktune::cli
