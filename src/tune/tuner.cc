#include "src/tune/tuner.h"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "probes/probe.h"
#include "probes/probe_runner.h"
#include "src/bench/process_stats.h"
#include "src/core/clock.h"
#include "src/core/signals.h"
#include "src/core/sysinfo.h"
#include "src/core/units.h"
#include "src/tune/passengers.h"
#include "src/tune/plan.h"
#include "src/tune/trials.h"

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

std::string Join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

uint64_t FdLimit() {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) {
    return 1 << 20;
  }
  return static_cast<uint64_t>(rl.rlim_cur);
}

// The first calibration run's cost split into fixed (open, load) and
// per-scale parts until a second run at another scale separates them.
constexpr double kCalibrationFixedShare = 0.2;
// Each further calibration run (at 4x the last one's scale) only while it
// costs at most a tenth of the time left: past that it would eat the search.
constexpr double kCalibrationRunShare = 10;

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

const RuleRecord* FindRecord(const std::vector<RuleRecord>& rules,
                             const std::string& knob) {
  for (const RuleRecord& r : rules) {
    if (r.knob == knob) return &r;
  }
  return nullptr;
}

// Everything the phases share: the request, the result being built, the
// budget, the trials, and what each phase decides for the ones after it.
struct TuneState {
  TuneState(const TuneRequest& r, const ScratchDir& s, ProgressSink* p,
            TuneBudget::Counter now, TuneBudget::Counter bytes)
      : req(r),
        scratch(s),
        progress(p),
        now_ns(now),
        start_ns(now()),
        budget(r.time_budget_ns, r.write_budget_bytes, now, bytes),
        model(ModelFor(r.engine)) {}

  double Remaining() const { return budget.RemainingNs(); }
  PlanContext Plan() const { return {&res.workload, &*cost, s_min}; }

  const TuneRequest& req;
  const ScratchDir& scratch;
  ProgressSink* progress;
  TuneBudget::Counter now_ns;
  const uint64_t start_ns;
  const TuneBudget budget;
  const EngineModel& model;
  bool bytes_readable = false;
  TuneResult res;

  // Setup: the rules' input and space; the trials on res.workload.
  RuleInput in;
  CandidateSpace space;
  std::optional<Trials> trials;
  double s_min = 0;   // the smallest scale at all
  double s_rank = 0;  // the smallest scale worth ranking on
  // Calibrate.
  std::optional<CostModel> cost;
  // Search: the plan's shares and the A/B's scale as planned so far.
  const PlanShares* shares = &kPlan;
  bool shape_on_rule = false;  // knobs that shape the LSM taken from rules
  // The smallest scale at which such knobs are judged: the first at full
  // depth for writes, 1 for reads (0: no candidate changes one).
  double deep_scale = 0;
  int full_depth = 0;  // LSM levels at full size
  // The largest A/B copy the budget affords when the A/B judges such knobs
  // (0: not planned).
  double ab_cap = 0;
  double s_v = 0;
  // CheckKnobs: the knobs the winner changed, which survived, and why.
  std::vector<Knob> changed;
  std::vector<std::optional<Gain>> knob_gain;  // leave-one-out, per knob
  std::vector<KnobTrial> knob_trials;
  std::vector<KnobProof> proofs;
  TuneConfig candidate;
  bool nothing_kept = false;  // changed knobs, none with evidence of its own
  // Changed knobs put back before the A/B: no copy it affords shows them.
  std::vector<Knob> unfaithful;
  // Verify.
  Verification v;
  // Every candidate the rules proposed, with the model's prediction.
  std::vector<std::pair<TuneConfig, std::optional<double>>> predicted;
};

// One trial of `c` at `scale` for the interleaved rounds: its cost feeds the
// cost model and its throughput goes to `*scores`. `phase` names the phase in
// an error.
Status ScoreTrial(TuneState& st, const TuneConfig& c, double scale,
                  const std::string& label, const char* phase,
                  std::vector<double>* scores) {
  auto s = st.trials->Run(c, scale, label);
  if (!s.ok()) return s.status().WithContext(phase);
  st.cost->Observe(scale, s->Cost());
  scores->push_back(s->ops_per_sec);
  return Status::OK();
}

// The model's ranking (rank.h): candidates it predicts behind the best by
// more than its error are left out before any trial.
void RankByModel(TuneState& st) {
  TuneResult& res = st.res;
  std::unique_ptr<ThroughputModel> own;
  const ThroughputModel* model = st.req.model;
  if (model == nullptr) {
    own = InternalEstimate();
    model = own.get();
  }
  const Ranking rank = RankCandidates(*model, st.in, res.candidates);
  res.ranking_model = rank.model;
  double best = 0;
  for (const auto& p : rank.predicted) best = std::max(best, p.value_or(0));
  for (size_t i = 0; i < res.candidates.size(); i++) {
    st.predicted.push_back({res.candidates[i], rank.predicted[i]});
  }
  std::vector<TuneConfig> kept;
  for (size_t i : rank.kept) kept.push_back(res.candidates[i]);
  for (size_t i : rank.left_out) {
    PlanEntry e;
    e.candidate = ConfigText(res.candidates[i]);
    e.predicted_ops_per_sec = rank.predicted[i];
    e.reason = "the " + rank.model + " predicts " +
               Thousands(static_cast<uint64_t>(*rank.predicted[i])) +
               " ops/s against the best's " +
               Thousands(static_cast<uint64_t>(best)) +
               ", behind by more "
               "than its error (" +
               Fixed(100 * model->error_share(), 0) + "%)";
    res.left_out.push_back(std::move(e));
  }
  if (!rank.left_out.empty()) {
    res.notes.push_back(
        "the " + rank.model + " left out " +
        std::to_string(rank.left_out.size()) + " of " +
        std::to_string(res.candidates.size()) +
        " candidates it predicts far behind the best (see plan.left_out); "
        "trials go to the " +
        std::to_string(kept.size()) + " it cannot separate");
  }
  res.candidates = std::move(kept);
}

// The workload at full size, the device facts and the rules' candidates.
Status Setup(TuneState& st) {
  const TuneRequest& req = st.req;
  TuneResult& res = st.res;
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

  if (req.facts) {
    res.facts = *req.facts;
  } else {
    st.progress->Info("tune: probing the device under " + st.scratch.path());
    DT_RETURN_IF_ERROR(ProbeDevice(st.scratch, st.progress, &res));
  }
  SystemInfo sys = ReadSystemInfo();
  res.facts.memory_bytes = sys.memory_bytes;
  res.facts.cpu_count = std::max(1, sys.cpu_count);
  res.facts.fd_limit = FdLimit();
  // A fake trial function stands for the engine: no CPU figure either.
  if (!req.env.trial) {
    res.facts.snappy_bytes_per_sec = MeasureSnappy(req, w, st.scratch);
  }
  if (InterruptRequested()) return Status::Aborted("interrupted");

  RuleInput& in = st.in;
  in.engine = &st.model;
  in.workload = w;
  in.traits = res.traits;
  in.shape = res.shape;
  in.budget_bytes = req.memory_budget_bytes;
  in.facts = res.facts;
  st.space = ApplyRules(in);
  res.baseline = BaselineConfig(in, &res.baseline_definition);
  res.candidates = EnumerateCandidates(in, res.baseline, &st.space);
  res.rules = st.space.records;
  RankByModel(st);
  // The budget is a hard limit: when not even the baseline (the smallest
  // buffers the rules allow and the index blocks the data needs) leaves
  // room for a block cache, nothing the tuner could emit would fit.
  if (auto split = SplitBudget(st.model, req.memory_budget_bytes, res.shape,
                               res.baseline, std::nullopt);
      !split.ok()) {
    return Status::InvalidArgument(
        "--memory-budget " +
        FormatBytes(static_cast<double>(req.memory_budget_bytes)) +
        " is too small for this workload: " + split.status().message());
  }

  // The largest trial must fit the scratch filesystem (twice: compactions
  // write new tables before deleting old ones).
  uint64_t full_db = EstimateDbBytes(res.shape, st.model.defaults);
  DT_RETURN_IF_ERROR(st.scratch.RequireFreeSpace(
      2 * full_db + 64 * kMiB,
      "the trial databases (--data-size " +
          FormatBytes(static_cast<double>(res.shape.user_bytes())) + ")"));

  st.trials.emplace(req, w, res.shape, st.scratch, st.budget, st.progress);
  st.s_min = EffectiveScale(w, 0);
  st.s_rank =
      EffectiveScale(w, std::max(st.s_min, static_cast<double>(kMinRankNum) /
                                               static_cast<double>(w.num)));
  return Status::OK();
}

