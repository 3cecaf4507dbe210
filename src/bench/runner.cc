#include "src/bench/runner.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <set>
#include <type_traits>

#include "src/bench/anon_rss_sampler.h"
#include "src/bench/bench_clock.h"
#include "src/bench/process_stats.h"
#include "src/bench/repeat_stats.h"
#include "src/bench/scenario_sets.h"
#include "src/core/clock.h"
#include "src/core/signals.h"
#include "src/model/knob_spec.h"

namespace disktune::bench {
namespace {

constexpr std::array<std::string_view, 6> kKnownEngines = {
    "leveldb", "rocksdb", "sqlite3", "kyotocabinet", "lmdb", "bdb"};

std::vector<std::string> SplitList(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (const std::string& item : items) {
    size_t start = 0;
    while (start <= item.size()) {
      size_t comma = item.find(',', start);
      if (comma == std::string::npos) comma = item.size();
      std::string name = item.substr(start, comma - start);
      while (!name.empty() && name.front() == ' ') name.erase(0, 1);
      while (!name.empty() && name.back() == ' ') name.pop_back();
      if (!name.empty()) out.push_back(name);
      start = comma + 1;
    }
  }
  return out;
}

std::string JoinIds(const std::vector<EngineInfo>& engines) {
  std::string out;
  for (const EngineInfo& e : engines) {
    if (!out.empty()) out += ", ";
    out += e.id;
  }
  return out.empty() ? "none" : out;
}

uint64_t Scaled(uint64_t v, double scale) {
  if (scale == 1.0) return v;
  return std::max<uint64_t>(
      1, static_cast<uint64_t>(std::llround(static_cast<double>(v) * scale)));
}

// How many threads a step starts at most (decides whether a non-thread-safe
// engine needs its calls serialised).
int StepThreads(const PlannedStep& step) {
  switch (step.spec->threads) {
    case ThreadCount::kThreadsAndWriter:
      return step.params.threads + 1;
    case ThreadCount::kMaxThreads:
      return step.params.max_threads;
    case ThreadCount::kThreads:
      break;
  }
  return step.params.threads;
}

// Serialises every call into an engine that is not thread-safe, so one
// workload definition still runs on it with several threads.
class SerializedEngine : public Engine {
 public:
  explicit SerializedEngine(Engine* inner) : inner_(inner) {}
  std::string_view id() const override { return inner_->id(); }
  Status Open(const std::string& path, const EngineOptions& o) override {
    std::lock_guard<std::mutex> l(mu_);
    return inner_->Open(path, o);
  }
  Status Close() override {
    std::lock_guard<std::mutex> l(mu_);
    return inner_->Close();
  }
  Status Put(std::string_view k, std::string_view v,
             const WriteOptions& wo) override {
    std::lock_guard<std::mutex> l(mu_);
    return inner_->Put(k, v, wo);
  }
  Status Get(std::string_view k, std::string* v) override {
    std::lock_guard<std::mutex> l(mu_);
    return inner_->Get(k, v);
  }
  Status Delete(std::string_view k, const WriteOptions& wo) override {
    std::lock_guard<std::mutex> l(mu_);
    return inner_->Delete(k, wo);
  }
  Status Write(const WriteBatch& b, const WriteOptions& wo) override {
    std::lock_guard<std::mutex> l(mu_);
    return inner_->Write(b, wo);
  }
  std::unique_ptr<EngineIterator> NewIterator() override;
  Status Flush() override {
    std::lock_guard<std::mutex> l(mu_);
    return inner_->Flush();
  }
  Status CompactAll() override {
    std::lock_guard<std::mutex> l(mu_);
    return inner_->CompactAll();
  }
  Status FinishWriteBenchmark() override {
    std::lock_guard<std::mutex> l(mu_);
    return inner_->FinishWriteBenchmark();
  }
  std::string StatsText() override {
    std::lock_guard<std::mutex> l(mu_);
    return inner_->StatsText();
  }
  std::vector<std::pair<std::string, std::string>> Properties() override {
    std::lock_guard<std::mutex> l(mu_);
    return inner_->Properties();
  }
  std::vector<std::pair<std::string, std::string>> unsupported_knobs()
      const override {
    return inner_->unsupported_knobs();
  }
  std::vector<std::pair<std::string, std::string>> Settings() const override {
    return inner_->Settings();
  }
  std::optional<uint64_t> max_value_bytes() const override {
    return inner_->max_value_bytes();
  }
  bool thread_safe() const override { return true; }
  Status Destroy(const std::string& path) override {
    std::lock_guard<std::mutex> l(mu_);
    return inner_->Destroy(path);
  }
  std::mutex& mu() { return mu_; }

