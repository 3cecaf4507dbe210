// Setup: the facts the rules read, the rules' candidates, the model's
// ranking, and the trials.
#include <sys/resource.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "probes/environment.h"
#include "probes/probe.h"
#include "probes/probe_runner.h"
#include "src/core/signals.h"
#include "src/core/sysinfo.h"
#include "src/core/units.h"
#include "src/predict/disk_figures.h"
#include "src/predict/engine_facts.h"
#include "src/tune/phases.h"
#include "src/tune/predictor_model.h"
#include "src/tune/tune_context.h"

namespace disktune::tune::phases {
namespace {

// The smallest trial worth ranking candidates on: below it the fixed cost
// of opening and destroying a database swamps what the knobs change.
constexpr uint64_t kMinRankNum = 20000;
// The largest copy the predictor's in-memory calibration runs: a few seconds
// of CPU for either engine, and at most 16 ranking copies' worth, so a short
// budget is not spent calibrating.
constexpr uint64_t kMaxCalibrationNum = 1000000;
constexpr double kMaxCalibrationOverRank = 16;

uint64_t FdLimit() {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) {
    return 1 << 20;
  }
  return static_cast<uint64_t>(rl.rlim_cur);
}

// A quick probe of only what the rules read: 4 KiB random reads at queue
// depth 1, sequential writes, and 4 KiB appending fdatasync (as long as
// bench's sync point).
Status ProbeDevice(const ScratchDir& scratch,
                   const std::optional<Environment>& given,
                   ProgressSink* progress, SetupOutcome* out) {
  // The rules' points (4 KiB reads at queue depth 1, 1 MiB writes, a 4 KiB
  // appending fdatasync) and the rest of the predictor's (1 MiB reads and
  // the table-sized append; its small-write sync is the smallest append
  // measured, the 4 KiB one here: src/predict/disk_figures.h), so the
  // predictor ranks with the figures bench predicts from.
  ProbeConfig config = ProbeConfig::Defaults(true);
  config.queue_depths = {1};
  config.fsync_methods = {"fdatasync"};
  config.fsync_sizes = {4096, predict::kTableSyncBytes};
  config.fsync_modes = {"append"};
  config.fsync_duration_ns = predict::kSyncPointNs;
  config.buffered = true;  // measure something even where O_DIRECT is refused
  auto probes = SelectProbes({"seq_read", "rand_read", "seq_write", "fsync"});
  if (!probes.ok()) return probes.status();
  Environment env = given ? *given : CollectEnvironment(scratch.path());
  ProbeRunOutput run;
  Status s = RunProbes(*probes, config, scratch, env, progress, &run);
  if (s.IsAborted()) return s;
  out->environment = env;
  out->probes = std::move(run.results);
  out->facts = FactsFromProbes(
      out->probes, env, "quick probe of " + scratch.path() + " (this run)");
  if (!s.ok()) {
    out->notes.push_back("the device probe stopped early (" + s.message() +
                         "); rules use what it measured");
  }
  return Status::OK();
}

// snappy's compression speed on this CPU with the workload's values (the
// CPU side of the compression rule).
std::optional<double> MeasureSnappy(const TuneRequest& req, const Workload& w,
                                    const ScratchDir& scratch) {
  bench::BenchRequest br;
  br.engines = {req.engine};
  br.scenarios = {"snappycomp"};
  br.quick = true;  // 100 MiB: a few tenths of a second
  br.user.compression_ratio = w.compression_ratio;
  br.db_root = scratch.HandlePath("tune-cpu");
  br.db_root_shown = scratch.Join("tune-cpu");
  br.available = req.available;
  br.factory = req.factory;
  auto r = bench::RunBench(br);
  scratch.RemoveTree("tune-cpu");
  if (!r.ok() || r->empty() || r->front().status != bench::RunStatus::kOk ||
      !r->front().metrics.bytes_per_sec) {
    return std::nullopt;
  }
  return r->front().metrics.bytes_per_sec;
}

// The predictor (predictor_model.h) with the baseline's CPU cost measured
// in memory on a copy that fills the full size's levels, within the limits
// above; nullptr (the internal estimate ranks) when a
// fake trial stands for the engine, the engine has no model, the facts lack
// the figures it reads, or the in-memory run fails (the notes say which).
// Only asks `trials` for the bench run of a trial; runs none.
std::unique_ptr<ThroughputModel> CalibratedPredictor(const TuneRun& run,
                                                     const Trials& trials,
                                                     SetupOutcome* out) {
  const TuneRequest& req = run.req;
  if (req.env.trial || !predict::HasModel(req.engine)) return nullptr;
  if (!PredictorFigures(out->facts)) {
    out->notes.push_back(
        "the predictor did not rank the candidates: the device facts lack "
        "the write bandwidth or the 4 KiB read latency");
    return nullptr;
  }
  const Workload& w = out->workload;
  double scale = trials.FirstScaleAtFullDepth(out->baseline, out->s_rank);
  scale = std::min(scale,
                   EffectiveScale(w, static_cast<double>(kMaxCalibrationNum) /
                                         static_cast<double>(w.num)));
  scale = std::max(std::min(scale, kMaxCalibrationOverRank * out->s_rank),
                   out->s_rank);
  run.progress->Info(
      "tune: calibrating the predictor (the baseline in "
      "memory, scale " +
      Fixed(scale, 3) + ")");
  auto cal = CalibratePredictor(trials.Request(out->baseline, scale),
                                out->baseline, w.measured, scale);
  if (!cal.ok()) {
    out->notes.push_back("the predictor did not rank the candidates (" +
                         cal.status().message() +
                         "); the internal estimate did");
    return nullptr;
  }
  out->notes.push_back(
      "the predictor ranked the candidates from the device facts and the "
      "baseline's CPU cost per op, measured in memory at scale " +
      Fixed(scale, 3) + " of the workload");
  return PredictorModel(std::move(*cal));
}

// The model's ranking (rank.h): candidates it predicts behind the best by
// more than its error are left out before any trial.
void RankByModel(const TuneRun& run, const Trials& trials, SetupOutcome* out) {
  std::unique_ptr<ThroughputModel> own;
  const ThroughputModel* model = run.req.model;
  if (model == nullptr) {
    own = CalibratedPredictor(run, trials, out);
    if (!own) own = InternalEstimate();
    model = own.get();
  }
  const Ranking rank = RankCandidates(*model, out->in, out->candidates);
  out->ranking_model = rank.model;
  double best = 0;
  for (const auto& p : rank.predicted) best = std::max(best, p.value_or(0));
  for (size_t i = 0; i < out->candidates.size(); i++) {
    out->predicted.push_back({out->candidates[i], rank.predicted[i]});
  }
  std::vector<TuneConfig> kept;
  for (size_t i : rank.kept) kept.push_back(out->candidates[i]);
  for (size_t i : rank.left_out) {
    PlanEntry e;
    e.candidate = ConfigText(out->candidates[i]);
    e.predicted_ops_per_sec = rank.predicted[i];
    e.reason = "the " + rank.model + " predicts " +
               Thousands(static_cast<uint64_t>(*rank.predicted[i])) +
               " ops/s against the best's " +
               Thousands(static_cast<uint64_t>(best)) +
               ", behind by more "
               "than its error (" +
               Fixed(100 * model->error_share(), 0) + "%)";
    out->left_out.push_back(std::move(e));
  }
  if (!rank.left_out.empty()) {
    out->notes.push_back(
        "the " + rank.model + " left out " +
        std::to_string(rank.left_out.size()) + " of " +
        std::to_string(out->candidates.size()) +
        " candidates it predicts far behind the best (see plan.left_out); "
        "trials go to the " +
        std::to_string(kept.size()) + " it cannot separate");
  }
  out->candidates = std::move(kept);
}

}  // namespace

