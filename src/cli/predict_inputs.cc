#include "src/cli/predict_inputs.h"

#include <algorithm>

#include "engines/engine.h"
#include "src/bench/scenario.h"
#include "src/cli/probe_session.h"
#include "src/predict/disk_figures.h"
#include "src/predict/engine_facts.h"

namespace disktune::cli {

Result<ProbeFlags> ModelProbeFlags() {
  CLI::App app;
  ProbeFlags flags;
  AddProbeFlags(&app, &flags);
  std::vector<std::string> args = predict::ModelProbeArgs();
  std::reverse(args.begin(), args.end());  // CLI11 takes them last first
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    return Status::InvalidArgument("predict::ModelProbeArgs(): " +
                                   std::string(e.what()));
  }
  flags.measure_with = "native";
  return flags;
}

Result<predict::DiskFigures> DiskFiguresFromFile(const std::string& path,
                                                 Report* report) {
  auto read = ReadReportFile(path);
  if (!read.ok()) return read.status();
  auto disk = predict::DiskFiguresFromRun(read->probes, read->environment);
  if (!disk.ok()) return disk.status().WithContext("--probe-result " + path);
  *report = std::move(*read);
  return disk;
}

PredictWorkload PredictWorkloadOf(const std::string& scenarios) {
  PredictWorkload w;
  w.scenarios = scenarios;
  return w;
}

void AddPredictWorkloadOptions(CLI::App* cmd, PredictWorkload* w) {
  cmd->add_option("--engine", w->engines, "engine id(s): leveldb, rocksdb")
      ->type_name("NAME[,NAME]")
      ->default_str("leveldb");
  cmd->add_option("--num", w->num,
                  "number of keys (db_bench --num; default 1000000)");
  cmd->add_option("--reads", w->reads, "ops of read scenarios (default: num)");
  cmd->add_option("--writes", w->writes,
                  "ops of write scenarios (default: num)");
  cmd->add_option("--value-size", w->value_size,
                  "value size, bytes (default 100)")
      ->type_name("BYTES");
  cmd->add_option("--key-size", w->key_size,
                  "key size, bytes (default 16: db_bench's %016d)")
      ->type_name("BYTES");
  cmd->add_option("--compression-ratio", w->compression_ratio,
                  "how far values compress (default 0.5)");
}

Result<bench::BenchRequest> PredictRequest(const PredictWorkload& w) {
  bench::BenchRequest req;
  req.engines = {w.engines};
  req.scenarios = {w.scenarios};
  req.user.num = w.num;
  req.user.reads = w.reads;
  req.user.writes = w.writes;
  req.user.value_size = w.value_size;
  req.user.key_size = w.key_size;
  req.user.compression_ratio = w.compression_ratio;
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

Result<predict::DiskFigures> ModelDiskFigures(
    const std::string& probe_result_path, const CommonOptions& common,
    CommandContext& ctx, const app::Session& session, Report* report) {
  if (!probe_result_path.empty()) {
    Report from_file;
    auto disk = DiskFiguresFromFile(probe_result_path, &from_file);
    if (!disk.ok()) return disk.status();
    report->config["probe_result"] = probe_result_path;
    return disk;
  }
  Result<ProbeFlags> flags = ModelProbeFlags();
  if (!flags.ok()) return flags.status();
  CommonOptions quiet = common;
  quiet.json_path.clear();
  quiet.progress = "never";
  Result<ProbeSetup> setup = PlanProbeStep(quiet, *flags);
  if (!setup.ok()) return setup.status();
  std::unique_ptr<TerminalProgress> progress = MakeProgress(ctx, quiet);
  Report probed;
  Status s = app::RunProbeStep(setup->plan, session, progress.get(),
                               common.keep, &probed);
  progress->Finish();
  if (!s.ok()) return s;
  auto disk = predict::DiskFiguresFromRun(probed.probes, probed.environment);
  for (ProbeResult& p : probed.probes) report->probes.push_back(std::move(p));
  report->bytes_written += probed.bytes_written;
  return disk;
}

}  // namespace disktune::cli