 private:
  Engine* inner_;
  std::mutex mu_;
};

class SerializedIterator : public EngineIterator {
 public:
  SerializedIterator(std::unique_ptr<EngineIterator> inner, std::mutex* mu)
      : inner_(std::move(inner)), mu_(mu) {}
  ~SerializedIterator() override {
    std::lock_guard<std::mutex> l(*mu_);
    inner_.reset();
  }
  void SeekToFirst() override {
    Locked([](EngineIterator& it) { it.SeekToFirst(); });
  }
  void SeekToLast() override {
    Locked([](EngineIterator& it) { it.SeekToLast(); });
  }
  void Seek(std::string_view t) override {
    Locked([t](EngineIterator& it) { it.Seek(t); });
  }
  bool Valid() const override {
    return Locked([](EngineIterator& it) { return it.Valid(); });
  }
  void Next() override {
    Locked([](EngineIterator& it) { it.Next(); });
  }
  void Prev() override {
    Locked([](EngineIterator& it) { it.Prev(); });
  }
  // The views stay valid until the next positioning call by this thread,
  // which is the iterator contract anyway.
  std::string_view key() const override {
    return Locked([](EngineIterator& it) { return it.key(); });
  }
  std::string_view value() const override {
    return Locked([](EngineIterator& it) { return it.value(); });
  }
  Status status() const override {
    return Locked([](EngineIterator& it) { return it.status(); });
  }

 private:
  // Calls `f` on the inner iterator under the engine's lock.
  template <typename F>
  std::invoke_result_t<F, EngineIterator&> Locked(F f) const {
    std::lock_guard<std::mutex> l(*mu_);
    return f(*inner_);
  }

