#include "src/tune/tuner.h"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "generated/version.h"
#include "probes/probe.h"
#include "probes/probe_runner.h"
#include "src/bench/process_stats.h"
#include "src/core/clock.h"
#include "src/core/signals.h"
#include "src/core/sysinfo.h"
#include "src/core/units.h"

namespace disktune::tune {
namespace {

using json = nlohmann::json;

// The smallest trial worth ranking candidates on: below it the fixed cost
// of opening and destroying a database swamps what the knobs change.
constexpr uint64_t kMinRankNum = 20000;

std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
  return buf;
}

std::string GainText(const Gain& g) {
  return Fixed(g.median, 2) + "x [" + Fixed(g.ci95_low, 2) + "x, " +
         Fixed(g.ci95_high, 2) + "x]";
}

std::string Thousands(uint64_t v) {
  std::string digits = std::to_string(v);
  std::string out;
  for (size_t i = 0; i < digits.size(); i++) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

uint64_t FdLimit() {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) {
    return 1 << 20;
  }
  return static_cast<uint64_t>(rl.rlim_cur);
}

// Of the time left, the share a plan may commit: trial costs are estimates
// (the cost model is fitted to a few runs), and the rest absorbs their error
// so the tune ends inside its budget.
constexpr double kUsableTimeShare = 0.95;
// Of the spare time after the A/B's minimum, the share that buys extra
// knob-check rounds; the rest is left for more A/B pairs.
constexpr double kExtraKnobRoundsShare = 0.55;
// The first calibration run's cost split into fixed (open, load) and
// per-scale parts until a second run at another scale separates them.
constexpr double kCalibrationFixedShare = 0.2;

// How the plan shares the time after calibration between the A/B, the knob
// check and the search (which gets the rest).
struct PlanShares {
  double ab;               // of the time left, for the A/B's 3 pairs
  double knob;             // for the knob check's 3 rounds
  double ab_refit;         // for the A/B when re-fitted after the search
  bool extra_knob_rounds;  // spare time buys knob-check rounds
  bool ab_fills_time;      // the A/B takes the largest scale 3 pairs afford
                           // and adds pairs while time remains
};
constexpr PlanShares kPlan = {0.4, 0.25, 0.6, true, false};
// When the A/B alone judges a write buffer taken from the rule (3c): a
// buffer shows more of its effect the deeper the copy (16 MiB vs 4 MiB on
// the 4M-key write-heavy workload: 1.04x, 1.06x and 1.12x in A/Bs at half
// its size, not significant twice; 1.40x in the full-size grid's means), so
// the A/B gets most of the time, at the largest scale it affords.
constexpr PlanShares kPlanBufferOnRule = {0.7, 0.1, 0.85, false, true};

// Everything a trial needs, shared by calibration, search and verification.
class Trials {
 public:
  Trials(const TuneRequest& req, const Workload& w, const DataShape& shape,
         const ScratchDir& scratch, const TuneBudget& budget,
         ProgressSink* progress)
      : req_(req),
        w_(w),
        shape_(shape),
        budget_(budget),
        model_(ModelFor(req.engine)),
        root_(scratch.Join("tune")),
        progress_(progress) {}

  // The full-size config as the trial at `scale` runs it. Only the block
  // cache shrinks with the data, so it holds the same share of it (the hit
  // ratio is what a cache changes). Write buffers and table files keep
  // their real sizes: LevelDB's level sizes (10 MB, 100 MB, ...) and the
  // memtable's cost per insert are absolute, and a write buffer scaled
  // down with the data was measured to rank buffers in the opposite order
  // to the full workload. Open files follow the (fewer) tables.
  TuneConfig Scaled(const TuneConfig& full, double scale) const {
    const EngineModel& m = model_;
    TuneConfig t = full;
    double cache = std::round(static_cast<double>(full.cache_bytes) * scale);
    t.cache_bytes = std::max(kMinCacheBytes, static_cast<uint64_t>(cache));
    if (full.max_open_files) {
      double ratio =
          static_cast<double>(EstimateTableCount(ShapeAt(scale), t)) /
          static_cast<double>(EstimateTableCount(shape_, full));
      int mof = static_cast<int>(std::ceil(*full.max_open_files * ratio));
      t.max_open_files = std::clamp(mof, m.min_open_files, m.max_open_files);
    }
    return t;
  }

  // Trial tables at `scale` (for the open-files rule's reproducibility).
  uint64_t TablesAt(const TuneConfig& full, double scale) const {
    return EstimateTableCount(ShapeAt(scale), Scaled(full, scale));
  }

  // Levels below level 0 the trial's tables fill at `scale` (1 = full size).
  int DepthAt(const TuneConfig& full, double scale) const {
    return LsmDepth(model_, EstimateDbBytes(ShapeAt(scale), full));
  }