// The baseline at the smallest scale worth ranking on, then at 4x the
// scale while each run is cheap, gives the cost of a trial by scale.
Status Calibrate(TuneState& st) {
  const Workload& w = st.res.workload;
  st.progress->Info("tune: " + std::to_string(st.res.candidates.size()) +
                    " candidates after the rules; calibrating trial cost");
  auto c1 = st.trials->Run(st.res.baseline, st.s_rank, "calibrate");
  if (!c1.ok()) return c1.status().WithContext("baseline trial");
  const double first = static_cast<double>(c1->Cost());
  st.cost.emplace(kCalibrationFixedShare * first,
                  (1 - kCalibrationFixedShare) * first / st.s_rank);
  st.cost->Observe(st.s_rank, c1->Cost());
  // Up the scales while a run is cheap: beyond the largest scale it has
  // seen the cost model grows as scale^1.5 at least, so from copies
  // hundreds of times smaller than the full size it overestimates a
  // full-size trial many times over, and a plan that believes full-size
  // trials do not fit ranks on copies and ends early. Measured: on 20M keys
  // at 64 MiB, calibrated at scales 0.001 and 0.004 only, it put a
  // full-size trial at 2,810 s; db_bench's defaults ran the full size in
  // 343 s.
  for (double last = st.s_rank;;) {
    double next = EffectiveScale(w, std::min(1.0, 4 * last));
    if (next <= last ||
        st.Remaining() <= kCalibrationRunShare * st.cost->Estimate(next)) {
      break;
    }
    auto c = st.trials->Run(st.res.baseline, next, "calibrate");
    if (!c.ok()) return c.status().WithContext("baseline trial");
    st.cost->Observe(next, c->Cost());
    last = next;
  }
  st.progress->Info("tune: a trial costs ~" +
                    FormatDuration(st.cost->fixed_ns()) + " + " +
                    FormatDuration(st.cost->per_scale_ns()) +
                    " x scale (scale 1 = the full workload)");
  return Status::OK();
}

// Writes are at least half of the scored ops: knobs that shape the LSM act
// through compaction, which copies as deep as the full size show; else
// through the level-0 files reads check, which only the full size shows.
bool WritesScored(const TuneState& st) {
  return st.res.traits.write_share >= 0.5;
}

// The values the rules left for knob k, preferred first.
std::vector<KnobValue> RuleValues(const CandidateSpace& space, Knob k) {
  std::vector<KnobValue> out;
  if (k == Knob::Of(KnobId::kWriteBufferBytes)) {
    for (uint64_t x : space.write_buffer_bytes) {
      out.push_back(static_cast<KnobValue>(x));
    }
  }
  if (k.name() == "max_file_bytes") {
    for (uint64_t x : space.max_file_bytes_values) {
      out.push_back(static_cast<KnobValue>(x));
    }
  }
  for (const KnobCandidates& c : space.rocksdb) {
    if (c.spec == k.spec) out = c.values;
  }
  return out;
}

bool SameKnobs(const TuneConfig& a, const TuneConfig& b) {
  return std::none_of(AllKnobs().begin(), AllKnobs().end(),
                      [&](Knob k) { return KnobDiffers(a, b, k); });
}

// The knobs of `c` that need a faithful copy and differ from the baseline,
// with their values: "write_buffer_bytes 28 MiB, max_write_buffer_number 4".
std::string GuardedText(const TuneState& st, const TuneConfig& c);

// Records that `c`'s shape was not judged: it needs a copy of `need`, the
// budget affords `cap` (once per distinct set of values).
void NoteUnfaithful(TuneState& st, const TuneConfig& c, double need,
                    double cap);

// A knob a trial judges only on a copy faithful for both sides
// (fidelity.h): one that shapes the LSM, and the table file size when the
// rules left sizes to measure (a size the open-file rule fixes is not a
// trial's decision).
bool Guarded(const TuneState& st, Knob k) {
  if (!NeedsFaithfulCopy(k)) return false;
  return k.name() != "max_file_bytes" ||
         st.space.max_file_bytes_values.size() > 1;
}

bool ChangesGuarded(const TuneState& st, const TuneConfig& c) {
  return std::any_of(AllKnobs().begin(), AllKnobs().end(), [&](Knob k) {
    return Guarded(st, k) && KnobDiffers(c, st.res.baseline, k);
  });
}

// The smallest scale whose copy is faithful for both the baseline and `c`.
double FaithfulScale(const TuneState& st, const TuneConfig& c) {
  return std::max(st.trials->FirstFaithfulScale(st.res.baseline, st.s_min),
                  st.trials->FirstFaithfulScale(c, st.s_min));
}

std::string GuardedText(const TuneState& st, const TuneConfig& c) {
  std::vector<std::string> parts;
  for (Knob k : AllKnobs()) {
    if (Guarded(st, k) && KnobDiffers(c, st.res.baseline, k)) {
      parts.push_back(std::string(KnobName(k)) + " " + KnobValueText(c, k));
    }
  }
  return Join(parts, ", ");
}

void NoteUnfaithful(TuneState& st, const TuneConfig& c, double need,
                    double cap) {
  UnjudgedShape u;
  u.knobs = GuardedText(st, c);
  for (const UnjudgedShape& v : st.res.unjudged) {
    if (v.knobs == u.knobs) return;
  }
  u.needed_scale = need;
  u.affordable_scale = cap;
  const CopyFidelity cand = st.trials->FidelityAt(c, cap);
  const CopyFidelity base = st.trials->FidelityAt(st.res.baseline, cap);
  u.copy = cand.faithful() ? "the defaults: " + base.Text() : cand.Text();
  st.res.unjudged.push_back(std::move(u));
}

// `c` with every knob that shapes the LSM at the baseline's value, and the
// cache the budget then leaves.
TuneConfig WithDefaultShape(const TuneState& st, TuneConfig c) {
  bool changed = false;
  for (Knob k : AllKnobs()) {
    if (Guarded(st, k) && KnobDiffers(c, st.res.baseline, k)) {
      CopyKnob(st.res.baseline, k, &c);
      changed = true;
    }
  }
  return changed ? WithBudgetCache(st.in, st.space, c) : c;
}

// Scored reads after the writes (read-heavy: a fill, then point reads): a
// read checks every level-0 file the fill's last flushes left, and how many
// that is (the flushes modulo the level-0 trigger, give or take one for the
// memtable's overhead) differs between a copy and the full size
// (benchmarks/README.md, Tuner design records: Shape knobs and reads). So
// for reads a knob that shapes the LSM is judged at
// full size only: the search ranks no lower, and when full-size trials do
// not fit, such knobs keep their defaults.
void KeepShapeForReads(TuneState& st, double s_search) {
  TuneResult& res = st.res;
  if (s_search >= 1.0) {
    st.deep_scale = 1.0;
    return;
  }
  const size_t before = res.candidates.size();
  // Each candidate with those knobs put back (the rules fix some of them
  // in every candidate), once.
  std::vector<std::string> names;
  for (Knob k : AllKnobs()) {
    if (Guarded(st, k) &&
        std::any_of(res.candidates.begin(), res.candidates.end(),
                    [&](const TuneConfig& c) {
                      return KnobDiffers(c, res.baseline, k);
                    })) {
      names.push_back(KnobName(k));
    }
  }
  std::vector<TuneConfig> kept;
  for (const TuneConfig& candidate : res.candidates) {
    TuneConfig c = WithDefaultShape(st, candidate);
    if (std::find(kept.begin(), kept.end(), c) == kept.end()) {
      kept.push_back(c);
    }
  }
  res.candidates = std::move(kept);
  res.notes.push_back(
      "knobs that shape the LSM kept at their defaults, not ranked (" +
      Join(names, ", ") +
      "): a read checks the level-0 files the fill's last flushes left, "
      "which a copy smaller than the full size does not reproduce, and "
      "trials go up to scale " +
      Fixed(s_search, 3) + " only; the search ranked " +
      std::to_string(res.candidates.size()) + " of " + std::to_string(before) +
      " candidates");
}

