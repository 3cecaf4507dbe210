// `disktune check RESULT.json`: requirements over a result as a gate; exits 0
// only when every requirement is met.
#include "reports/check.h"
#include "src/cli/command.h"
#include "src/cli/report_input.h"

namespace disktune::cli {
namespace {

struct CheckCommandOptions {
  CommonOptions common;
  std::string result;
  std::vector<std::string> requires_;
  std::vector<std::string> presets;
  bool list_presets = false;
};

std::string PresetList() {
  std::string out;
  for (const auto& p : CheckPresets()) {
    out += p.name + ": " + p.summary + "\n";
    for (const auto& e : p.expressions) out += "    " + e + "\n";
    out += "  why: " + p.why + "\n";
  }
  return out;
}

int RunCheckCommand(const CheckCommandOptions& o, CommandContext& ctx) {
  if (o.list_presets) {
    ctx.out << PresetList();
    return 0;
  }
  if (o.result.empty()) {
    return Fail(ctx, Status::InvalidArgument(
                         "check needs a RESULT.json; e.g. disktune check "
                         "result.json --preset etcd"));
  }
  // Expressions are parsed before the result is read: a typo is reported as
  // such whatever the file holds.
  std::vector<Requirement> reqs;
  for (const auto& name : o.presets) {
    Result<std::vector<Requirement>> p = PresetRequirements(name);
    if (!p.ok())
      return Fail(ctx,
                  Status::InvalidArgument("--preset: " + p.status().message()));
    reqs.insert(reqs.end(), p->begin(), p->end());
  }
  for (const auto& text : o.requires_) {
    Result<Requirement> r = ParseRequirement(text);
    if (!r.ok()) {
      return Fail(ctx, Status::InvalidArgument("--require '" + text +
                                               "': " + r.status().message()));
    }
    reqs.push_back(std::move(*r));
  }
  if (reqs.empty()) {
    return Fail(
        ctx,
        Status::InvalidArgument(
            "nothing to check: pass --require 'PATH OP VALUE' or --preset NAME "
            "(see --list-presets)"));
  }
  Result<Report> report = LoadResultFile(o.result);
  if (!report.ok()) return Fail(ctx, report.status());
  Result<std::vector<RequirementResult>> results =
      EvaluateRequirements(*report, reqs);
  if (!results.ok()) {
    return Fail(ctx, Status::InvalidArgument("--require " +
                                             results.status().message()));
  }
  Status js = EmitJson(ctx, o.common, CheckToJson(o.result, *results));
  if (!js.ok()) return Fail(ctx, js);
  if (std::ostream* human = HumanStream(ctx, o.common))
    *human << RenderCheckText(*results);
  return CheckExitCode(*results);
}

}  // namespace

void SetupCheckCommand(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<CheckCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "check",
      "gate on a result (e.g. --preset etcd, or --require "
      "'etcd.sync_latency_ns.p99 < 10ms'): exit 0 when every requirement is "
      "met, 1 when one fails or was not measured, 3 when one rests on too few "
      "samples (a p99 needs 1,000) or missed its limit while the machine was "
      "busy (1-minute load above 2 per CPU before or after the "
      "measurements: UNRELIABLE), 2 for bad input");
  cmd->add_option("RESULT", opts->result,
                  "a result JSON written by probe, bench or run")
      ->type_name("RESULT.json");
  AddCommonOptions(cmd, &opts->common, /*with_dir=*/false);
  cmd->add_option("--require", opts->requires_,
                  "a requirement 'PATH OP VALUE[UNIT]', repeatable. PATH: "
                  "etcd.<metric> or wal.<metric> (the named figures: "
                  "etcd's WAL point, a 4 KiB log append; <metric> p99 is "
                  "write+sync, sync_latency_ns.p99 the sync alone), "
                  "<probe name>.<metric> (a name prefix must match one "
                  "probe: fsync.fdatasync.2300.prealloc.p99), "
                  "bench.<engine>.<scenario>."
                  "<metric>, or analyses.<key>...; OP: < <= > >= == !=; UNIT: "
                  "ns us ms s, B KiB "
                  "MiB GiB KB MB GB, <size>/s, /s")
      ->type_name("EXPR")
      ->allow_extra_args(false);
  cmd->add_option("--preset", opts->presets,
                  "named requirement sets, repeatable or comma-separated: "
                  "etcd, leveldb-wal")
      ->type_name("NAME")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_flag("--list-presets", opts->list_presets,
                "print the presets, their requirements and "
                "why, then exit");
  cmd->callback([opts, &ctx] { ctx.exit_code = RunCheckCommand(*opts, ctx); });
}

}  // namespace disktune::cli