  Result<TrialScore> Run(const TuneConfig& full, double scale,
                         const std::string& label) {
    if (InterruptRequested()) return Status::Aborted("interrupted");
    TuneConfig t = Scaled(full, scale);
    bench::BenchRequest br;
    br.engines = {req_.engine};
    br.scenarios = w_.scenarios;
    br.user = WorkloadOverrides(w_, scale);
    br.user.knobs = ToEngineOptions(t);
    br.user.sync = t.sync;
    br.user.entries_per_batch = static_cast<int64_t>(t.entries_per_batch);
    br.db_root = root_;
    br.available = req_.available;
    br.factory = req_.factory;
    if (progress_ != nullptr) {
      progress_->Step(label, trials_, 0, 0);
    }
    uint64_t t0 = NowNanos();
    uint64_t b0 = budget_.ReadBytes();
    auto results = bench::RunBench(br);
    uint64_t elapsed = NowNanos() - t0;
    trials_++;
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);  // cancels unwritten pages first
    uint64_t b1 = budget_.ReadBytes();
    uint64_t cost =
        static_cast<uint64_t>(budget_.CostNs(elapsed, b1 > b0 ? b1 - b0 : 0));
    if (InterruptRequested()) return Status::Aborted("interrupted");
    if (!results.ok()) return results.status();
    double ops = 0, ns = 0;
    for (const bench::BenchResult& r : *results) {
      if (r.status != bench::RunStatus::kOk) {
        return Status::IOError(r.scenario + ": " + r.error);
      }
      bool scored = w_.measured.empty() ||
                    std::find(w_.measured.begin(), w_.measured.end(),
                              r.scenario) != w_.measured.end();
      if (!scored) continue;
      ops += static_cast<double>(r.metrics.ops);
      ns += static_cast<double>(r.metrics.elapsed_ns);
    }
    if (ops <= 0 || ns <= 0) {
      return Status::IOError("no scored operations ran");
    }
    TrialScore s;
    s.ops_per_sec = ops / (ns / 1e9);
    s.elapsed_ns = elapsed;
    s.cost_ns = std::max<uint64_t>(1, cost);
    return s;
  }

  int trials() const { return trials_; }

 private:
  DataShape ShapeAt(double scale) const {
    DataShape small = shape_;
    small.live_entries = std::max<uint64_t>(
        1, static_cast<uint64_t>(static_cast<double>(shape_.live_entries) *
                                 scale));
    return small;
  }

  const TuneRequest& req_;
  const Workload& w_;
  const DataShape& shape_;
  const TuneBudget& budget_;
  const EngineModel& model_;
  std::string root_;
  ProgressSink* progress_;
  int trials_ = 0;
};

// A quick probe of only what the rules read: 4 KiB random reads at queue
// depth 1, sequential writes, and 4 KiB appending fdatasync.
Status ProbeDevice(const ScratchDir& scratch, ProgressSink* progress,
                   TuneResult* out) {
  ProbeConfig config = ProbeConfig::Defaults(true);
  config.queue_depths = {1};
  config.fsync_methods = {"fdatasync"};
  config.fsync_sizes = {4096};
  config.fsync_modes = {"append"};
  config.buffered = true;  // measure something even where O_DIRECT is refused
  auto probes = SelectProbes({"rand_read", "seq_write", "fsync"});
  if (!probes.ok()) return probes.status();
  Environment env = CollectEnvironment(scratch.path());
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
  br.db_root = scratch.Join("tune-cpu");
  br.available = req.available;
  br.factory = req.factory;
  auto r = bench::RunBench(br);
  std::error_code ec;
  std::filesystem::remove_all(br.db_root, ec);
  if (!r.ok() || r->empty() || r->front().status != bench::RunStatus::kOk ||
      !r->front().metrics.bytes_per_sec) {
    return std::nullopt;
  }
  return r->front().metrics.bytes_per_sec;
}

const RuleRecord* FindRecord(const std::vector<RuleRecord>& rules,
                             const std::string& knob) {
  for (const RuleRecord& r : rules) {
    if (r.knob == knob) return &r;
  }
  return nullptr;
}

// The engine options a profile states for a config: the budget's cache and
// every knob that differs from the engine's default.
EngineOptions ProfileOptions(const TuneConfig& c, const EngineModel& m) {
  const EngineOptions full = ToEngineOptions(c);
  EngineOptions o;
  o.cache_bytes = c.cache_bytes;
  for (Knob k : AllKnobs()) {
    if (k.spec != nullptr && KnobDiffers(c, m.defaults, k)) {
      k.spec->set(&o, k.spec->get(full));
    }
  }
  o.sync = c.sync;
  return o;
}

}  // namespace

Status ValidateTuneRequest(const TuneRequest& r) {
  if (!IsTunableEngine(r.engine)) {
    return Status::InvalidArgument("--engine '" + r.engine +
                                   "': the tuner supports " +
                                   TunableEngineList());
  }
  bool built =
      std::any_of(r.available.begin(), r.available.end(),
                  [&](const EngineInfo& e) { return e.id == r.engine; });
  if (!built) {
    return Status::InvalidArgument("--engine '" + r.engine +
                                   "' is not built into this disktune");
  }
  if (r.memory_budget_bytes < kMinMemoryBudgetBytes) {
    return Status::InvalidArgument(
        "--memory-budget " +
        FormatBytes(static_cast<double>(r.memory_budget_bytes)) +
        " is below the minimum of 1 MiB");
  }
  uint64_t machine = r.machine_memory_bytes > 0 ? r.machine_memory_bytes
                                                : ReadSystemInfo().memory_bytes;
  if (machine > 0 && r.memory_budget_bytes > machine) {
    return Status::InvalidArgument(
        "--memory-budget " +
        FormatBytes(static_cast<double>(r.memory_budget_bytes)) +
        " is more than this machine's memory (" +
        FormatBytes(static_cast<double>(machine)) + ")");
  }
  if (r.time_budget_ns < kMinTimeBudgetNs) {
    return Status::InvalidArgument(
        "--time-budget " +
        FormatDuration(static_cast<double>(r.time_budget_ns)) +
        " is too short to verify anything; the minimum is " +
        std::to_string(kMinTimeBudgetNs / kSecondNs) + "s");
  }
  if (r.write_budget_bytes > 0 && r.write_budget_bytes < kMinWriteBudgetBytes) {
    return Status::InvalidArgument(
        "--write-budget " +
        FormatBytes(static_cast<double>(r.write_budget_bytes)) +
        " is too small for any trial plan; the minimum is " +
        FormatBytes(static_cast<double>(kMinWriteBudgetBytes)));
  }
  DT_RETURN_IF_ERROR(ValidateWorkload(r.workload));
  if (r.data_size_bytes && *r.data_size_bytes < 64 * kKiB) {
    return Status::InvalidArgument("--data-size must be at least 64KiB");
  }
  return Status::OK();
}