// Knobs that shape the LSM are never ranked or judged on copies that fill
// fewer LSM levels than the full size. A larger write buffer pays off as
// level 0 absorbing flushes while the deeper levels compact, and a trial
// whose LSM is a level shallower lacks those compactions; RocksDB's
// compaction style likewise (benchmarks/README.md, Tuner design records:
// Shape knobs and the LSM's depth).
//
// Sets deep_scale, the smallest scale whose copy fills as many levels as
// the full size (for a write-heavy workload whose candidates change such a
// knob). When the search's copies are shallower still, or a first rung of
// every candidate at deep_scale does not fit `search_ns` (the search would
// rank a handful of the rules' candidates: 3 of 24 in `run --quick`), each
// such knob gets the rule's first value some candidate holds, the search
// ranks the other knobs, and the A/B, given the larger share of
// kPlanShapeOnRule at the largest scale it affords, judges them; otherwise
// the search ranks no lower than deep_scale.
void TakeShapeFromRule(TuneState& st, double s_search, double search_ns) {
  TuneResult& res = st.res;
  const Trials& trials = *st.trials;
  auto changes_shape = [&](const TuneConfig& c) {
    return ChangesGuarded(st, c);
  };
  if (std::none_of(res.candidates.begin() + 1, res.candidates.end(),
                   changes_shape)) {
    return;
  }
  if (!WritesScored(st)) {
    KeepShapeForReads(st, s_search);
    return;
  }
  st.full_depth = trials.FidelityAt(res.baseline, 1.0).full_levels;
  // The copy each candidate needs to be judged on (fidelity.h).
  auto need_of = [&](const TuneConfig& c) {
    return changes_shape(c) ? FaithfulScale(st, c) : 0.0;
  };
  st.deep_scale = 0;
  for (const TuneConfig& c : res.candidates) {
    st.deep_scale = std::max(st.deep_scale, need_of(c));
  }
  const double deep_rung_ns = static_cast<double>(res.candidates.size()) *
                              st.cost->Estimate(st.deep_scale);
  const bool shallow = s_search < st.deep_scale;
  st.shape_on_rule = shallow || deep_rung_ns > search_ns;
  if (!st.shape_on_rule) return;
  st.shares = &kPlanShapeOnRule;
  const size_t before = res.candidates.size();
  // The largest copy the A/B affords with the larger share it gets when
  // it judges these knobs: a candidate whose shape needs a larger one
  // keeps the defaults' shape (no verdict on a copy that cannot show it).
  const double ab_cap =
      PlanTune(st.Plan(), kPlanShapeOnRule, st.Remaining(), st.s_rank, 0)
          .ab_scale;
  st.ab_cap = ab_cap;
  std::vector<TuneConfig> kept;
  for (size_t i = 1; i < res.candidates.size(); i++) {
    const TuneConfig& c = res.candidates[i];
    const double need = need_of(c);
    TuneConfig k = c;
    if (need > ab_cap) {
      NoteUnfaithful(st, c, need, ab_cap);
      k = WithDefaultShape(st, c);
    }
    if (!SameKnobs(k, res.baseline) &&
        std::find(kept.begin(), kept.end(), k) == kept.end()) {
      kept.push_back(k);
    }
  }
  std::vector<std::string> taken, untried;
  for (Knob k : AllKnobs()) {
    if (!Guarded(st, k) || k.spec == nullptr) continue;
    auto holds = [k](KnobValue v) {
      return [k, v](const TuneConfig& c) { return KnobValueOf(c, k) == v; };
    };
    std::vector<KnobValue> values = RuleValues(st.space, k);
    if (values.size() < 2) continue;
    auto pick = std::find_if(values.begin(), values.end(), [&](KnobValue v) {
      return v != KnobValueOf(res.baseline, k) &&
             std::any_of(kept.begin(), kept.end(), holds(v));
    });
    if (pick == values.end())
      pick =
          std::find(values.begin(), values.end(), KnobValueOf(res.baseline, k));
    if (pick == values.end()) continue;
    const KnobValue v = *pick;
    std::erase_if(kept, [&](const TuneConfig& c) { return !holds(v)(c); });
    taken.push_back(std::string(k.spec->name) + " " +
                    disktune::KnobValueText(*k.spec, v));
    // The defaults' value is measured anyway, in the baseline.
    for (KnobValue u : values) {
      if (u != v && u != KnobValueOf(res.baseline, k)) {
        untried.push_back(std::string(k.spec->name) + " " +
                          disktune::KnobValueText(*k.spec, u));
      }
    }
  }
  st.deep_scale = 0;
  for (const TuneConfig& c : kept) {
    st.deep_scale = std::max(st.deep_scale, need_of(c));
  }
  kept.insert(kept.begin(), res.candidates.front());
  res.candidates = std::move(kept);
  if (st.deep_scale == 0) {
    // Nothing that shapes the LSM is left to judge: the plan's usual
    // shares, and the search ranks the rest.
    st.shape_on_rule = false;
    st.shares = &kPlan;
    res.notes.push_back(
        "knobs that shape the LSM kept at their defaults: the budget "
        "affords an A/B up to scale " +
        Fixed(ab_cap, 3) +
        ", smaller than any copy that shows them (see copy_fidelity); the "
        "search ranked " +
        std::to_string(res.candidates.size()) + " of " +
        std::to_string(before) + " candidates");
    return;
  }
  res.notes.push_back(
      "knobs that shape the LSM taken from the rules, not ranked: " +
      (taken.empty() ? std::string("each has one value") : Join(taken, ", ")) +
      (untried.empty() ? "" : "; not tried: " + Join(untried, ", ")) + ". " +
      (shallow ? "Trials go up to scale " + Fixed(s_search, 3) +
                     ", and only copies from scale " + Fixed(st.deep_scale, 3) +
                     " keep the full size's data over memory and its " +
                     std::to_string(st.full_depth) + " LSM level(s)"
               : "Faithful copies (from scale " + Fixed(st.deep_scale, 3) +
                     ", " + std::to_string(st.full_depth) +
                     " LSM levels) cost ~" + FormatDuration(deep_rung_ns) +
                     " for one trial of each candidate, more than the "
                     "search's " +
                     FormatDuration(search_ns)) +
      ", and these knobs act in the deepest compactions, so the A/B "
      "judges them; the search ranked " +
      std::to_string(res.candidates.size()) + " of " + std::to_string(before) +
      " candidates");
}

// Whether a check at `scale` judges knob k: not a knob that shapes the LSM
// on copies shallower than the full size (the A/B judges it then).
bool IsJudged(const TuneState& st, Knob k, double scale) {
  return !(Guarded(st, k) && st.deep_scale > 0 && scale < st.deep_scale);
}