Result<SetupOutcome> Setup(const TuneRun& run) {
  const TuneRequest& req = run.req;
  SetupOutcome out;
  out.workload = req.workload;
  Workload& w = out.workload;
  if (req.data_size_bytes) {
    DT_RETURN_IF_ERROR(ApplyDataSize(*req.data_size_bytes, req.engine, &w));
  }
  auto shape = ShapeOf(w, req.engine);
  if (!shape.ok()) return shape.status();
  out.shape = *shape;
  out.traits = TraitsOf(w);

  if (req.facts) {
    out.facts = *req.facts;
  } else {
    run.progress->Info("tune: probing the device under " + run.scratch.path());
    DT_RETURN_IF_ERROR(
        ProbeDevice(run.scratch, req.environment, run.progress, &out));
  }
  SystemInfo sys = ReadSystemInfo();
  out.facts.memory_bytes = sys.memory_bytes;
  out.facts.cpu_count = std::max(1, sys.cpu_count);
  out.facts.fd_limit = FdLimit();
  // A fake trial function stands for the engine: no CPU figure either.
  if (!req.env.trial) {
    out.facts.snappy_bytes_per_sec = MeasureSnappy(req, w, run.scratch);
  }
  if (InterruptRequested()) return Status::Aborted("interrupted");

  RuleInput& in = out.in;
  in.engine = &run.model;
  in.workload = w;
  in.traits = out.traits;
  in.shape = out.shape;
  in.budget_bytes = req.memory_budget_bytes;
  in.facts = out.facts;
  out.space = ApplyRules(in);
  out.baseline = BaselineConfig(in, &out.baseline_definition);
  out.candidates = EnumerateCandidates(in, out.baseline, &out.space);
  out.rules = out.space.records;
  // The budget is a hard limit: when not even the baseline (the smallest
  // buffers the rules allow and the index blocks the data needs) leaves
  // room for a block cache, nothing the tuner could emit would fit.
  if (auto split = SplitBudget(run.model, req.memory_budget_bytes, out.shape,
                               out.baseline, std::nullopt);
      !split.ok()) {
    return Status::InvalidArgument(
        "--memory-budget " +
        FormatBytes(static_cast<double>(req.memory_budget_bytes)) +
        " is too small for this workload: " + split.status().message());
  }

  // The largest trial must fit the scratch filesystem (twice: compactions
  // write new tables before deleting old ones).
  uint64_t full_db = EstimateDbBytes(out.shape, run.model.defaults);
  DT_RETURN_IF_ERROR(run.scratch.RequireFreeSpace(
      2 * full_db + 64 * kMiB,
      "the trial databases (--data-size " +
          FormatBytes(static_cast<double>(out.shape.user_bytes())) + ")"));

  out.s_min = EffectiveScale(w, 0);
  out.s_rank =
      EffectiveScale(w, std::max(out.s_min, static_cast<double>(kMinRankNum) /
                                                static_cast<double>(w.num)));
  {
    // The trials on this workload, for the predictor's calibration run;
    // the later phases' are RunTuner's, on the workload this returns.
    const Trials trials = run.TrialsOn(w, out.shape);
    RankByModel(run, trials, &out);
  }
  if (InterruptRequested()) return Status::Aborted("interrupted");
  return out;
}

}  // namespace disktune::tune::phases