Result<TuneResult> RunTuner(const TuneRequest& req, const ScratchDir& scratch,
                            ProgressSink* progress) {
  NullProgress null_progress;
  if (progress == nullptr) progress = &null_progress;
  DT_RETURN_IF_ERROR(ValidateTuneRequest(req));
  const uint64_t start = NowNanos();
  // The process's write count (0 where /proc/self/io is unreadable, which a
  // write budget refuses).
  const bool bytes_readable = bench::ProcessWriteBytes().has_value();
  if (req.write_budget_bytes > 0 && !bytes_readable) {
    return Status::NotSupported(
        "--write-budget needs the kernel's per-process write count "
        "(/proc/self/io), which is unreadable here; run without it");
  }
  const TuneBudget budget(
      req.time_budget_ns, req.write_budget_bytes, NowNanos,
      [] { return bench::ProcessWriteBytes().value_or(0); });
  auto remaining = [&]() -> double { return budget.RemainingNs(); };

  TuneResult res;
  res.engine = req.engine;
  res.memory_budget_bytes = req.memory_budget_bytes;
  res.time_budget_ns = req.time_budget_ns;
  res.write_budget_bytes = req.write_budget_bytes;
  res.quick = req.quick;
  res.workload = req.workload;
  Workload& w = res.workload;
  if (req.data_size_bytes) {
    DT_RETURN_IF_ERROR(ApplyDataSize(*req.data_size_bytes, req.engine, &w));
  }
  auto shape = ShapeOf(w, req.engine);
  if (!shape.ok()) return shape.status();
  res.shape = *shape;
  res.traits = TraitsOf(w);
  const EngineModel& model = ModelFor(req.engine);

  // 1. Facts.
  if (req.facts) {
    res.facts = *req.facts;
  } else {
    progress->Info("tune: probing the device under " + scratch.path());
    DT_RETURN_IF_ERROR(ProbeDevice(scratch, progress, &res));
  }
  SystemInfo sys = ReadSystemInfo();
  res.facts.memory_bytes = sys.memory_bytes;
  res.facts.cpu_count = std::max(1, sys.cpu_count);
  res.facts.fd_limit = FdLimit();
  res.facts.snappy_bytes_per_sec = MeasureSnappy(req, w, scratch);
  if (InterruptRequested()) return Status::Aborted("interrupted");

  // 2. Rules.
  RuleInput in;
  in.engine = &model;
  in.workload = w;
  in.traits = res.traits;
  in.shape = res.shape;
  in.budget_bytes = req.memory_budget_bytes;
  in.facts = res.facts;
  CandidateSpace space = ApplyRules(in);
  res.baseline = BaselineConfig(in, &res.baseline_definition);
  res.candidates = EnumerateCandidates(in, res.baseline, &space);
  res.rules = space.records;

  // The largest trial must fit the scratch filesystem (twice: compactions
  // write new tables before deleting old ones).
  uint64_t full_db = EstimateDbBytes(res.shape, model.defaults);
  DT_RETURN_IF_ERROR(scratch.RequireFreeSpace(
      2 * full_db + 64 * kMiB,
      "the trial databases (--data-size " +
          FormatBytes(static_cast<double>(res.shape.user_bytes())) + ")"));

  Trials trials(req, w, res.shape, scratch, budget, progress);
  const double s_min = EffectiveScale(w, 0);
  const double s_rank =
      EffectiveScale(w, std::max(s_min, static_cast<double>(kMinRankNum) /
                                            static_cast<double>(w.num)));

  // 3a. Calibration: the baseline at two small scales gives the cost of a
  // trial as fixed + per-scale time.
  progress->Info("tune: " + std::to_string(res.candidates.size()) +
                 " candidates after the rules; calibrating trial cost");
  auto c1 = trials.Run(res.baseline, s_rank, "calibrate");
  if (!c1.ok()) return c1.status().WithContext("baseline trial");
  CostModel cost(
      kCalibrationFixedShare * static_cast<double>(c1->Cost()),
      (1 - kCalibrationFixedShare) * static_cast<double>(c1->Cost()) / s_rank);
  cost.Observe(s_rank, c1->Cost());
  double s_cal2 = EffectiveScale(w, std::min(1.0, 4 * s_rank));
  if (s_cal2 > s_rank && remaining() > 10 * cost.Estimate(s_cal2)) {
    auto c2 = trials.Run(res.baseline, s_cal2, "calibrate");
    if (!c2.ok()) return c2.status().WithContext("baseline trial");
    cost.Observe(s_cal2, c2->Cost());
  }
  progress->Info("tune: a trial costs ~" + FormatDuration(cost.fixed_ns()) +
                 " + " + FormatDuration(cost.per_scale_ns()) +
                 " x scale (scale 1 = the full workload)");

  // 3b. Plan, verification first: the A/B (3 pairs at least) at the
  // largest scale 40% of the time affords, the knob check (3 rounds) at the
  // largest scale another 25% affords (no larger than the A/B's), and the
  // search gets the rest, its last rung no larger than the A/B's (a ranking
  // made only on small copies can miss what the full size rewards: on
  // fillrandom + overwrite, 8 MiB write buffers led the full-size grid at
  // 4M keys, while at 1M keys 4 MiB led it and an A/B at 294k keys found
  // 8 MiB 0.84x of 4 MiB).
  auto fit_scale = [&](double runs, double budget_ns) {
    double lo = s_min, hi = 1.0;
    if (runs * cost.Estimate(hi) <= budget_ns) return hi;
    for (int i = 0; i < 40; i++) {
      double mid = (lo + hi) / 2;
      (runs * cost.Estimate(mid) <= budget_ns ? lo : hi) = mid;
    }
    return lo;
  };
  const double ab_runs = 2.0 * kMinRepeats;
  double left = remaining();
  double s_v = EffectiveScale(w, fit_scale(ab_runs, kPlan.ab * left));

  // 3c. Write buffers the search cannot rank. A larger buffer pays off as
  // level 0 absorbing flushes while the deeper levels compact; a trial
  // whose LSM is a level shallower than the full size's lacks those
  // compactions. Measured (benchmarks/README.md, Tuner quality):
  // fillrandom + overwrite of 4M keys fills 3 levels, and its full-size
  // grid ran 1.40x faster with 16 MiB buffers than with the default 4 MiB
  // (mean of 8 points each), while every ranking at <= 1.6M keys (2 levels,
  // or barely 3) put 4 MiB first.
  // Then the search (no larger than s_v, whose depth is checked here) ranks
  // the other knobs at the rule's first buffer size, and the A/B, given the
  // larger share of kPlanBufferOnRule, judges it.
  const double s_search = s_v;
  const int full_depth = trials.DepthAt(res.baseline, 1.0);
  const int search_depth = trials.DepthAt(res.baseline, s_search);
  const uint64_t rule_buffer = space.write_buffer_bytes.empty()
                                   ? res.baseline.write_buffer_bytes
                                   : space.write_buffer_bytes.front();
  const bool buffer_on_rule = res.traits.write_share >= 0.5 &&
                              space.write_buffer_bytes.size() > 1 &&
                              search_depth < full_depth;
  const PlanShares& plan = buffer_on_rule ? kPlanBufferOnRule : kPlan;
  if (buffer_on_rule) {
    std::vector<TuneConfig> kept = {res.candidates.front()};
    for (size_t i = 1; i < res.candidates.size(); i++) {
      if (res.candidates[i].write_buffer_bytes == rule_buffer) {
        kept.push_back(res.candidates[i]);
      }
    }
    res.notes.push_back(
        "write buffer " + FormatBytes(static_cast<double>(rule_buffer)) +
        " taken from the rule, not ranked: trials up to scale " +
        Fixed(s_search, 3) + " fill " + std::to_string(search_depth) +
        " LSM level(s), the full size " + std::to_string(full_depth) +
        ", and a buffer's effect on writes shows in the deepest "
        "compactions; the search ranked " +
        std::to_string(kept.size()) + " of " +
        std::to_string(res.candidates.size()) + " candidates");
    res.candidates = std::move(kept);
    s_v = EffectiveScale(w, fit_scale(ab_runs, plan.ab * left));
  }

  // Knobs that may change, and of them those the knob check would judge.
  size_t varying = 0, varying_judged = 0;
  for (Knob k : AllKnobs()) {
    bool any = std::any_of(
        res.candidates.begin(), res.candidates.end(),
        [&](const TuneConfig& c) { return KnobDiffers(c, res.baseline, k); });
    varying += any ? 1 : 0;
    varying_judged +=
        any && !(buffer_on_rule && k.name() == "write_buffer_bytes") ? 1 : 0;
  }
  // Runs of a knob check (the winner, and it without each judged knob,
  // kMinRepeats times); none with fewer than two changed knobs, where the
  // A/B is each knob's test.
  auto knob_runs = [](size_t changed_knobs, size_t judged_knobs) {
    return changed_knobs >= 2 && judged_knobs >= 1
               ? static_cast<double>((1 + judged_knobs) * kMinRepeats)
               : 0.0;
  };
  const double plan_knob_runs = knob_runs(varying, varying_judged);
  double s_k =
      plan_knob_runs > 0
          ? EffectiveScale(
                w, std::min(s_v, fit_scale(plan_knob_runs, plan.knob * left)))
          : s_v;
  double verify_cost =
      ab_runs * cost.Estimate(s_v) + plan_knob_runs * cost.Estimate(s_k);

  SearchBudget sb;
  sb.budget_ns = static_cast<uint64_t>(
      std::max(0.0, kUsableTimeShare * left - verify_cost));
  sb.max_scale = s_search;
  sb.min_scale = std::min(s_rank, s_k);
  int trial_no = 0;
  TrialFn trial_fn = [&](const TuneConfig& c, double scale) {
    trial_no++;
    return trials.Run(
        c, EffectiveScale(w, scale),
        "search trial " + std::to_string(trial_no) + ": " + ConfigText(c));
  };
  progress->Info("tune: successive halving over " +
                 std::to_string(res.candidates.size()) + " candidates, " +
                 FormatDuration(static_cast<double>(sb.budget_ns)) +
                 " for the search, trials up to scale " + Fixed(s_k, 3) +
                 "; A/B at scale " + Fixed(s_v, 3));
  // The search's clock is the budget's: it advances with writes too.
  auto search = SuccessiveHalving(res.candidates, sb, &cost, trial_fn,
                                  [&] { return budget.ClockNs(); });
  if (!search.ok()) return search.status();
  res.search = *search;
  res.winner = res.candidates[res.search.winner];
  auto same_knobs = [](const TuneConfig& a, const TuneConfig& b) {
    return std::none_of(AllKnobs().begin(), AllKnobs().end(),
                        [&](Knob k) { return KnobDiffers(a, b, k); });
  };
  if (same_knobs(res.winner, res.baseline)) {
    // The defaults ranked first. Verify the best alternative against them
    // rather than stop: "nothing beats the defaults" then rests on an A/B.
    for (auto rung = res.search.rungs.rbegin(); rung != res.search.rungs.rend();
         ++rung) {
      double best = 0;
      std::optional<size_t> pick;
      for (size_t i = 0; i < rung->candidates.size(); i++) {
        const TuneConfig& c = res.candidates[rung->candidates[i]];
        if (rung->ops_per_sec[i] > best && !same_knobs(c, res.baseline)) {
          best = rung->ops_per_sec[i];
          pick = rung->candidates[i];
        }
      }
      if (pick) {
        res.winner = res.candidates[*pick];
        res.notes.push_back(
            "the defaults ranked first in the search; the best alternative (" +
            ConfigText(res.winner) + ") was verified against them");
        break;
      }
    }
  }
  progress->Info("tune: search winner after " +
                 std::to_string(res.search.trials) +
                 " trials: " + ConfigText(res.winner));
  for (const std::string& n : res.search.notes) res.notes.push_back(n);

  // 4. Knob check at the verification scale.
  std::vector<Knob> changed;
  for (Knob k : AllKnobs()) {
    if (KnobDiffers(res.winner, res.baseline, k)) changed.push_back(k);
  }
  // What the knob check judges: every changed knob but a write buffer
  // taken from the rule (its trials are no deeper than the search's).
  std::vector<size_t> judged;
  for (size_t i = 0; i < changed.size(); i++) {
    if (!(buffer_on_rule && changed[i].name() == "write_buffer_bytes")) {
      judged.push_back(i);
    }
  }
  const double check_runs = knob_runs(changed.size(), judged.size());
  const bool check = check_runs > 0;
  // Re-fit the scales to what is actually left, then spend the rest on
  // repeats: ~55% of the knob check's share on more rounds (each knob must
  // win on its own; none when the A/B judges a buffer on the rule), the
  // A/B gets what remains.
  double left_now = remaining();
  s_v = EffectiveScale(
      w, std::min(s_v, fit_scale(ab_runs, plan.ab_refit * left_now)));
  s_k = EffectiveScale(
      w, std::min(s_v, check ? fit_scale(check_runs,
                                         kUsableTimeShare * left_now -
                                             ab_runs * cost.Estimate(s_v))
                             : s_v));
  int knob_rounds = kMinRepeats;
  if (check && plan.extra_knob_rounds) {
    double spare = kUsableTimeShare * left_now - ab_runs * cost.Estimate(s_v);
    double share =
        kExtraKnobRoundsShare * spare /
        (cost.Estimate(s_k) * static_cast<double>(1 + judged.size()));
    knob_rounds =
        std::clamp(static_cast<int>(share), kMinRepeats, kMaxKnobCheckRounds);
  }
  auto revert = [&](TuneConfig c, Knob k) {
    CopyKnob(res.baseline, k, &c);
    return WithBudgetCache(in, space, c);
  };
  std::vector<bool> keep(changed.size(), true);
  std::vector<std::optional<Gain>> knob_gain(changed.size());
  if (check) {
    std::vector<TuneConfig> configs = {res.winner};
    for (size_t i : judged) configs.push_back(revert(res.winner, changed[i]));
    std::vector<std::vector<double>> scores(configs.size());
    for (int round = 0; round < knob_rounds; round++) {
      // Past the minimum, a round starts only if it ends before the
      // deadline (a rule on time, not on results, so it cannot bias them).
      if (round >= kMinRepeats &&
          cost.Estimate(s_k) * static_cast<double>(configs.size()) >
              remaining() - ab_runs * cost.Estimate(s_v)) {
        break;
      }
      for (size_t i : RoundOrder(configs.size(), static_cast<size_t>(round))) {
        std::string label = "knob check " + std::to_string(round + 1) + "/" +
                            std::to_string(knob_rounds) + ": " +
                            (i == 0 ? std::string("winner")
                                    : std::string("without ") +
                                          KnobName(changed[judged[i - 1]]));
        auto s = trials.Run(configs[i], s_k, label);
        if (!s.ok()) return s.status().WithContext("knob check");
        cost.Observe(s_k, s->Cost());
        scores[i].push_back(s->ops_per_sec);
      }
    }
    std::vector<Gain> gains = BlockedGains(scores);
    for (size_t j = 0; j < judged.size(); j++) {
      knob_gain[judged[j]] = gains[j];
      keep[judged[j]] = gains[j].significant();
    }
  }
  // Capacity rules whose condition the scaled trial cannot reproduce (its
  // few tables all fit in the default open files) are kept on the rule, and
  // so is a write buffer the trials were too shallow to judge.
  std::vector<bool> by_rule(changed.size(), false);
  for (size_t i = 0; i < changed.size(); i++) {
    Knob k = changed[i];
    if (buffer_on_rule && k.name() == "write_buffer_bytes") {
      by_rule[i] = true;
      continue;
    }
    if (keep[i] ||
        (k.name() != "max_open_files" && k.name() != "max_file_bytes")) {
      continue;
    }
    TuneConfig b = trials.Scaled(res.baseline, s_k);
    uint64_t tables = trials.TablesAt(res.baseline, s_k);
    bool reproducible =
        b.max_open_files && tables > static_cast<uint64_t>(*b.max_open_files);
    if (!reproducible) {
      keep[i] = true;
      by_rule[i] = true;
    }
  }
  TuneConfig candidate = res.baseline;
  for (size_t i = 0; i < changed.size(); i++) {
    if (keep[i]) CopyKnob(res.winner, changed[i], &candidate);
  }
  candidate = WithBudgetCache(in, space, candidate);
  bool joint = false;
  if (candidate == WithBudgetCache(in, space, res.baseline) &&
      !changed.empty()) {
    // No knob won alone: test whether they win together.
    candidate = res.winner;
    joint = true;
  }
  // The baseline keeps its own cache rule (the budget less the defaults).
  bool nothing = changed.empty();
  // Re-fit the A/B's scale to what is left, with what the trials so far
  // taught the cost model: time the search and the knob check did not use
  // goes into a larger A/B (kPreferredAbRepeats pairs at the largest scale
  // that affords them), since a small copy may not show what the full
  // size does; when time ran short it shrinks to kMinRepeats pairs.
  s_v = EffectiveScale(
      w,
      std::max(
          fit_scale(2.0 * kPreferredAbRepeats, kUsableTimeShare * remaining()),
          std::min(s_v, fit_scale(ab_runs, kUsableTimeShare * remaining()))));
  if (plan.ab_fills_time) {
    s_v = EffectiveScale(w, fit_scale(ab_runs, kUsableTimeShare * remaining()));
  }

  // 5. A/B.
  Verification v;
  if (!nothing) {
    // The number of repeats is fixed before the first run (from the time
    // left, not from the results), so stopping cannot favour a verdict;
    // with ab_fills_time rounds go on while the next one fits in the time
    // left (a rule on the clock, not on the results, too).
    int repeats = std::clamp(static_cast<int>(kUsableTimeShare * remaining() /
                                              (2 * cost.Estimate(s_v))),
                             kMinRepeats, kMaxAbRepeats);
    if (plan.ab_fills_time) repeats = kMaxAbRepeats;
    v.compared =
        joint ? "search winner (no knob won on its own)" : "recommendation";
    progress->Info("tune: A/B against the baseline at scale " + Fixed(s_v, 3) +
                   ", " + (plan.ab_fills_time ? "up to " : "") +
                   std::to_string(repeats) + " interleaved repeats each");
    v.scale = s_v;
    v.num = static_cast<uint64_t>(*WorkloadOverrides(w, s_v).num);
    v.trial_cache_bytes = trials.Scaled(candidate, s_v).cache_bytes;
    const TuneConfig* pair[2] = {&res.baseline, &candidate};
    for (int round = 0; round < repeats; round++) {
      if (round >= kMinRepeats && 2 * cost.Estimate(s_v) > remaining()) break;
      for (size_t i : RoundOrder(2, static_cast<size_t>(round))) {
        std::string label = "A/B " + std::to_string(round + 1) + "/" +
                            std::to_string(repeats) + ": " +
                            (i == 0 ? "baseline" : "recommendation");
        auto s = trials.Run(*pair[i], s_v, label);
        if (!s.ok()) return s.status().WithContext("verification");
        cost.Observe(s_v, s->Cost());
        (i == 0 ? v.baseline_ops_per_sec : v.candidate_ops_per_sec)
            .push_back(s->ops_per_sec);
      }
    }
    v.gain = PairedGain(v.candidate_ops_per_sec, v.baseline_ops_per_sec);
    res.significant = v.gain.significant();
  }

  // The outcome per knob.
  res.recommendation = res.significant ? candidate : res.baseline;
  for (Knob k : AllKnobs()) {
    KnobEvidence e;
    e.knob = k;
    const RuleRecord* rec = FindRecord(res.rules, KnobName(k));
    std::string rule = rec ? rec->decision : "";
    auto it = std::find(changed.begin(), changed.end(), k);
    if (it == changed.end()) {
      e.status = "default";
      bool tried = rec != nullptr && rec->candidates.size() > 1;
      e.reason = tried ? "the search kept the default; rule: " + rule : rule;
    } else {
      size_t i = static_cast<size_t>(it - changed.begin());
      e.gain = changed.size() == 1 ? std::optional<Gain>(v.gain) : knob_gain[i];
      if (!res.significant) {
        e.status = "no_gain";
        e.reason =
            "the A/B showed no significant gain over the defaults, "
            "so the default stays";
      } else if (by_rule[i]) {
        e.status = "rule";
        e.reason =
            k.name() == "write_buffer_bytes"
                ? "taken from the rule and judged by the A/B: the search's "
                  "trials fill fewer LSM levels than the full size (" +
                      std::to_string(full_depth) +
                      "), where a buffer's effect shows; " + rule
                : "kept on the rule: the scaled trial has too few tables to "
                  "show the effect; " +
                      rule;
      } else if (joint) {
        e.status = "won_jointly";
        e.reason =
            "no measurable effect alone; won together with the other "
            "changed knobs in the A/B; " +
            rule;
      } else if (keep[i]) {
        e.status = "won";
        e.reason = rule;
      } else {
        e.status = "no_gain";
        e.reason =
            "reverting it did not measurably cost throughput, so the "
            "default stays";
      }
    }
    res.knobs.push_back(e);
  }
  res.workload.entries_per_batch = res.recommendation.entries_per_batch;
  if (auto split = SplitBudget(model, req.memory_budget_bytes, res.shape,
                               res.recommendation, std::nullopt);
      split.ok()) {
    res.memory = *split;
    res.memory.cache_bytes = res.recommendation.cache_bytes;
  }

  // Verdict and the lines for the terminal.
  if (nothing) {
    res.verdict =
        "the engine's defaults won the search: nothing measured "
        "beat them, so nothing changes";
  } else if (res.significant) {
    res.verdict = GainText(v.gain) +
                  " the baseline's throughput (median, "
                  "95% interval), " +
                  std::to_string(v.gain.repeats) + " interleaved repeats each";
  } else {
    res.verdict = "no significant gain over the defaults (" + GainText(v.gain) +
                  (v.gain.ci95_high < 1.0 ? ": the candidate was slower"
                                          : "; the interval reaches 1") +
                  "): keep the defaults";
  }
  if (w.target_writes_per_sec && !v.candidate_ops_per_sec.empty()) {
    std::vector<double> xs =
        res.significant ? v.candidate_ops_per_sec : v.baseline_ops_per_sec;
    std::sort(xs.begin(), xs.end());
    v.target_met = xs[xs.size() / 2] >= *w.target_writes_per_sec;
    res.verdict += *v.target_met ? "; the target write rate is met"
                                 : "; the target write rate is NOT met";
  }
  if (!nothing) res.verification = v;

  auto& ex = res.explanation;
  ex.push_back(
      req.engine + " for " + w.name + ": " +
      FormatBytes(static_cast<double>(req.memory_budget_bytes)) + " budget, " +
      Thousands(w.num) + " keys (" +
      FormatBytes(static_cast<double>(res.shape.user_bytes())) + " of data)" +
      (res.verification ? ", verified on a " + Fixed(s_v, 3) + " scale copy"
                        : ""));
  for (const KnobEvidence& e : res.knobs) {
    char line[512];
    std::string value = KnobValueText(res.recommendation, e.knob);
    std::string def = KnobValueText(model.defaults, e.knob);
    std::string status = e.status;
    if (e.gain) status += " " + GainText(*e.gain);
    std::snprintf(line, sizeof(line), "  %-20s %-14s (default %s)  %s",
                  KnobName(e.knob), value.c_str(), def.c_str(), status.c_str());
    ex.push_back(line);
    if (!e.reason.empty()) ex.push_back("      " + e.reason);
  }
  ex.push_back(
      "  block cache          " +
      FormatBytes(static_cast<double>(res.recommendation.cache_bytes)) +
      " (what the budget leaves after " +
      FormatBytes(static_cast<double>(res.memory.write_buffers_bytes)) +
      " of write buffers and " +
      FormatBytes(static_cast<double>(res.memory.table_memory_bytes)) +
      " of index/filter blocks)");
  ex.push_back("Baseline: " + res.baseline_definition);
  ex.push_back("Verdict: " + res.verdict);
  if (bytes_readable) res.bytes_written = budget.BytesWritten();
  if (budget.WritesBind()) {
    res.notes.push_back(
        "the write budget (" +
        FormatBytes(static_cast<double>(req.write_budget_bytes)) +
        ") bound the plan before the time budget did: trials were sized by "
        "what they write");
  }
  res.elapsed_ns = NowNanos() - start;
  return res;
}

