#include "src/tune/workload.h"

#include <algorithm>
#include <cmath>

#include "src/bench/runner.h"
#include "src/bench/scenario.h"
#include "src/bench/scenario_sets.h"
#include "src/tune/embedded_profiles.h"
#include "src/tune/profile.h"

namespace disktune::tune {
namespace {

// The tuner's estimate of each scenario's mix of engine calls, for the rules.
// One row per scenario of src/bench's table; a scenario missing here counts as
// doing nothing the knobs affect (CPU yardsticks, open, compact). Key order,
// pulses and loads are the table's own columns (bench::ScenarioSpec).
struct ScenarioTraits {
  std::string_view name;
  double write;
  double point_read;
  double scan;
};

constexpr ScenarioTraits kTraits[] = {
    {"fillseq", 1, 0, 0},
    {"fillbatch", 1, 0, 0},
    {"fillrandom", 1, 0, 0},
    {"overwrite", 1, 0, 0},
    {"fillsync", 1, 0, 0},
    {"fill100K", 1, 0, 0},
    {"fillrandbatch", 1, 0, 0},
    {"fillrand100K", 1, 0, 0},
    {"deleteseq", 1, 0, 0},
    {"deleterandom", 1, 0, 0},
    {"readseq", 0, 0, 1},
    {"readreverse", 0, 0, 1},
    {"readrandom", 0, 1, 0},
    {"readrandom-cold", 0, 1, 0},
    {"readseq-cold", 0, 0, 1},
    {"readmissing", 0, 1, 0},
    {"readhot", 0, 1, 0},
    {"readrandomsmall", 0, 1, 0},
    {"seekrandom", 0, 0, 1},
    {"seekordered", 0, 0, 1},
    {"readwhilewriting", 0.1, 0.9, 0},
    {"utxo-load", 1, 0, 0},
    // A pulse: 90K sorted reads from a cold page cache, then 210K inserts
    // and 30K deletes; the reads take most of the time.
    {"utxo-pulse", 0.3, 0.7, 0},
    {"fillrandom-threads", 1, 0, 0},
    {"fillrandom-growth", 1, 0, 0},
    {"ycsb-load", 1, 0, 0},
    {"ycsb-a", 0.5, 0.5, 0},
    {"ycsb-b", 0.05, 0.95, 0},
    {"ycsb-c", 0, 1, 0},
    {"ycsb-d", 0.05, 0.95, 0},
    {"ycsb-e", 0.05, 0, 0.95},
    {"ycsb-f", 0.5, 0.5, 0},
};

// Fraction of the keys that draw most reads: YCSB's zipfian 0.99 sends ~80%
// of requests to ~20% of the keys, "latest" to fewer still, readhot to 1%.
double HotFraction(bench::KeyOrder keys) {
  switch (keys) {
    case bench::KeyOrder::kHot:
      return 0.01;
    case bench::KeyOrder::kZipfian:
      return 0.2;
    case bench::KeyOrder::kLatest:
      return 0.1;
    default:
      return 1;
  }
}

const ScenarioTraits* FindTraits(std::string_view name) {
  for (const ScenarioTraits& t : kTraits) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

std::vector<Workload> MakeCodeWorkloads() {
  std::vector<Workload> v;
  {
    Workload w;
    w.name = "write-heavy";
    w.description =
        "random inserts into a fresh DB, then random overwrites "
        "(fillrandom + overwrite); both scored";
    w.scenarios = {"fillrandom", "overwrite"};
    v.push_back(w);
  }
  {
    Workload w;
    w.name = "read-heavy";
    w.description =
        "random point reads (readrandom) after a random fill; the reads are "
        "scored";
    w.scenarios = {"fillrandom", "readrandom"};
    w.measured = {"readrandom"};
    v.push_back(w);
  }
  {
    Workload w;
    w.name = "mixed";
    w.description =
        "a random fill, then as many random overwrites as random reads; "
        "overwrites and reads scored";
    w.scenarios = {"fillrandom", "overwrite", "readrandom"};
    w.measured = {"overwrite", "readrandom"};
    v.push_back(w);
  }
  for (Workload& w : v) w.source = "built-in";
  return v;
}

bool LooksLikePath(const std::string& s) {
  return s.find('/') != std::string::npos ||
         (s.size() > 5 && s.compare(s.size() - 5, 5, ".json") == 0);
}

uint64_t ScaleCount(uint64_t v, double scale, uint64_t floor_value) {
  return std::max<uint64_t>(
      floor_value,
      static_cast<uint64_t>(std::llround(static_cast<double>(v) * scale)));
}

}  // namespace

std::span<const Workload> CodeWorkloads() {
  static const std::vector<Workload> kWorkloads = MakeCodeWorkloads();
  return kWorkloads;
}

std::vector<std::string> BuiltinWorkloadNames() {
  std::vector<std::string> names;
  for (const Workload& w : CodeWorkloads()) names.push_back(w.name);
  for (const EmbeddedProfile& p : EmbeddedProfiles()) {
    if (std::find(names.begin(), names.end(), p.name) == names.end()) {
      names.emplace_back(p.name);
    }
  }
  return names;
}

std::string BuiltinWorkloadList() {
  std::string out;
  for (const std::string& n : BuiltinWorkloadNames()) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

Status ValidateWorkload(const Workload& w) {
  if (w.scenarios.empty()) {
    return Status::InvalidArgument("workload '" + w.name +
                                   "' names no scenarios");
  }
  for (const std::string& s : w.scenarios) {
    if (bench::FindScenario(s) == nullptr) {
      // A set expands to scenarios the tuner cannot score one by one.
      std::string hint = bench::FindScenarioSet(s) != nullptr
                             ? " (a scenario set; list its scenarios instead)"
                             : "";
      return Status::InvalidArgument("workload '" + w.name +
                                     "': unknown scenario '" + s + "'" + hint);
    }
  }
  for (const std::string& m : w.measured) {
    if (std::find(w.scenarios.begin(), w.scenarios.end(), m) ==
        w.scenarios.end()) {
      return Status::InvalidArgument("workload '" + w.name +
                                     "': measured step '" + m +
                                     "' is not among its scenarios");
    }
  }
  if (w.target_writes_per_sec && !(*w.target_writes_per_sec > 0)) {
    return Status::InvalidArgument("workload '" + w.name +
                                   "': target_writes_per_sec must be > 0");
  }
  return Status::OK();
}

Result<Workload> ResolveWorkload(const std::string& name_or_path) {
  if (name_or_path.empty()) {
    return Status::InvalidArgument(
        "--workload is empty; built-in: " + BuiltinWorkloadList() +
        "; or a profile file (.json)");
  }
  for (const Workload& w : CodeWorkloads()) {
    if (w.name == name_or_path) return w;
  }
  for (const EmbeddedProfile& p : EmbeddedProfiles()) {
    if (p.name != name_or_path) continue;
    auto profile = ParseProfileText(p.json, "profile " + std::string(p.name));
    if (!profile.ok()) return profile.status();
    Workload w = profile->workload;
    w.source = "profile " + std::string(p.name) + " (checked in)";
    return w;
  }
  if (!LooksLikePath(name_or_path)) {
    return Status::InvalidArgument(
        "--workload '" + name_or_path + "': unknown; built-in: " +
        BuiltinWorkloadList() + "; or a profile file (.json)");
  }
  auto profile = ReadProfile(name_or_path);
  if (!profile.ok()) {
    return profile.status().WithContext("--workload " + name_or_path);
  }
  Workload w = profile->workload;
  w.source = name_or_path;
  return w;
}

WorkloadTraits TraitsOf(const Workload& w) {
  WorkloadTraits t;
  double n = 0, hot = 0;
  bool only_seq = true;
  for (const std::string& s : w.scenarios) {
    bool scored =
        w.measured.empty() ||
        std::find(w.measured.begin(), w.measured.end(), s) != w.measured.end();
    if (!scored) continue;
    const ScenarioTraits* st = FindTraits(s);
    const bench::ScenarioSpec* spec = bench::FindScenario(s);
    if (st == nullptr || spec == nullptr) continue;
    n += 1;
    t.write_share += st->write;
    t.point_read_share += st->point_read;
    t.scan_share += st->scan;
    hot += HotFraction(spec->keys) * (st->point_read + st->scan);
    t.cold_reads |= spec->pulsed;
    only_seq &= spec->keys == bench::KeyOrder::kSequential || st->write == 0;
  }
  if (n > 0) {
    t.write_share /= n;
    t.point_read_share /= n;
    t.scan_share /= n;
  }
  double reads = t.point_read_share + t.scan_share;
  t.hot_fraction =
      reads > 0 ? std::min(1.0, hot / (reads * std::max(n, 1.0))) : 1.0;
  t.sequential_writes_only = only_seq && t.write_share > 0;
  return t;
}

Result<DataShape> ShapeOf(const Workload& w, std::string_view engine) {
  DT_RETURN_IF_ERROR(ValidateWorkload(w));
  bench::BenchRequest req;
  req.engines = {std::string(engine)};
  req.scenarios = w.scenarios;
  req.user = WorkloadOverrides(w, 1.0);
  req.available = {EngineInfo{engine, "", false}};
  auto plan = bench::PlanBench(req);
  if (!plan.ok()) {
    return plan.status().WithContext("workload '" + w.name + "'");
  }
  DataShape shape;
  uint64_t num = 0;
  uint64_t sequential = 0;
  double random = 0;
  bool sized = false;
  for (const bench::PlannedStep& step : plan->steps) {
    const ScenarioTraits* st = FindTraits(step.spec->name);
    if (st == nullptr || st->write == 0) continue;
    const bench::BenchParams& p = step.params;
    if (!sized) {
      shape.key_bytes = p.key_size;
      shape.value_bytes = p.value_size;
      shape.compression_ratio = p.compression_ratio;
      sized = true;
    }
    num = std::max(num, p.num);
    uint64_t writes = step.spec->pulsed
                          ? p.pulse_inserts * static_cast<uint64_t>(p.pulses)
                          : static_cast<uint64_t>(
                                st->write * static_cast<double>(p.Writes()));
    if (step.spec->each_key_once) {
      sequential += writes;
    } else {
      random += static_cast<double>(writes);
    }
  }
  if (!sized) {
    const bench::BenchParams& p = plan->steps.front().params;
    shape.key_bytes = p.key_size;
    shape.value_bytes = p.value_size;
    shape.compression_ratio = p.compression_ratio;
    num = p.num;
  }
  double n = static_cast<double>(std::max<uint64_t>(num, 1));
  double distinct_random = n * (1.0 - std::exp(-random / n));
  shape.live_entries = std::max<uint64_t>(
      1,
      std::min<uint64_t>(num + sequential,
                         sequential + static_cast<uint64_t>(distinct_random)));
  return shape;
}

Status ApplyDataSize(uint64_t bytes, std::string_view engine, Workload* w) {
  auto shape = ShapeOf(*w, engine);
  if (!shape.ok()) return shape.status();
  uint64_t entry = shape->key_bytes + shape->value_bytes;
  uint64_t num = std::max<uint64_t>(1, bytes / std::max<uint64_t>(entry, 1));
  // Op counts given relative to the old key space follow it.
  double ratio = static_cast<double>(num) / static_cast<double>(w->num);
  if (w->reads) w->reads = ScaleCount(*w->reads, ratio, 1);
  if (w->writes) w->writes = ScaleCount(*w->writes, ratio, 1);
  w->num = num;
  return Status::OK();
}

double EffectiveScale(const Workload& w, double scale) {
  scale = std::clamp(scale, 0.0, 1.0);
  uint64_t num = ScaleCount(w.num, scale, std::min(w.num, kMinTrialNum));
  return static_cast<double>(num) / static_cast<double>(w.num);
}

bench::Overrides WorkloadOverrides(const Workload& w, double scale) {
  double s = EffectiveScale(w, scale);
  bench::Overrides o;
  o.num = static_cast<int64_t>(ScaleCount(w.num, s, 1));
  if (w.reads) o.reads = static_cast<int64_t>(ScaleCount(*w.reads, s, 1));
  if (w.writes) o.writes = static_cast<int64_t>(ScaleCount(*w.writes, s, 1));
  o.threads = w.threads;
  if (w.key_size_bytes) o.key_size = static_cast<int64_t>(*w.key_size_bytes);
  if (w.value_size_bytes) {
    o.value_size = static_cast<int64_t>(*w.value_size_bytes);
  }
  o.compression_ratio = w.compression_ratio;
  o.seed = w.seed;
  if (w.entries_per_batch > 1) {
    o.entries_per_batch = static_cast<int64_t>(w.entries_per_batch);
  }
  if (w.durable_writes) o.sync = true;
  // UTXO pulses read, insert and delete fixed counts: shrink them with the
  // key space so a pulse touches the same fraction of the data.
  bench::BenchParams defaults;
  o.pulse_reads = static_cast<int64_t>(ScaleCount(defaults.pulse_reads, s, 1));
  o.pulse_inserts =
      static_cast<int64_t>(ScaleCount(defaults.pulse_inserts, s, 0));
  o.pulse_deletes =
      static_cast<int64_t>(ScaleCount(defaults.pulse_deletes, s, 0));
  return o;
}

}  // namespace disktune::tune
