// `disktune compare A.json B.json`: two results side by side, noise-aware,
// with --fail-on-regression PCT as a gate.
#include <cmath>

#include "reports/compare.h"
#include "src/cli/command.h"
#include "src/cli/report_input.h"

namespace disktune::cli {
namespace {

struct CompareCommandOptions {
  CommonOptions common;
  std::string a;
  std::string b;
  double threshold_pct = 5;
  std::optional<double> fail_on_regression_pct;
  bool no_noise_floors = false;
};

// Whether any figure of `r` carries rounds (probe --repeat, bench --repeat).
bool HasRepeats(const Report& r) {
  for (const auto& p : r.probes) {
    if (p.repeats && p.repeats->count >= 2) return true;
  }
  for (const auto& b : r.benches) {
    if (b.repeats && b.repeats->count >= 2) return true;
  }
  return false;
}

// "probe figures", "bench figures", "probe and bench figures", "no figures".
std::string WhatItHolds(const Report& r) {
  if (!r.probes.empty() && !r.benches.empty()) return "probe and bench figures";
  if (!r.probes.empty()) return "probe figures";
  if (!r.benches.empty()) return "bench figures";
  return "no figures";
}

int RunCompareCommand(const CompareCommandOptions& o, CommandContext& ctx) {
  if (!(o.threshold_pct >= 0) || !std::isfinite(o.threshold_pct)) {
    return Fail(
        ctx, Status::InvalidArgument("--threshold must be a percent >= 0; e.g. "
                                     "--threshold 5"));
  }
  if (o.fail_on_regression_pct && (!(*o.fail_on_regression_pct >= 0) ||
                                   !std::isfinite(*o.fail_on_regression_pct))) {
    return Fail(ctx, Status::InvalidArgument(
                         "--fail-on-regression must be a percent >= 0; "
                         "e.g. --fail-on-regression 10"));
  }
  Result<Report> a = LoadResultFile(o.a);
  if (!a.ok()) return Fail(ctx, a.status());
  Result<Report> b = LoadResultFile(o.b);
  if (!b.ok()) return Fail(ctx, b.status());
  CompareOptions co;
  co.threshold_pct = o.threshold_pct;
  co.fail_on_regression_pct = o.fail_on_regression_pct;
  co.noise_floors = !o.no_noise_floors;
  auto label = [](const std::string& path, const Report& r) {
    std::string dev =
        r.environment.device ? r.environment.device->disk : "no device";
    return path + " (" + r.environment.system.hostname + ", " + dev + ", " +
           r.environment.filesystem.type + ", " + r.created_at + ")";
  };
  // Single runs cannot be gated: identical runs on an idle machine move
  // beyond any small threshold from noise alone, and without rounds there is
  // no spread to tell noise from change.
  if (o.fail_on_regression_pct && !HasRepeats(*a) && !HasRepeats(*b)) {
    return Fail(ctx, Status::InvalidArgument(
                         "--fail-on-regression gates results measured with "
                         "repeats; " +
                         o.a + " and " + o.b +
                         " are single runs: measure both with --repeat 3 "
                         "(probe or bench)"));
  }
  Comparison c = CompareReports(*a, *b, label(o.a, *a), label(o.b, *b), co);
  if (c.rows.empty() && c.params_differ_rows > 0) {
    return Fail(ctx, Status::InvalidArgument(
                         o.a + " and " + o.b +
                         " measured every common figure with other "
                         "parameters (" +
                         c.not_comparable.front() +
                         "); compare results made with the same flags"));
  }
  // Nothing in common (a probe result against a bench result) is not a
  // pass: "0 figures compared" would read as "no change".
  if (c.rows.empty()) {
    return Fail(ctx, Status::InvalidArgument(
                         o.a + " (" + WhatItHolds(*a) + ") and " + o.b + " (" +
                         WhatItHolds(*b) +
                         ") have no figure in common; compare two results of "
                         "the same command and scenarios"));
  }
  Status js = EmitJson(ctx, o.common, ComparisonToJson(c));
  if (!js.ok()) return Fail(ctx, js);
  if (std::ostream* human = HumanStream(ctx, o.common))
    *human << RenderCompareText(c);
  return o.fail_on_regression_pct && c.regressions > 0 ? 1 : 0;
}

}  // namespace

void SetupCompareCommand(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<CompareCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "compare",
      "two results side by side (hosts, or one host over time) with the change "
      "in percent; "
      "changes inside the spread of repeats (probe --repeat, bench --repeat) "
      "or inside the noise measured between identical runs are noise, not "
      "regressions");
  cmd->add_option("A", opts->a, "the baseline result JSON")
      ->required()
      ->type_name("A.json");
  cmd->add_option("B", opts->b, "the result to judge against it")
      ->required()
      ->type_name("B.json");
  AddCommonOptions(cmd, &opts->common, /*with_dir=*/false);
  cmd->add_option("--threshold", opts->threshold_pct,
                  "changes smaller than PCT percent count as the same (default "
                  "5)")
      ->type_name("PCT");
  cmd->add_flag("--no-noise-floors", opts->no_noise_floors,
                "judge figures by the spreads of their repeats and "
                "--threshold alone, not by the noise measured between "
                "identical probe runs");
  cmd->add_option("--fail-on-regression", opts->fail_on_regression_pct,
                  "exit 1 when a figure is worse by more than PCT percent and "
                  "outside the spread "
                  "(a gate), or a result that was ok in A failed in B")
      ->type_name("PCT");
  cmd->callback(
      [opts, &ctx] { ctx.exit_code = RunCompareCommand(*opts, ctx); });
}

}  // namespace disktune::cli