json TuneResultToJson(const TuneResult& r) {
  const EngineModel& m = ModelFor(r.engine);
  json j;
  j["tool_version"] = DISKTUNE_VERSION;
  j["created_at"] = UtcTimestamp();
  j["engine"] = r.engine;
  j["workload"] = r.workload.name;
  j["memory_budget_bytes"] = r.memory_budget_bytes;
  j["data_size_bytes"] = r.shape.user_bytes();
  j["time_budget_ns"] = r.time_budget_ns;
  j["elapsed_ns"] = r.elapsed_ns;
  if (r.write_budget_bytes > 0) j["write_budget_bytes"] = r.write_budget_bytes;
  if (r.bytes_written) j["bytes_written"] = *r.bytes_written;
  j["quick"] = r.quick;
  j["verdict"] = r.verdict;

  json rec;
  rec["engine_options"] =
      ProfileEngineOptionsToJson(ProfileOptions(r.recommendation, m));
  if (r.recommendation.entries_per_batch != 1) {
    rec["entries_per_batch"] = r.recommendation.entries_per_batch;
  }
  json changed = json::array();
  for (Knob k : AllKnobs()) {
    if (KnobDiffers(r.recommendation, r.baseline, k))
      changed.push_back(KnobName(k));
  }
  rec["changed"] = changed;
  rec["memory"] = {{"write_buffers_bytes", r.memory.write_buffers_bytes},
                   {"table_memory_bytes", r.memory.table_memory_bytes},
                   {"cache_bytes", r.memory.cache_bytes},
                   {"total_bytes", r.memory.total_bytes()}};
  rec["explanation"] = r.explanation;
  j["recommendation"] = rec;

  json ev;
  ev["baseline"] = {{"definition", r.baseline_definition},
                    {"engine_options", ProfileEngineOptionsToJson(
                                           ProfileOptions(r.baseline, m))}};
  if (r.baseline.entries_per_batch != 1) {
    ev["baseline"]["entries_per_batch"] = r.baseline.entries_per_batch;
  }
  ev["device_facts"] = FactsToJson(r.facts);
  const Workload& w = r.workload;
  json wl = {{"scenarios", w.scenarios},
             {"num", w.num},
             {"live_entries", r.shape.live_entries},
             {"key_bytes", r.shape.key_bytes},
             {"value_bytes", r.shape.value_bytes},
             {"user_data_bytes", r.shape.user_bytes()},
             {"write_share", r.traits.write_share},
             {"point_read_share", r.traits.point_read_share},
             {"scan_share", r.traits.scan_share},
             {"hot_fraction", r.traits.hot_fraction},
             {"cold_reads", r.traits.cold_reads},
             {"durable_writes", w.durable_writes}};
  if (!w.measured.empty()) wl["measured"] = w.measured;
  if (w.target_writes_per_sec) {
    wl["target_writes_per_sec"] = *w.target_writes_per_sec;
  }
  ev["workload"] = wl;
  json rules = json::array();
  for (const RuleRecord& rr : r.rules) rules.push_back(RuleRecordToJson(rr));
  ev["rules"] = rules;

  json search;
  search["method"] = "successive_halving";
  search["eta"] = 3;
  search["candidates"] = r.search.candidates;
  search["trials"] = r.search.trials;
  search["elapsed_ns"] = r.search.elapsed_ns;
  search["truncated"] = r.search.truncated;
  json rungs = json::array();
  for (const Rung& g : r.search.rungs) {
    size_t best = 0;
    for (size_t i = 1; i < g.candidates.size(); i++) {
      if (g.ops_per_sec[i] > g.ops_per_sec[best]) best = i;
    }
    json rj = {
        {"scale", std::round(g.scale * 1e4) / 1e4},
        {"num", static_cast<uint64_t>(*WorkloadOverrides(w, g.scale).num)},
        {"candidates", g.candidates.size()}};
    if (!g.candidates.empty()) {
      rj["best_ops_per_sec"] = std::round(g.ops_per_sec[best]);
      rj["best"] = ConfigText(r.candidates[g.candidates[best]]);
    }
    rungs.push_back(rj);
  }
  search["rungs"] = rungs;
  search["winner"] = ConfigText(r.winner);
  search["winner_engine_options"] =
      ProfileEngineOptionsToJson(ProfileOptions(r.winner, m));
  ev["search"] = search;

  json knobs = json::array();
  for (const KnobEvidence& e : r.knobs) {
    json kj = {{"knob", KnobName(e.knob)},
               {"default", KnobValueJson(m.defaults, e.knob)},
               {"searched", KnobValueJson(r.winner, e.knob)},
               {"recommended", KnobValueJson(r.recommendation, e.knob)},
               {"status", e.status}};
    if (!e.reason.empty()) kj["reason"] = e.reason;
    if (e.gain) kj["gain"] = GainToJson(*e.gain);
    knobs.push_back(kj);
  }
  ev["knobs"] = knobs;

  if (r.verification) {
    const Verification& v = *r.verification;
    json vj;
    vj["compared"] = v.compared;
    vj["scale"] = std::round(v.scale * 1e4) / 1e4;
    vj["num"] = v.num;
    vj["trial_cache_bytes"] = v.trial_cache_bytes;
    vj["order"] = "interleaved, alternating first (B A, A B, ...)";
    vj["repeats"] = v.gain.repeats;
    auto rounded = [](const std::vector<double>& xs) {
      json a = json::array();
      for (double x : xs) a.push_back(std::round(x));
      return a;
    };
    vj["baseline_ops_per_sec"] = rounded(v.baseline_ops_per_sec);
    vj["candidate_ops_per_sec"] = rounded(v.candidate_ops_per_sec);
    json g = GainToJson(v.gain);
    vj["median_gain"] = g["median"];
    vj["ci95_low"] = g["ci95_low"];
    vj["ci95_high"] = g["ci95_high"];
    vj["significant"] = v.gain.significant();
    if (w.target_writes_per_sec) {
      vj["target_writes_per_sec"] = *w.target_writes_per_sec;
    }
    if (v.target_met) vj["target_met"] = *v.target_met;
    ev["verification"] = vj;
  }
  ev["notes"] = r.notes;
  j["evidence"] = ev;
  return j;
}

Profile TuneResultToProfile(const TuneResult& r, const std::string& name) {
  Profile p;
  p.name = name;
  p.description = "disktune tune: " + r.engine + " for workload '" +
                  r.workload.name + "' at a " +
                  FormatBytes(static_cast<double>(r.memory_budget_bytes)) +
                  " memory budget";
  p.engine = r.engine;
  p.engine_options = ProfileOptions(r.recommendation, ModelFor(r.engine));
  p.workload = r.workload;
  p.tune = TuneResultToJson(r);
  return p;
}

std::string EngineFormsHeader(const TuneResult& r, const std::string& name) {
  return "disktune " + std::string(DISKTUNE_VERSION) + " tune: " + r.engine +
         " for workload '" + r.workload.name + "', " +
         FormatBytes(static_cast<double>(r.memory_budget_bytes)) +
         " memory budget (profile " + name + ")\n" + "Verdict: " + r.verdict;
}

}  // namespace disktune::tune