  std::unique_ptr<EngineIterator> inner_;
  std::mutex* mu_;
};

std::unique_ptr<EngineIterator> SerializedEngine::NewIterator() {
  std::unique_ptr<EngineIterator> it;
  {
    std::lock_guard<std::mutex> l(mu_);
    it = inner_->NewIterator();
  }
  if (!it) return nullptr;
  return std::make_unique<SerializedIterator>(std::move(it), &mu_);
}

ValueShape ShapeOf(const BenchParams& p) {
  ValueShape shape;
  shape.key_size = p.key_size;
  shape.value_size = p.value_size;
  shape.utxo = p.utxo_keys;
  return shape;
}

// Keys a step may touch: the key space, sequential writes past it, and the
// inserts of YCSB and UTXO pulses.
uint64_t KeyBound(const BenchParams& p, uint64_t key_end) {
  uint64_t bound = std::max({p.num, p.Writes(), key_end});
  uint64_t inserts =
      p.Reads() + p.pulse_inserts * static_cast<uint64_t>(p.pulses);
  return bound + inserts + 1;
}

std::string Header(const BenchPlan& plan, const std::string& engine,
                   const std::string& path) {
  const BenchParams& p = plan.steps.front().params;
  char buf[1024];
  double raw_mib =
      (p.key_size + p.value_size) * static_cast<double>(p.num) / 1048576.0;
  double file_mib = (p.key_size + p.value_size * p.compression_ratio) *
                    static_cast<double>(p.num) / 1048576.0;
  std::snprintf(
      buf, sizeof(buf),
      "engine:     %s (db: %s)\n"
      "Keys:       %llu bytes each\n"
      "Values:     %llu bytes each (%llu bytes after compression)\n"
      "Entries:    %llu\n"
      "RawSize:    %.1f MB (estimated)\n"
      "FileSize:   %.1f MB (estimated)\n"
      "------------------------------------------------",
      engine.c_str(), path.c_str(), static_cast<unsigned long long>(p.key_size),
      static_cast<unsigned long long>(p.value_size),
      static_cast<unsigned long long>(p.value_size * p.compression_ratio),
      static_cast<unsigned long long>(p.num), raw_mib, file_mib);
  return buf;
}

BenchResult Skeleton(const std::string& engine, const PlannedStep& step,
                     int index) {
  BenchResult r;
  r.engine = engine;
  r.scenario = std::string(step.spec->name);
  r.set = step.set;
  r.step = index + 1;
  const BenchParams& p = step.params;
  r.params.num = p.num;
  bool reads = step.spec->needs_data && step.spec->db == DbUse::kExisting;
  r.params.ops = reads ? p.Reads() : p.Writes();
  if (step.spec->pulsed) {
    r.params.ops = p.pulse_reads * static_cast<uint64_t>(p.pulses);
  }
  r.params.threads = p.threads;
  r.params.key_size_bytes = p.key_size;
  r.params.value_size_bytes = p.value_size;
  r.params.compression_ratio = p.compression_ratio;
  r.params.entries_per_batch = p.entries_per_batch;
  r.params.sync = p.sync;
  r.params.fresh_db = step.spec->db == DbUse::kFresh;
  r.params.seed = p.seed;
  r.params.warmup_ops = p.warmup_ops;
  r.params.distribution = KeyOrderName(step.spec->keys);
  r.engine_options = p.engine;
  return r;
}

struct EngineRun {
  Engine* engine;  // possibly the serialising wrapper
  bool serialized = false;
  const EngineInfo* info;
  std::string path;
  bool open = false;
  EngineOptions open_options;
  DbModel model;
  uint64_t seed_counter = 0;
};

bool SameOptions(const EngineOptions& a, const EngineOptions& b) {
  return SameKnobs(a, b) && a.expected_db_bytes == b.expected_db_bytes &&
         a.in_memory == b.in_memory && a.sync == b.sync;
}

// Prepares the database the step needs. Errors are the engine's own.
Status PrepareDb(EngineRun& er, const PlannedStep& step) {
  const BenchParams& p = step.params;
  switch (step.spec->db) {
    case DbUse::kNone:
      return Status::OK();
    case DbUse::kFresh:
      DT_RETURN_IF_ERROR(
          er.engine->Destroy(er.path).WithContext("destroy " + er.path));
      er.open = false;
      er.model.Reset(ShapeOf(p));
      break;
    case DbUse::kExisting:
      er.model.NoteShape(ShapeOf(p));
      if (er.open && !SameOptions(er.open_options, p.engine)) {
        DT_RETURN_IF_ERROR(er.engine->Close().WithContext("close " + er.path));
        er.open = false;
      }
      break;
  }
  if (!er.open) {
    DT_RETURN_IF_ERROR(
        er.engine->Open(er.path, p.engine).WithContext("open " + er.path));
    er.open = true;
    er.open_options = p.engine;
  }
  return Status::OK();
}

Status CheckHasData(EngineRun& er, const PlannedStep& step) {
  if (er.model.live_keys() > 0) return Status::OK();
  auto it = er.engine->NewIterator();
  if (it) {
    it->SeekToFirst();
    if (it->Valid()) {
      // Data the model does not know of (left by an interrupted run): the
      // live byte count is no longer exact.
      er.model.MarkInexact();
      return Status::OK();
    }
    DT_RETURN_IF_ERROR(it->status().WithContext("check for data"));
  }
  return Status::InvalidArgument(
      std::string(step.spec->name) +
      ": the database is empty; run a scenario that writes first, e.g. "
      "--scenario fillrandom," +
      std::string(step.spec->name));
}

void FillMetrics(const ScenarioSpec& spec, const PhaseStats& s,
                 const ProcessSnapshot& before, const ProcessSnapshot& after,
                 bool rss_reset, BenchResult* r) {
  BenchMetrics& m = r->metrics;
  m.ops = s.ops;
  m.elapsed_ns = s.wall_ns();
  double wall_s = static_cast<double>(m.elapsed_ns) * 1e-9;
  // db_bench: micros/op is the summed per-thread time over all ops (so it is
  // per-thread latency); ops/s and MB/s use wall time.
  uint64_t done = std::max<uint64_t>(s.ops, 1);
  m.micros_per_op =
      static_cast<double>(s.thread_ns) / 1e3 / static_cast<double>(done);
  m.ops_per_sec = wall_s > 0 ? static_cast<double>(s.ops) / wall_s : 0;
  if (s.bytes > 0) {
    m.bytes = s.bytes;
    if (wall_s > 0) m.bytes_per_sec = static_cast<double>(s.bytes) / wall_s;
  }
  m.latency_ns = s.hist.Summary();
  if (s.reads > 0 || spec.reads) {
    m.found = s.found;
    m.reads = s.reads;
  }
  m.cpu_user_ns = after.cpu_user_ns - before.cpu_user_ns;
  m.cpu_system_ns = after.cpu_system_ns - before.cpu_system_ns;
  if (after.peak_rss_bytes) {
    m.peak_rss_bytes = after.peak_rss_bytes;
    m.peak_rss_scope = rss_reset ? "scenario" : "process";
  }
  if (s.user_write_bytes > 0) m.user_write_bytes = s.user_write_bytes;
  if (before.device_write_bytes && after.device_write_bytes) {
    uint64_t b = *before.device_write_bytes;
    uint64_t a = *after.device_write_bytes;
    m.device_write_bytes = a > b ? a - b : 0;
  }
  if (before.write_call_bytes && after.write_call_bytes) {
    uint64_t b = *before.write_call_bytes;
    uint64_t a = *after.write_call_bytes;
    m.write_call_bytes = a > b ? a - b : 0;
  }
  for (const auto& [name, v] : s.per_op) {
    OpLatency o;
    o.op = name;
    o.ops = v.first;
    o.latency_ns = v.second.Summary();
    r->op_latency.push_back(o);
  }
}

BenchResult RunStep(EngineRun& er, const PlannedStep& step, int index,
                    const ValuePool& pool) {
  BenchResult r = Skeleton(std::string(er.engine->id()), step, index);
  const BenchParams& p = step.params;
  r.params.serialized = er.serialized && StepThreads(step) > 1;

  if (p.engine.in_memory && er.info != nullptr &&
      !er.info->has_in_memory_mode) {
    r.status = RunStatus::kSkipped;
    r.error = std::string(er.engine->id()) + " has no in-memory mode";
    return r;
  }
  Status s = PrepareDb(er, step);
  if (s.ok() && step.spec->db != DbUse::kNone) {
    r.unsupported_knobs = er.engine->unsupported_knobs();
    r.engine_settings = er.engine->Settings();
  }
  if (s.ok() && step.spec->needs_data) s = CheckHasData(er, step);
  if (!s.ok()) {
    r.status = RunStatus::kFailed;
    r.error = s.ToString();
    return r;
  }
  if (step.spec->db != DbUse::kNone) {
    er.model.Reserve(KeyBound(p, er.model.key_end()));
  }

  bool rss_reset = ResetPeakRss();
  ProcessSnapshot before = TakeProcessSnapshot();
  ScenarioRun run(*step.spec, p, er.engine, &er.model, er.path, &pool,
                  &er.seed_counter, &r);
  AnonRssSampler anon;
  s = step.spec->run(run);
  std::optional<uint64_t> peak_anon = anon.Stop();
  ProcessSnapshot after = TakeProcessSnapshot();

  FillMetrics(*step.spec, run.main(), before, after, rss_reset, &r);
  r.metrics.peak_anon_rss_bytes = peak_anon;
  r.metrics.message = run.message();
  if (!s.ok()) {
    r.status = run.main().ops > 0 || s.IsAborted() ? RunStatus::kPartial
                                                   : RunStatus::kFailed;
    r.error = s.ToString();
  }

  if (step.spec->db == DbUse::kNone) {
    // No database: device writes and sizes are not this scenario's.
    r.metrics.device_write_bytes.reset();
    r.metrics.write_call_bytes.reset();
    return r;
  }
  if (OnMemoryFilesystem(er.path)) {
    r.metrics.device_write_bytes.reset();
    r.notes.push_back("database on a memory filesystem: no device writes");
  } else if (r.metrics.device_write_bytes && r.metrics.user_write_bytes &&
             *r.metrics.user_write_bytes > 0) {
    r.metrics.write_amplification =
        static_cast<double>(*r.metrics.device_write_bytes) /
        static_cast<double>(*r.metrics.user_write_bytes);
  }
  if (auto size = DirSizeOnDisk(er.path); size.ok()) {
    r.metrics.db_size_bytes = *size;
    if (er.model.exact() && er.model.live_bytes() > 0) {
      r.metrics.live_data_bytes = er.model.live_bytes();
      r.metrics.space_amplification =
          static_cast<double>(*size) /
          static_cast<double>(er.model.live_bytes());
    }
  }
  if (er.open) {
    r.engine_stats = er.engine->StatsText();
    r.engine_properties = er.engine->Properties();
  }
  return r;
}

void Emit(const LineSink& progress, std::string_view line) {
  if (progress) progress(line);
}

// Folds the repetitions of one step into one result: the median run's
// figures, plus the spread of all.
BenchResult Aggregate(std::vector<BenchResult> runs) {
  std::vector<size_t> ok;
  for (size_t i = 0; i < runs.size(); i++) {
    if (runs[i].status == RunStatus::kOk) ok.push_back(i);
  }
  if (runs.size() == 1) return std::move(runs[0]);
  if (ok.size() != runs.size()) {
    for (BenchResult& r : runs) {
      if (r.status != RunStatus::kOk) {
        r.notes.push_back(std::to_string(ok.size()) + " of " +
                          std::to_string(runs.size()) + " repeats succeeded");
        return std::move(r);
      }
    }
  }
  std::vector<double> ops, micros, bytes;
  for (size_t i : ok) {
    ops.push_back(runs[i].metrics.ops_per_sec);
    micros.push_back(runs[i].metrics.micros_per_op);
    if (runs[i].metrics.bytes_per_sec) {
      bytes.push_back(*runs[i].metrics.bytes_per_sec);
    }
  }
  BenchResult out = std::move(runs[ok[MedianIndex(ops)]]);
  RepeatStats rs;
  rs.count = static_cast<int>(ok.size());
  rs.ops_per_sec = SummarizeRepeats(ops);
  rs.micros_per_op = SummarizeRepeats(micros);
  if (bytes.size() == ok.size()) rs.bytes_per_sec = SummarizeRepeats(bytes);
  out.repeats = rs;
  return out;
}

}  // namespace

Result<BenchPlan> PlanBench(const BenchRequest& request) {
  if (request.repeat < 1 || request.repeat > 100) {
    return Status::InvalidArgument("--repeat must be between 1 and 100, got " +
                                   std::to_string(request.repeat));
  }
  DT_RETURN_IF_ERROR(ValidateOverrides(request.user));

  BenchPlan plan;
  std::set<std::string> seen;
  std::vector<std::string> engines = SplitList(request.engines);
  if (engines.empty()) {
    return Status::InvalidArgument("no engine given; available: " +
                                   JoinIds(request.available));
  }
  for (const std::string& id : engines) {
    if (id == "all") {
      for (const EngineInfo& e : request.available) {
        if (seen.insert(std::string(e.id)).second) {
          plan.engines.emplace_back(e.id);
        }
      }
      continue;
    }
    bool known = std::find(kKnownEngines.begin(), kKnownEngines.end(), id) !=
                 kKnownEngines.end();
    bool built = std::any_of(request.available.begin(), request.available.end(),
                             [&](const EngineInfo& e) { return e.id == id; });
    if (!known && !built) {
      std::string valid;
      for (std::string_view k : kKnownEngines) {
        valid += valid.empty() ? "" : ", ";
        valid += k;
      }
      return Status::InvalidArgument("unknown engine '" + id +
                                     "'; valid engines: " + valid + ", all");
    }
    if (!built) {
      return Status::InvalidArgument(
          "engine '" + id + "' is not built into this disktune; available: " +
          JoinIds(request.available));
    }
    if (seen.insert(id).second) plan.engines.push_back(id);
  }
  if (plan.engines.empty()) {
    return Status::InvalidArgument("no engine is built into this disktune");
  }

  std::vector<std::string> names = SplitList(request.scenarios);
  if (names.empty()) {
    return Status::InvalidArgument(
        "no scenario given; scenarios: " + ScenarioNames() +
        "; sets: " + ScenarioSetNames());
  }
  BenchParams base;
  if (request.quick) {
    base.num = kQuickNum;
    base.cpu_bytes_scale = kQuickScale;
    base.pulse_reads = Scaled(base.pulse_reads, kQuickScale);
    base.pulse_inserts = Scaled(base.pulse_inserts, kQuickScale);
    base.pulse_deletes = Scaled(base.pulse_deletes, kQuickScale);
  }
  auto add_step = [&](const ScenarioSpec* spec, const std::string& set_name,
                      const Overrides* set_o,
                      const Overrides* step_o) -> Status {
    PlannedStep step;
    step.spec = spec;
    step.set = set_name;
    BenchParams p = base;
    double num_scale = 1, reads_scale = 1, writes_scale = 1;
    for (const Overrides* o : {set_o, step_o}) {
      if (o == nullptr) continue;
      ApplyOverrides(*o, &p);
      num_scale *= o->num_scale;
      reads_scale *= o->reads_scale;
      writes_scale *= o->writes_scale;
    }
    ApplyOverrides(request.user, &p);
    p.num = Scaled(p.num, num_scale);
    if (reads_scale != 1.0) p.reads = Scaled(p.Reads(), reads_scale);
    if (writes_scale != 1.0) p.writes = Scaled(p.Writes(), writes_scale);
    if (spec->adjust != nullptr) spec->adjust(&p);
    DT_RETURN_IF_ERROR(ValidateParams(p).WithContext(std::string(spec->name)));
    step.params = p;
    plan.steps.push_back(std::move(step));
    return Status::OK();
  };
  for (const std::string& name : names) {
    if (const ScenarioSet* set = FindScenarioSet(name)) {
      for (const SetStep& s : set->steps) {
        const ScenarioSpec* spec = FindScenario(s.scenario);
        if (spec == nullptr) {
          return Status::InvalidArgument("set '" + name +
                                         "' names unknown scenario '" +
                                         std::string(s.scenario) + "'");
        }
        DT_RETURN_IF_ERROR(add_step(spec, std::string(set->name),
                                    &set->overrides, &s.overrides));
      }
      continue;
    }
    const ScenarioSpec* spec = FindScenario(name);
    if (spec == nullptr) {
      return Status::InvalidArgument("unknown scenario or set '" + name +
                                     "'; scenarios: " + ScenarioNames() +
                                     "; sets: " + ScenarioSetNames());
    }
    DT_RETURN_IF_ERROR(add_step(spec, "", nullptr, nullptr));
  }
  return plan;
}

Result<std::vector<BenchResult>> RunBench(const BenchRequest& request) {
  auto plan_or = PlanBench(request);
  if (!plan_or.ok()) return plan_or.status();
  const BenchPlan& plan = *plan_or;
  if (!request.factory) {
    return Status::InvalidArgument("no engine factory given");
  }

  // Create every engine first so that a value too large for one of them is
  // reported before anything runs.
  std::vector<std::unique_ptr<Engine>> engines;
  for (const std::string& id : plan.engines) {
    auto e = request.factory(id);
    if (!e.ok()) return e.status();
    if (auto max = (*e)->max_value_bytes()) {
      for (const PlannedStep& step : plan.steps) {
        if (step.spec->db != DbUse::kNone && step.params.value_size > *max) {
          return Status::InvalidArgument(
              std::string(step.spec->name) + ": value size " +
              std::to_string(step.params.value_size) + " is larger than " + id +
              " allows (" + std::to_string(*max) + " bytes)");
        }
      }
    }
    engines.push_back(std::move(*e));
  }

  // One pool serves every step; sized for the largest value.
  uint64_t max_value = 0;
  for (const PlannedStep& step : plan.steps) {
    max_value = std::max(max_value, step.params.value_size);
  }
  const BenchParams& first = plan.steps.front().params;
  ValuePool pool(first.compression_ratio, first.seed, max_value);

  std::vector<BenchResult> results;
  const size_t reps = static_cast<size_t>(std::max(1, request.repeat));
  PlanClock clock = PlanBenchTime(plan, request.repeat);
  std::error_code ec;
  std::filesystem::create_directories(request.db_root, ec);
  for (size_t e = 0; e < plan.engines.size(); e++) {
    const std::string& id = plan.engines[e];
    const EngineInfo* info = nullptr;
    for (const EngineInfo& i : request.available) {
      if (i.id == id) info = &i;
    }
    Engine* raw = engines[e].get();
    std::unique_ptr<SerializedEngine> serialized;
    bool needs_serial = false;
    for (const PlannedStep& step : plan.steps) {
      needs_serial |= StepThreads(step) > 1;
    }
    if (needs_serial && !raw->thread_safe()) {
      serialized = std::make_unique<SerializedEngine>(raw);
      raw = serialized.get();
    }
    std::string path = request.db_root + "/" + id;
    const std::string& shown_root =
        request.db_root_shown.empty() ? request.db_root : request.db_root_shown;
    const LineSink& figures =
        request.results ? request.results : request.progress;
    Emit(figures, Header(plan, id, shown_root + "/" + id));

    std::vector<std::vector<BenchResult>> by_step(plan.steps.size());
    bool interrupted = false;
    for (int rep = 0; rep < request.repeat && !interrupted; rep++) {
      if (request.repeat > 1) {
        Emit(request.progress, "run " + std::to_string(rep + 1) + " of " +
                                   std::to_string(request.repeat));
      }
      EngineRun er;
      er.engine = raw;
      er.serialized = serialized != nullptr;
      er.info = info;
      er.path = path;
      std::string failed_step;
      if (ec) {
        failed_step = "create " + shown_root + ": " + ec.message();
      } else {
        // Each repetition starts from nothing.
        Status d = raw->Destroy(path);
        if (!d.ok()) failed_step = d.ToString();
      }
      for (size_t i = 0; i < plan.steps.size(); i++) {
        BenchResult r;
        if (interrupted) break;
        if (!failed_step.empty()) {
          r = Skeleton(id, plan.steps[i], static_cast<int>(i));
          if (ec && i == 0) {
            r.status = RunStatus::kFailed;
            r.error = Status::FromErrno(ec.value(), "create " + shown_root)
                          .ToString();
          } else {
            r.status = RunStatus::kSkipped;
            r.error = "not run: " + failed_step;
          }
        } else {
          const size_t at =
              (e * reps + static_cast<size_t>(rep)) * plan.steps.size() + i;
          if (request.step_line)
            request.step_line(
                StepLabel(id, plan.steps[i]), static_cast<int>(at),
                static_cast<int>(clock.size()), clock.RemainingNs(at));
          const uint64_t started = NowNanos();
          if (request.step_started) request.step_started();
          r = RunStep(er, plan.steps[i], static_cast<int>(i), pool);
          if (request.step_finished) request.step_finished(&r);
          clock.Done(at, NowNanos() - started,
                     r.status == RunStatus::kOk
                         ? static_cast<double>(r.params.ops)
                         : 0);
          if (r.status == RunStatus::kFailed ||
              r.status == RunStatus::kPartial) {
            failed_step = r.scenario + " failed earlier on " + id;
          }
          if (InterruptRequested()) interrupted = true;
        }
        // An engine's message names the handle path; the user knows the
        // scratch directory's name.
        for (size_t at;
             !request.db_root_shown.empty() &&
             (at = r.error.find(request.db_root)) != std::string::npos;)
          r.error.replace(at, request.db_root.size(), request.db_root_shown);
        Emit(request.repeat > 1 ? request.progress : figures,
             FormatDbBenchLine(r));
        by_step[i].push_back(std::move(r));
      }
      if (er.open) {
        Status c = raw->Close();
        (void)c;  // a close error after the measurements changes nothing
      }
    }
    for (size_t i = 0; i < by_step.size(); i++) {
      if (by_step[i].empty()) continue;
      BenchResult agg = Aggregate(std::move(by_step[i]));
      if (request.repeat > 1 && agg.repeats) {
        Emit(figures, FormatDbBenchLine(agg) + " (median of " +
                          std::to_string(agg.repeats->count) + ")");
      }
      results.push_back(std::move(agg));
    }
    if (interrupted) break;
  }
  return results;
}

}  // namespace disktune::bench