// Successive halving over the candidates, its last rung no larger than the
// A/B's scale, in the time the plan leaves after verification.
Status Search(TuneState& st) {
  TuneResult& res = st.res;
  const PlanContext ctx = st.Plan();
  const double left = st.Remaining();
  // Reads scored: the knob check gets more rounds on smaller copies (plan.h).
  if (!WritesScored(st)) st.shares = &kPlanReads;
  // The search stays at the scale whose LSM depth was checked.
  const TunePlan first = PlanTune(ctx, *st.shares, left, st.s_rank, 0);
  const double s_search = first.ab_scale;
  TakeShapeFromRule(st, s_search, static_cast<double>(first.search_budget_ns));
  // Knobs that may change, and of them those the knob check would judge.
  size_t varying = 0, varying_judged = 0;
  for (Knob k : AllKnobs()) {
    bool any = std::any_of(
        res.candidates.begin(), res.candidates.end(),
        [&](const TuneConfig& c) { return KnobDiffers(c, res.baseline, k); });
    varying += any ? 1 : 0;
    varying_judged += any && IsJudged(st, k, s_search) ? 1 : 0;
  }
  const double knob_runs =
      KnobCheckRuns(varying, varying_judged, st.shares->knob_rounds);
  const TunePlan plan = PlanTune(ctx, *st.shares, left, st.s_rank, knob_runs);
  st.s_v = plan.ab_scale;
  TunePlan shown = plan;
  shown.ab_scale = s_search;  // the search ranks no larger than this
  res.notes.push_back(
      PlanText(ctx, *st.shares, shown, left, res.candidates.size()));

  SearchBudget sb;
  sb.budget_ns = plan.search_budget_ns;
  sb.max_scale = s_search;
  sb.min_scale = plan.search_min_scale;
  sb.tie_rounds = kSearchTieRounds;
  // The tie's rounds come out of the time the verification's minimum (the
  // knob check's rounds and the A/B's pairs, at their planned scales, as
  // the cost model now prices them) leaves.
  sb.tie_left_ns = [&st, &ctx, &plan, knob_runs] {
    return kUsableTimeShare * st.Remaining() - VerifyNs(ctx, plan, knob_runs);
  };
  if (st.deep_scale > 0 && !st.shape_on_rule) {
    // Knobs that shape the LSM are ranked: no rung shallower than the full
    // size.
    sb.min_scale = std::max(sb.min_scale, std::min(st.deep_scale, s_search));
  }
  int trial_no = 0;
  const Workload& w = res.workload;
  TrialFn trial_fn = [&](const TuneConfig& c, double scale) {
    trial_no++;
    return st.trials->Run(
        c, EffectiveScale(w, scale),
        "search trial " + std::to_string(trial_no) + ": " + ConfigText(c));
  };
  st.progress->Info(
      "tune: successive halving over " + std::to_string(res.candidates.size()) +
      " candidates, " + FormatDuration(static_cast<double>(sb.budget_ns)) +
      " for the search, trials up to scale " + Fixed(plan.knob_scale, 3) +
      "; A/B at scale " + Fixed(st.s_v, 3));
  // The search's clock is the budget's: it advances with writes too.
  auto search = SuccessiveHalving(res.candidates, sb, &*st.cost, trial_fn,
                                  [&] { return st.budget.ClockNs(); });
  if (!search.ok()) return search.status();
  res.search = *search;
  res.winner = res.candidates[res.search.winner];
  if (res.search.tie) {
    const HeadToHead& h = *res.search.tie;
    res.notes.push_back(
        "the last rung's leader (" + ConfigText(res.candidates[h.leader]) +
        ") against the rules' preferred candidate near it (" +
        ConfigText(res.candidates[h.preferred]) + "), " +
        std::to_string(h.gain.repeats) + " pairs at scale " +
        Fixed(h.scale, 3) + ": " + GainText(h.gain) + "; " +
        (h.gain.significant() ? std::string("the leader stands")
                              : std::string("not significant, so the rules' "
                                            "preference decides")));
  }
  if (SameKnobs(res.winner, res.baseline)) {
    // The defaults ranked first. Verify the best alternative against them
    // rather than stop: "nothing beats the defaults" then rests on an A/B.
    for (auto rung = res.search.rungs.rbegin(); rung != res.search.rungs.rend();
         ++rung) {
      double best = 0;
      std::optional<size_t> pick;
      for (size_t i = 0; i < rung->candidates.size(); i++) {
        const TuneConfig& c = res.candidates[rung->candidates[i]];
        if (rung->ops_per_sec[i] > best && !SameKnobs(c, res.baseline)) {
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
  st.progress->Info("tune: search winner after " +
                    std::to_string(res.search.trials) +
                    " trials: " + ConfigText(res.winner));
  for (const std::string& n : res.search.notes) res.notes.push_back(n);
  return Status::OK();
}

// When no changed knob survived leave-one-out: each judged knob alone
// against the defaults, interleaved in rounds at the knob check's scale, if
// the rounds fit before the A/B's minimum. Sets knob_trials[i].alone.
Status SoloAbs(TuneState& st, double s_k, int max_rounds, double ab_min_ns) {
  TuneResult& res = st.res;
  const TuneConfig base = WithBudgetCache(st.in, st.space, res.baseline);
  std::vector<size_t> solo;
  std::vector<TuneConfig> configs = {base};
  for (size_t i = 0; i < st.changed.size(); i++) {
    if (st.knob_trials[i].by_rule) continue;
    TuneConfig c = res.baseline;
    CopyKnob(res.winner, st.changed[i], &c);
    solo.push_back(i);
    configs.push_back(WithBudgetCache(st.in, st.space, c));
  }
  // At the knob check's scale when the rounds fit, else at the largest
  // scale that does (no smaller than the smallest worth ranking on).
  const double n = static_cast<double>(configs.size());
  const double avail = st.Remaining() - ab_min_ns;
  double scale = s_k;
  if (kMinRepeats * n * st.cost->Estimate(scale) > avail) {
    scale = EffectiveScale(res.workload,
                           FitScale(st.Plan(), kMinRepeats * n, avail));
  }
  const double round_ns = st.cost->Estimate(scale) * n;
  if (scale < st.s_rank || kMinRepeats * round_ns > avail) {
    res.notes.push_back(
        "no changed knob survived leave-one-out, and an A/B of each alone "
        "did not fit in the time left (~" +
        FormatDuration(kMinRepeats * st.cost->Estimate(s_k) * n) +
        " at the knob check's scale): none is recommended on its own");
    return Status::OK();
  }
  if (scale < s_k) {
    res.notes.push_back("each knob's own A/B ran at scale " + Fixed(scale, 3) +
                        ", the largest the time left affords");
  }
  std::vector<std::vector<double>> scores(configs.size());
  for (int round = 0; round < max_rounds; round++) {
    if (round >= kMinRepeats && round_ns > st.Remaining() - ab_min_ns) {
      break;
    }
    for (size_t i : RoundOrder(configs.size(), static_cast<size_t>(round))) {
      std::string label =
          "alone " + std::to_string(round + 1) + "/" +
          std::to_string(max_rounds) + ": " +
          (i == 0 ? std::string("defaults")
                  : std::string("only ") + KnobName(st.changed[solo[i - 1]]));
      DT_RETURN_IF_ERROR(
          ScoreTrial(st, configs[i], scale, label, "knob A/B", &scores[i]));
    }
  }
  // BlockedGains gives the defaults' gain over each; a knob's is its inverse.
  std::vector<Gain> gains = BlockedGains(scores);
  for (size_t j = 0; j < solo.size(); j++) {
    st.knob_trials[solo[j]].alone = Inverse(gains[j]);
  }
  return Status::OK();
}

// The progress label of the knob check's row i (0: the winner, 1 + j: it
// without changed[judged[j]]) in round `round` (from 0) of `rounds`.
std::string KnobCheckLabel(const TuneState& st,
                           const std::vector<size_t>& judged, size_t i,
                           int round, int rounds) {
  return "knob check " + std::to_string(round + 1) + "/" +
         std::to_string(rounds) + ": " +
         (i == 0
              ? std::string("winner")
              : std::string("without ") + KnobName(st.changed[judged[i - 1]]));
}

// Capacity knobs, kept on their rule when a scaled trial cannot reproduce
// what they are for (its few tables all fit in the default open files).
bool MayStayOnRule(Knob k) {
  return k.name() == "max_open_files" || k.name() == "max_file_bytes";
}

// A knob the check's rounds could not tell from noise (Undecided: its
// interval holds 1, whichever side its median fell on) gets more rounds:
// decided once, at this one look, for those knobs only, as many as
// kExtraKnobRoundsShare of the time before the A/B's preferred pairs
// (kAbReserveRuns; its minimum while no knob has won, below) affords, up to
// kMaxKnobCheckRounds in all; their gains then come from every round. Three
// rounds cannot hold a knob of about a tenth above 1, nor always on the
// right side of it. The interval decides who may get the rounds, not the
// median's side, which is the noise's; when the time does not buy as many
// rounds for all of them, the most promising (highest median) get them
// (PlanExtraKnobRounds). Measured: benchmarks/README.md, Tuner design
// records: Undecided knobs get more rounds.
// configs[0] is the winner, configs[1 + j] it without changed[judged[j]].
// While no knob has won (and none is kept without the check), the A/B runs
// only if an extra round makes one win,
// so the rounds may use the time down to the A/B's minimum (kAbMinRuns)
// instead of its preferred pairs: otherwise a tune whose knobs are all
// undecided keeps the defaults and leaves that time unused (the same
// record).
Status ExtendKnobCheck(TuneState& st, const std::vector<TuneConfig>& configs,
                       const std::vector<size_t>& judged, double s_k,
                       double ab_reserve_ns, double ab_min_ns,
                       std::vector<std::vector<double>>* scores) {
  const int done = static_cast<int>((*scores)[0].size());
  if (done >= kMaxKnobCheckRounds) return Status::OK();
  std::vector<Gain> now;
  for (size_t j : judged) now.push_back(*st.knob_gain[j]);
  // The A/B runs whatever the extra rounds show when a knob won already, or
  // when a changed knob is kept without the check: one it does not judge,
  // or a capacity knob that may stay on its rule (CheckKnobs).
  const bool ab_runs_anyway =
      std::any_of(now.begin(), now.end(),
                  [](const Gain& g) { return g.significant(); }) ||
      judged.size() < st.changed.size() ||
      std::any_of(judged.begin(), judged.end(),
                  [&](size_t i) { return MayStayOnRule(st.changed[i]); });
  const double reserve = ab_runs_anyway ? ab_reserve_ns : ab_min_ns;
  const double spare = kExtraKnobRoundsShare * (st.Remaining() - reserve);
  const ExtraKnobRounds plan =
      PlanExtraKnobRounds(now, spare, st.cost->Estimate(s_k), done);
  auto names_of = [&](const std::vector<size_t>& positions) {
    std::string names;
    for (size_t j : positions) {
      names += (names.empty() ? "" : ", ") +
               std::string(KnobName(st.changed[judged[j]]));
    }
    return names;
  };
  const std::vector<size_t>& unsure = plan.knobs;  // positions in `judged`
  const int extra = plan.rounds;
  if (unsure.empty()) {
    if (!plan.left_out.empty()) {
      st.res.notes.push_back("the knob check could not separate " +
                             names_of(plan.left_out) + " from noise in " +
                             std::to_string(done) +
                             " rounds, and no more fit before the A/B");
    }
    return Status::OK();
  }
  if (!plan.left_out.empty()) {
    st.res.notes.push_back("the knob check gave no more rounds to " +
                           names_of(plan.left_out) +
                           " (within the noise after " + std::to_string(done) +
                           " rounds, but behind " + names_of(unsure) +
                           ", whose rounds they would have cut)");
  }
  std::vector<size_t> rows = {0};  // rows of `configs` that run again
  for (size_t j : unsure) rows.push_back(1 + j);
  for (int r = 0; r < extra; r++) {
    for (size_t p : RoundOrder(rows.size(), static_cast<size_t>(done + r))) {
      const size_t i = rows[p];
      std::string label = KnobCheckLabel(st, judged, i, done + r, done + extra);
      DT_RETURN_IF_ERROR(
          ScoreTrial(st, configs[i], s_k, label, "knob check", &(*scores)[i]));
    }
  }
  std::vector<std::vector<double>> sub;
  for (size_t i : rows) sub.push_back((*scores)[i]);
  std::vector<Gain> gains = BlockedGains(sub);
  for (size_t p = 0; p < unsure.size(); p++) {
    st.knob_gain[judged[unsure[p]]] = gains[p];
  }
  st.res.notes.push_back("the knob check ran " + std::to_string(extra) +
                         " more round(s) for " + names_of(unsure) +
                         ", within the noise after " + std::to_string(done));
  return Status::OK();
}

// Reads, when the A/B's copy is shallower than the full size: the check and
// the A/B run on copies, which do not show what a knob that shapes the LSM
// does at full size, so those knobs go back to their defaults.
void KeepShapeKnobsAtDefault(TuneState& st) {
  TuneResult& res = st.res;
  for (Knob k : AllKnobs()) {
    if (Guarded(st, k) && KnobDiffers(res.winner, res.baseline, k)) {
      res.notes.push_back(std::string(KnobName(k)) +
                          " stays at its default: the A/B runs on a copy "
                          "of scale " +
                          Fixed(st.s_v, 3) +
                          ", and only the full size shows its effect on "
                          "reads");
    }
  }
  res.winner = WithDefaultShape(st, res.winner);
}

// What the knob check judges (positions in st.changed), how many runs it
// takes, and its scales and rounds.
struct KnobCheckPlan {
  std::vector<size_t> judged;
  double check_runs = 0;
  CheckPlan plan;
};

// Sets st.changed to the knobs the winner changed and plans their check:
// every changed knob but those that shape the LSM when its copies are
// shallower than the full size. Re-fit the scales to what is actually left,
// then spend the rest on repeats (each knob must win on its own; none when
// the A/B judges every one); the A/B gets what remains. The check's scale
// depends on what it judges, and what it judges on its scale: at most a
// second fit, without the shape knobs.
void PlanJudgedKnobs(TuneState& st, KnobCheckPlan* kp) {
  const TuneResult& res = st.res;
  std::vector<Knob>& changed = st.changed;
  changed.clear();
  for (Knob k : AllKnobs()) {
    if (KnobDiffers(res.winner, res.baseline, k)) changed.push_back(k);
  }
  for (double at : {st.s_v, 0.0}) {
    kp->judged.clear();
    for (size_t i = 0; i < changed.size(); i++) {
      if (IsJudged(st, changed[i], at)) kp->judged.push_back(i);
    }
    kp->check_runs = KnobCheckRuns(changed.size(), kp->judged.size(),
                                   st.shares->knob_rounds);
    kp->plan = PlanKnobCheck(st.Plan(), *st.shares, st.Remaining(), st.s_v,
                             kp->check_runs, kp->judged.size());
    if (std::all_of(kp->judged.begin(), kp->judged.end(), [&](size_t i) {
          return IsJudged(st, changed[i], kp->plan.knob_scale);
        })) {
      return;
    }
  }
}

// The knob check's plan; for reads, the changed knobs it cannot judge go
// back to their defaults first (see below).
KnobCheckPlan PlanCheck(TuneState& st) {
  TuneResult& res = st.res;
  const std::vector<Knob>& changed = st.changed;
  KnobCheckPlan kp;
  PlanJudgedKnobs(st, &kp);
  const std::vector<size_t>& judged = kp.judged;
  if (!WritesScored(st) && !judged.empty() && judged.size() < changed.size()) {
    // Reads: the A/B's gain would come from the knobs the check judges, and
    // a knob that shapes the LSM, which the check's copies cannot judge,
    // would ride on it (no passengers; benchmarks/README.md, Tuner design
    // records: Shape knobs and reads).
    std::vector<std::string> names;
    for (size_t i = 0; i < changed.size(); i++) {
      if (std::find(judged.begin(), judged.end(), i) == judged.end()) {
        names.push_back(KnobName(changed[i]));
      }
    }
    res.winner = WithDefaultShape(st, res.winner);
    res.notes.push_back(
        Join(names, ", ") +
        " kept at the default: the knob check cannot run them at full size "
        "in the time left, the only size that shows a knob's effect on the "
        "LSM for reads, and the A/B would credit them with the gain of the "
        "knobs the check judges");
    PlanJudgedKnobs(st, &kp);
  }
  return kp;
}

// The check's interleaved rounds: the winner and, per judged knob, the
// winner with that knob reverted; sets st.knob_gain (leave-one-out).
Status RunKnobCheckRounds(TuneState& st, const KnobCheckPlan& kp,
                          double ab_min_ns, double ab_reserve_ns) {
  const TuneResult& res = st.res;
  const std::vector<Knob>& changed = st.changed;
  const std::vector<size_t>& judged = kp.judged;
  const double s_k = kp.plan.knob_scale;
  auto revert = [&](TuneConfig c, Knob k) {
    CopyKnob(res.baseline, k, &c);
    return WithBudgetCache(st.in, st.space, c);
  };
  st.knob_gain.assign(changed.size(), std::nullopt);
  if (kp.check_runs <= 0) return Status::OK();
  std::vector<TuneConfig> configs = {res.winner};
  for (size_t i : judged) configs.push_back(revert(res.winner, changed[i]));
  std::vector<std::vector<double>> scores(configs.size());
  for (int round = 0; round < kp.plan.knob_rounds; round++) {
    // Past the minimum, a round starts only if it ends before the
    // deadline (a rule on time, not on results, so it cannot bias them):
    // the rounds the check's copies were fitted for (plan.h, reads) keep
    // the A/B's minimum, any beyond them its preferred pairs
    // (benchmarks/README.md, Tuner design records: Undecided knobs get
    // more rounds).
    const double reserve =
        round < st.shares->knob_rounds ? ab_min_ns : ab_reserve_ns;
    if (round >= kMinRepeats &&
        st.cost->Estimate(s_k) * static_cast<double>(configs.size()) >
            st.Remaining() - reserve) {
      break;
    }
    for (size_t i : RoundOrder(configs.size(), static_cast<size_t>(round))) {
      std::string label =
          KnobCheckLabel(st, judged, i, round, kp.plan.knob_rounds);
      DT_RETURN_IF_ERROR(
          ScoreTrial(st, configs[i], s_k, label, "knob check", &scores[i]));
    }
  }
  std::vector<Gain> gains = BlockedGains(scores);
  for (size_t j = 0; j < judged.size(); j++) {
    st.knob_gain[judged[j]] = gains[j];
  }
  return ExtendKnobCheck(st, configs, judged, s_k, ab_reserve_ns, ab_min_ns,
                         &scores);
}

// st.knob_trials from the check's gains. Capacity rules whose condition the
// scaled trial cannot reproduce (its few tables all fit in the default open
// files) are kept on the rule, and so is a knob that shapes the LSM on
// copies too shallow to judge it.
void RecordKnobTrials(TuneState& st, const std::vector<size_t>& judged,
                      double s_k) {
  const TuneResult& res = st.res;
  const std::vector<Knob>& changed = st.changed;
  std::vector<KnobTrial>& trials = st.knob_trials;
  trials.assign(changed.size(), KnobTrial{});
  for (size_t i = 0; i < changed.size(); i++) {
    trials[i].leave_one_out = st.knob_gain[i];
  }
  for (size_t i = 0; i < changed.size(); i++) {
    Knob k = changed[i];
    if (std::find(judged.begin(), judged.end(), i) == judged.end()) {
      trials[i].by_rule = true;
      continue;
    }
    bool won =
        trials[i].leave_one_out && trials[i].leave_one_out->significant();
    if (won || !MayStayOnRule(k)) {
      continue;
    }
    TuneConfig b = st.trials->Scaled(res.baseline, s_k);
    uint64_t tables = st.trials->TablesAt(res.baseline, s_k);
    bool reproducible =
        b.max_open_files && tables > static_cast<uint64_t>(*b.max_open_files);
    if (!reproducible) trials[i].by_rule = true;
  }
}

// The knobs with a proof, on the baseline: the A/B's candidate.
void ChooseCandidate(TuneState& st) {
  const TuneResult& res = st.res;
  const std::vector<Knob>& changed = st.changed;
  st.proofs = RecommendKnobs(st.knob_trials);
  if (changed.size() == 1 && !st.knob_trials[0].by_rule) {
    // One changed knob: the final A/B is its own A/B.
    st.proofs[0] = KnobProof::kOwnAb;
  }
  TuneConfig candidate = res.baseline;
  for (size_t i = 0; i < changed.size(); i++) {
    if (st.proofs[i] != KnobProof::kNone) {
      CopyKnob(res.winner, changed[i], &candidate);
    }
  }
  candidate = WithBudgetCache(st.in, st.space, candidate);
  st.nothing_kept = !changed.empty() &&
                    candidate == WithBudgetCache(st.in, st.space, res.baseline);
  st.candidate = candidate;
}

// Each knob the winner changed is reverted on its own, in interleaved
// rounds at the knob check's scale; a knob whose revert does not
// measurably hurt is not recommended. Sets the candidate for the A/B.
Status CheckKnobs(TuneState& st) {
  if (!WritesScored(st) && st.s_v < st.deep_scale) KeepShapeKnobsAtDefault(st);
  const KnobCheckPlan kp = PlanCheck(st);
  st.s_v = kp.plan.ab_scale;
  const double s_k = kp.plan.knob_scale;
  const double ab_min_ns = kAbMinRuns * st.cost->Estimate(st.s_v);
  // What knob-check rounds past the minimum leave to the A/B (plan.h).
  const double ab_reserve_ns = kAbReserveRuns * st.cost->Estimate(st.s_v);
  DT_RETURN_IF_ERROR(RunKnobCheckRounds(st, kp, ab_min_ns, ab_reserve_ns));
  RecordKnobTrials(st, kp.judged, s_k);
  if (st.changed.size() >= 2 && NeedsSoloAbs(st.knob_trials)) {
    DT_RETURN_IF_ERROR(SoloAbs(st, s_k, kp.plan.knob_rounds, ab_min_ns));
  }
  ChooseCandidate(st);
  return Status::OK();
}

// What one A/B pair at `scale` is expected to cost.
double PairNs(const TuneState& st, double scale) {
  return 2 * st.cost->Estimate(scale);
}

// The A/B's first pair measures what a pair costs at its scale. When the
// pairs still needed for kMinRepeats would overrun the budget, returns the
// scale the measured cost affords (the A/B starts again there: pairs at
// two scales are not one comparison), or 0 when none does. The plan's
// scale comes from the cost model's curve beyond the largest copy it had
// seen, fitted to every candidate's trials, and writes grow faster than it:
// a copy big enough to flush and compact its tables writes many times what
// a copy half its size does, and more with small write buffers (measured in
// `run --quick`: 12 MiB per trial at scale 0.086, 54-67 MiB at 0.172), and
// before this check the A/B wrote up to 785 MiB of a 554 MiB budget. The
// new scale does not trust the curve again: a trial's cost is convex in its
// size, so the line from the fixed cost (an empty copy) to the measured
// pair bounds what a smaller pair costs. No copy below `floor_scale` (the
// A/B of a knob that shapes the LSM) is one: the A/B stops instead.
double RefitAbScale(TuneState& st, double s_v, double planned_ns,
                    double first_pair_ns, double floor_scale) {
  const double left = st.Remaining();
  if ((kMinRepeats - 1) * first_pair_ns <= left) return s_v;
  const double fixed = std::min(2 * st.cost->fixed_ns(), first_pair_ns);
  const double per_pair = kUsableTimeShare * left / kMinRepeats;
  double scale = 0;
  if (per_pair > fixed && first_pair_ns > fixed) {
    scale = EffectiveScale(st.res.workload,
                           s_v * (per_pair - fixed) / (first_pair_ns - fixed));
  }
  const std::string first = "the A/B's first pair at scale " + Fixed(s_v, 3) +
                            " cost " + FormatDuration(first_pair_ns) +
                            " of the budget, not the ~" +
                            FormatDuration(planned_ns) + " planned; ";
  if (scale < std::max(st.s_rank, floor_scale) || scale >= s_v) {
    const std::string copy =
        scale >= st.s_rank && scale < floor_scale
            ? "a copy as deep as the full size (scale " +
                  Fixed(floor_scale, 3) +
                  ", where a knob the recommendation changes acts on the LSM)"
            : "a copy worth measuring";
    st.res.notes.push_back(first + std::to_string(kMinRepeats) + " pairs of " +
                           copy + " did not fit in the " +
                           FormatDuration(left) + " left: the A/B stopped");
    return 0;
  }
  st.res.notes.push_back(first + "it started again at scale " +
                         Fixed(scale, 3) +
                         ", which the measured cost affords in what was left");
  return scale;
}

// The candidate against the baseline, interleaved pairs at the largest
// scale the time left affords.
Status Verify(TuneState& st) {
  TuneResult& res = st.res;
  // A smaller copy than planned must still judge a knob that shapes the
  // LSM, should the candidate change one: no copy smaller than the first
  // faithful one for both sides (fidelity.h), after a restart on an
  // overrun (RefitAbScale) too, which then stops rather than judge on a
  // copy that cannot show the knob.
  bool shaped = !st.changed.empty() && ChangesGuarded(st, st.candidate);
  // Reads: such a knob passed a knob check at full size (KeepShapeForReads).
  double floor_scale = shaped ? std::max(FaithfulScale(st, st.candidate),
                                         WritesScored(st) ? 0.0 : st.deep_scale)
                              : 0.0;
  AbPlan plan =
      PlanAb(st.Plan(), *st.shares, st.Remaining(), st.s_v, floor_scale);
  st.s_v = plan.scale;
  if (st.changed.empty() || st.nothing_kept) return Status::OK();
  if (shaped && st.s_v < floor_scale) {
    // The budget cannot afford a copy that shows what the candidate does to
    // the LSM or the cache: those knobs keep their defaults, unjudged.
    NoteUnfaithful(st, st.candidate, floor_scale, st.s_v);
    for (Knob k : AllKnobs()) {
      if (Guarded(st, k) && KnobDiffers(st.candidate, res.baseline, k)) {
        st.unfaithful.push_back(k);
      }
    }
    res.notes.push_back("the A/B affords a copy of scale " + Fixed(st.s_v, 3) +
                        ", and only copies from scale " +
                        Fixed(floor_scale, 3) + " show what " +
                        GuardedText(st, st.candidate) + " does at full size (" +
                        st.trials->FidelityAt(st.candidate, st.s_v).Text() +
                        " at that scale): they keep their defaults");
    st.candidate = WithDefaultShape(st, st.candidate);
    shaped = false;
    floor_scale = 0;
    st.nothing_kept =
        st.candidate == WithBudgetCache(st.in, st.space, res.baseline);
    if (st.nothing_kept) return Status::OK();
  }
  Verification& v = st.v;
  v.compared = "recommendation";
  const TuneConfig* pair[2] = {&res.baseline, &st.candidate};
  for (bool refitted = false;;) {
    const double s_v = st.s_v;
    st.progress->Info(
        "tune: A/B against the baseline at scale " + Fixed(s_v, 3) + ", " +
        (st.shares->ab_fills_time ? "up to " : "") +
        std::to_string(plan.repeats) + " interleaved repeats each");
    v.scale = s_v;
    v.num = static_cast<uint64_t>(*WorkloadOverrides(res.workload, s_v).num);
    v.trial_cache_bytes = st.trials->Scaled(st.candidate, s_v).cache_bytes;
    {
      const CopyFidelity c = st.trials->FidelityAt(st.candidate, s_v);
      const CopyFidelity b = st.trials->FidelityAt(res.baseline, s_v);
      v.candidate_copy = c.Text();
      v.baseline_copy = b.Text();
      v.faithful = !shaped || (c.faithful() && b.faithful());
    }
    v.baseline_ops_per_sec.clear();
    v.candidate_ops_per_sec.clear();
    double refit = s_v;
    for (int round = 0; round < plan.repeats; round++) {
      if (round >= kMinRepeats && PairNs(st, s_v) > st.Remaining()) break;
      const double before = st.budget.UsedNs();
      const double planned = PairNs(st, s_v);
      for (size_t i : RoundOrder(2, static_cast<size_t>(round))) {
        std::string label = "A/B " + std::to_string(round + 1) + "/" +
                            std::to_string(plan.repeats) + ": " +
                            (i == 0 ? "baseline" : "recommendation");
        DT_RETURN_IF_ERROR(ScoreTrial(
            st, *pair[i], s_v, label, "verification",
            i == 0 ? &v.baseline_ops_per_sec : &v.candidate_ops_per_sec));
      }
      if (round == 0 && !refitted) {
        refit = RefitAbScale(st, s_v, planned, st.budget.UsedNs() - before,
                             floor_scale);
        if (refit != s_v) break;
      }
    }
    if (refit == s_v) break;
    refitted = true;
    if (refit == 0) {
      v.gain = PairedGain(v.candidate_ops_per_sec, v.baseline_ops_per_sec);
      res.significant = false;  // one pair is no verdict
      return Status::OK();
    }
    st.s_v = refit;
    plan.repeats = kMinRepeats;  // no more than the measured cost affords
  }
  v.gain = PairedGain(v.candidate_ops_per_sec, v.baseline_ops_per_sec);
  res.significant = v.gain.significant();
  return Status::OK();
}

// The unjudged shape that names knob k, if any.
const UnjudgedShape* UnjudgedFor(const TuneResult& res, Knob k) {
  const std::string name = std::string(KnobName(k)) + " ";
  for (const UnjudgedShape& u : res.unjudged) {
    if (u.knobs.starts_with(name) ||
        u.knobs.find(", " + name) != std::string::npos) {
      return &u;
    }
  }
  return nullptr;
}

std::string UnjudgedText(const UnjudgedShape& u) {
  return "only a copy of scale " + Fixed(u.needed_scale, 3) +
         " or more shows " + u.knobs +
         " as at full size, and the budget "
         "affords " +
         Fixed(u.affordable_scale, 3) + " (" + u.copy + ")";
}

// The outcome per knob, and the recommendation's memory split.
void Judge(TuneState& st) {
  TuneResult& res = st.res;
  const std::vector<Knob>& changed = st.changed;
  res.recommendation = res.significant ? st.candidate : res.baseline;
  for (Knob k : AllKnobs()) {
    // A knob the engine has no such option for (RocksDB's own, for
    // LevelDB) has no outcome to state.
    if (k.spec != nullptr && !KnobDefault(*k.spec, res.engine)) continue;
    KnobEvidence e;
    e.knob = k;
    const RuleRecord* rec = FindRecord(res.rules, KnobName(k));
    std::string rule = rec ? rec->decision : "";
    auto it = std::find(changed.begin(), changed.end(), k);
    const UnjudgedShape* unjudged = UnjudgedFor(res, k);
    const bool put_back = std::find(st.unfaithful.begin(), st.unfaithful.end(),
                                    k) != st.unfaithful.end();
    if (put_back || (it == changed.end() && unjudged != nullptr &&
                     !KnobDiffers(res.recommendation, res.baseline, k))) {
      e.status = "default";
      e.reason = "not judged: " + UnjudgedText(*unjudged) +
                 ", so the default stays; rule: " + rule;
    } else if (it == changed.end()) {
      e.status = "default";
      bool tried = rec != nullptr && rec->candidates.size() > 1;
      e.reason = tried ? "the search kept the default; rule: " + rule : rule;
    } else {
      size_t i = static_cast<size_t>(it - changed.begin());
      const KnobTrial& t = st.knob_trials[i];
      const KnobProof proof = st.proofs[i];
      e.evidence = std::string(KnobProofName(proof));
      if (changed.size() == 1 && proof != KnobProof::kNone) {
        e.gain = st.v.gain;
      } else if (proof == KnobProof::kOwnAb ||
                 (proof == KnobProof::kNone && t.alone)) {
        e.gain = t.alone;
      } else {
        e.gain = t.leave_one_out;
      }
      if (proof == KnobProof::kNone) {
        e.status = "no_gain";
        if (t.alone && t.alone->significant()) {
          e.reason =
              "it won alone, but a knob with a larger gain alone was kept "
              "and nothing measured shows this one adds to it, so the "
              "default stays";
        } else if (t.alone) {
          e.reason =
              "neither removing it from the search's winner nor its own "
              "A/B against the defaults showed a gain, so the default stays";
        } else {
          e.reason =
              "reverting it did not measurably cost throughput, so the "
              "default stays";
        }
      } else if (!res.significant) {
        // The gain shown is the knob's own (leave-one-out on the knob
        // check's copies, or its own A/B); the A/B of the whole
        // recommendation decides.
        e.status = "no_gain";
        const std::string won =
            proof == KnobProof::kOwnAb
                ? "it won its own A/B against the defaults"
                : "it won leave-one-out on the knob check's "
                  "copies";
        e.reason =
            e.gain && e.gain->significant()
                ? won + ", but the A/B of the whole recommendation (scale " +
                      Fixed(st.s_v, 3) +
                      ") showed no significant gain, so the default stays"
                : "the A/B showed no significant gain over the "
                  "defaults, so the default stays";
      } else if (proof == KnobProof::kRule) {
        e.status = "rule";
        e.reason =
            Guarded(st, k) && st.deep_scale > 0
                ? std::string(st.shape_on_rule
                                  ? "taken from the rule and judged by the "
                                    "A/B: the search's trials"
                                  : "judged by the A/B: the knob check's "
                                    "copies") +
                      " are not faithful for it (their data within the "
                      "memtables and cache, or fewer LSM levels than the "
                      "full size's), and only from scale " +
                      Fixed(st.deep_scale, 3) +
                      " does its effect on the LSM show; the A/B ran at " +
                      Fixed(st.s_v, 3) + "; " + rule
                : "kept on the rule: the scaled trial has too few tables to "
                  "show the effect; " +
                      rule;
      } else if (proof == KnobProof::kLeaveOneOut) {
        e.status = "won";
        e.reason =
            "leave-one-out: the recommendation without it was "
            "measurably slower; " +
            rule;
      } else {
        e.status = "won";
        e.reason = "its own A/B against the defaults won; " + rule;
      }
    }
    res.knobs.push_back(e);
  }
  auto split = SplitBudget(st.model, st.req.memory_budget_bytes, res.shape,
                           res.recommendation, std::nullopt);
  if (!split.ok() || res.recommendation.cache_bytes > split->cache_room_bytes) {
    // A subset of the winner's knobs can need more index memory than the
    // winner did (a smaller block again): never emit what overruns.
    res.notes.push_back("the measured recommendation (" +
                        ConfigText(res.recommendation) +
                        ") would overrun the memory budget; the defaults "
                        "stay");
    res.recommendation = res.baseline;
    res.significant = false;
    for (KnobEvidence& e : res.knobs) {
      if (e.status == "won" || e.status == "rule") e.status = "no_gain";
    }
  }
  // A recommended knob names the facts its rule read, the model's
  // prediction for the recommendation, and the A/B that decided it.
  std::optional<double> predicted;
  for (const auto& [c, p] : st.predicted) {
    if (SameKnobs(c, res.recommendation)) predicted = p;
  }
  for (KnobEvidence& e : res.knobs) {
    if (e.status != "won" && e.status != "rule") continue;
    const RuleRecord* rec = FindRecord(res.rules, KnobName(e.knob));
    if (rec != nullptr) e.reason += " (facts: " + rec->fact + ")";
    if (predicted) {
      e.reason += "; the " + res.ranking_model + " predicted " +
                  Thousands(static_cast<uint64_t>(*predicted)) + " ops/s";
    }
    e.reason += "; decided by the A/B at scale " + Fixed(st.s_v, 3) + ", " +
                std::to_string(st.v.gain.repeats) + " pairs, " +
                GainText(st.v.gain);
  }
  // The split of the cache as recommended (a capped cache holds the
  // overhead of its own capacity, not of the room it left).
  split = SplitBudget(st.model, st.req.memory_budget_bytes, res.shape,
                      res.recommendation, res.recommendation.cache_bytes);
  res.workload.entries_per_batch = res.recommendation.entries_per_batch;
  if (split.ok()) res.memory = *split;
}

// The block cache's line: what the budget leaves after the write buffers
// and index/filter blocks, or, when the cache rule capped it below that
// (a workload that does not read, or a working set that fits), the cap and
// the part of the budget left unused. Capped means smaller than the split
// without a cap would have made it.
std::string CacheLine(const TuneState& st, const TuneResult& res) {
  const MemorySplit& m = res.memory;
  std::string held =
      std::to_string(WriteBuffersHeld(st.model, res.recommendation)) + " x " +
      FormatBytes(static_cast<double>(res.recommendation.write_buffer_bytes)) +
      " = " + FormatBytes(static_cast<double>(m.write_buffers_bytes)) +
      " of write buffers and " +
      FormatBytes(static_cast<double>(m.table_memory_bytes)) +
      " of index/filter blocks";
  std::string line = FormatBytes(static_cast<double>(m.cache_bytes));
  const uint64_t budget = st.req.memory_budget_bytes;
  if (m.cache_bytes < m.cache_room_bytes && m.total_bytes() < budget) {
    return line + " (capped by the cache rule; with " + held + ", " +
           FormatBytes(static_cast<double>(budget - m.total_bytes())) +
           " of the budget stays unused)";
  }
  return line + " (what the budget leaves after " + held + ")";
}

// A tune that ends well inside its budget says so, and what it did not
// try: candidates the search left out or dropped on copies smaller than the
// full size, and an A/B on a copy.
constexpr double kEarlyShare = 0.8;
void NoteWhatWasNotTried(TuneState& st) {
  TuneResult& res = st.res;
  const double used = st.budget.UsedNs();
  if (used >= kEarlyShare * static_cast<double>(st.req.time_budget_ns)) return;
  std::vector<std::string> untried;
  const size_t considered = static_cast<size_t>(res.search.candidates);
  if (considered > 0 && considered < res.candidates.size()) {
    untried.push_back(std::to_string(res.candidates.size() - considered) +
                      " candidates the search left out");
  }
  double top = 0;
  for (const Rung& r : res.search.rungs) top = std::max(top, r.scale);
  size_t dropped_small = 0;
  double dropped_at = 0;
  for (size_t i = 0; i + 1 < res.search.rungs.size(); i++) {
    const Rung& r = res.search.rungs[i];
    if (r.scale >= 1.0) continue;
    dropped_small +=
        r.candidates.size() - res.search.rungs[i + 1].candidates.size();
    dropped_at = std::max(dropped_at, r.scale);
  }
  if (dropped_small > 0) {
    untried.push_back(std::to_string(dropped_small) +
                      " candidates dropped on copies at scale <= " +
                      Fixed(dropped_at, 3) + ", never run at full size");
  }
  if (top > 0 && top < 1.0) {
    untried.push_back("no search trial at full size (largest scale " +
                      Fixed(top, 3) + ")");
  }
  if (res.verification && res.verification->scale < 1.0) {
    untried.push_back("the A/B on a copy at scale " +
                      Fixed(res.verification->scale, 3) + ", not at full size");
  }
  res.notes.push_back(
      "finished in " + FormatDuration(used) + " of the " +
      FormatDuration(static_cast<double>(st.req.time_budget_ns)) + " budget; " +
      (untried.empty() ? std::string("nothing planned was left untried")
                       : "not tried: " + Join(untried, "; ")));
}

// Which candidates were measured at what scales, and which were left out
// and why (the model's ranking is recorded in RankByModel).
void StatePlan(TuneState& st) {
  TuneResult& res = st.res;
  const size_t considered = static_cast<size_t>(res.search.candidates);
  for (const auto& [c, predicted] : st.predicted) {
    const std::string text = ConfigText(c);
    auto it = std::find(res.candidates.begin(), res.candidates.end(), c);
    if (std::any_of(res.left_out.begin(), res.left_out.end(),
                    [&](const PlanEntry& e) { return e.candidate == text; })) {
      continue;
    }
    PlanEntry e;
    e.candidate = text;
    e.predicted_ops_per_sec = predicted;
    if (it == res.candidates.end()) {
      e.reason =
          "its knobs that shape the LSM were not ranked: a copy the "
          "budget affords cannot show them, or the rules' value was taken "
          "(see the notes and unjudged)";
      res.left_out.push_back(std::move(e));
      continue;
    }
    const size_t i = static_cast<size_t>(it - res.candidates.begin());
    for (const Rung& r : res.search.rungs) {
      if (std::find(r.candidates.begin(), r.candidates.end(), i) !=
          r.candidates.end()) {
        e.scales.push_back(r.scale);
      }
    }
    if (e.scales.empty()) {
      e.reason = considered > 0 && i >= considered
                     ? "the time budget left it out (the rules' least "
                       "preferred go first)"
                     : "not run";
      res.left_out.push_back(std::move(e));
    } else {
      res.measured.push_back(std::move(e));
    }
  }
  if (res.verification) {
    PlanEntry ab;
    ab.candidate = "A/B: " + ConfigText(st.candidate);
    ab.scales = {res.verification->scale};
    res.measured.push_back(std::move(ab));
  }
  res.explanation.push_back(
      "Plan: " + std::to_string(res.measured.size()) + " measured (" +
      std::to_string(res.search.trials) + " search trials), " +
      std::to_string(res.left_out.size()) + " left out" +
      (res.left_out.empty() ? "" : " (plan.left_out in the JSON says why)") +
      "; ranking by the " + res.ranking_model);
}

// The verdict, and the lines the terminal shows.
void Explain(TuneState& st) {
  TuneResult& res = st.res;
  const Workload& w = res.workload;
  Verification& v = st.v;
  if (st.changed.empty()) {
    // The search verifies its best alternative whenever it ran one, so
    // here no candidate but the defaults was measured.
    res.verdict =
        "nothing changes: the search had no alternative to the defaults to "
        "measure (" +
        std::to_string(res.candidates.size()) + " candidate(s), " +
        std::to_string(res.search.trials) + " search trial(s))";
  } else if (st.nothing_kept && !st.unfaithful.empty()) {
    res.verdict =
        "keep the defaults: the budget cannot afford a copy of the workload "
        "that shows what the search's winner changes (" +
        UnjudgedText(res.unjudged.back()) + ")";
  } else if (st.nothing_kept) {
    res.verdict =
        "no changed knob showed a gain of its own (leave-one-out and each "
        "knob's own A/B): keep the defaults";
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
  if (!st.changed.empty() && !st.nothing_kept) res.verification = v;

  auto& ex = res.explanation;
  ex.push_back(
      st.req.engine + " for " + w.name + ": " +
      FormatBytes(static_cast<double>(st.req.memory_budget_bytes)) +
      " budget, " + Thousands(w.num) + " keys (" +
      FormatBytes(static_cast<double>(res.shape.user_bytes())) + " of data)" +
      (res.verification ? ", verified on a " + Fixed(st.s_v, 3) + " scale copy"
                        : ""));
  for (const KnobEvidence& e : res.knobs) {
    char line[512];
    std::string value = KnobValueText(res.recommendation, e.knob);
    // The baseline's value where the budget changed the engine's default
    // (RocksDB's 64 MiB write buffer shrunk to fit), so the line never
    // shows a kept default that differs from the value beside it.
    std::string def = KnobValueText(st.model.defaults, e.knob);
    if (KnobValueText(res.baseline, e.knob) != def) {
      def += ", " + KnobValueText(res.baseline, e.knob) + " in this budget";
    }
    std::string status = e.status;
    if (e.gain) status += " " + GainText(*e.gain);
    std::snprintf(line, sizeof(line), "  %-20s %-14s (default %s)  %s",
                  KnobName(e.knob), value.c_str(), def.c_str(), status.c_str());
    ex.push_back(line);
    if (!e.reason.empty()) ex.push_back("      " + e.reason);
  }
  ex.push_back("  block cache          " + CacheLine(st, res));
  ex.push_back("Baseline: " + res.baseline_definition);
  ex.push_back("Verdict: " + res.verdict);
  if (st.bytes_readable) res.bytes_written = st.budget.BytesWritten();
  if (st.budget.WritesBind()) {
    res.notes.push_back(
        "the write budget (" +
        FormatBytes(static_cast<double>(st.req.write_budget_bytes)) +
        ") bound the plan before the time budget did: trials were sized by "
        "what they write");
  }
  res.elapsed_ns = st.now_ns() - st.start_ns;
  NoteWhatWasNotTried(st);
  StatePlan(st);
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
  // The process's write count (0 where /proc/self/io is unreadable, which a
  // write budget refuses), or the test's.
  const bool bytes_readable = req.env.bytes_written != nullptr ||
                              bench::ProcessWriteBytes().has_value();
  if (req.write_budget_bytes > 0 && !bytes_readable) {
    return Status::NotSupported(
        "--write-budget needs the kernel's per-process write count "
        "(/proc/self/io), which is unreadable here; run without it");
  }
  TuneBudget::Counter bytes = req.env.bytes_written;
  if (!bytes) bytes = [] { return bench::ProcessWriteBytes().value_or(0); };
  TuneBudget::Counter now = req.env.now_ns ? req.env.now_ns : NowNanos;
  TuneState st(req, scratch, progress, now, bytes);
  st.bytes_readable = bytes_readable;
  DT_RETURN_IF_ERROR(Setup(st));
  DT_RETURN_IF_ERROR(Calibrate(st));
  DT_RETURN_IF_ERROR(Search(st));
  DT_RETURN_IF_ERROR(CheckKnobs(st));
  DT_RETURN_IF_ERROR(Verify(st));
  Judge(st);
  Explain(st);
  return std::move(st.res);
}

}  // namespace disktune::tune
