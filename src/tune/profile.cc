#include "src/tune/profile.h"

#include <cerrno>
#include <fstream>
#include <sstream>

#include "src/core/json_input.h"
#include "src/model/knob_spec.h"
#include "src/tune/json_shape.h"

namespace disktune::tune {
namespace {

using json = nlohmann::json;
using K = Shape::Kind;

const char* const kTopKeys[] = {
    "profile_version", "name",     "description", "engine",
    "engine_options",  "workload", "tune"};
// The workload keys src/bench reads, then the tuner's own.
const char* const kBenchWorkloadKeys[] = {"scenarios",
                                          "num",
                                          "reads",
                                          "writes",
                                          "threads",
                                          "value_size_bytes",
                                          "key_size_bytes",
                                          "compression_ratio",
                                          "seed"};
const char* const kTuneWorkloadKeys[] = {"measured", "entries_per_batch",
                                         "target_writes_per_sec"};

template <size_t N>
Status CheckKeys(const json& j, const char* const (&allowed)[N],
                 const char* const* extra, size_t extra_n,
                 const std::string& path) {
  if (!j.is_object()) {
    return Status::InvalidArgument(path + " must be an object, not " +
                                   JsonTypeName(j));
  }
  for (const auto& [key, value] : j.items()) {
    bool ok = false;
    for (const char* a : allowed) ok |= key == a;
    for (size_t i = 0; i < extra_n; i++) ok |= key == extra[i];
    if (ok) continue;
    std::string known;
    for (const char* a : allowed)
      known += (known.empty() ? "" : ", ") + std::string(a);
    for (size_t i = 0; i < extra_n; i++) known += ", " + std::string(extra[i]);
    return Status::InvalidArgument(path + ": unknown key '" + key +
                                   "'; known: " + known);
  }
  return Status::OK();
}

// The leaf shapes the profile's objects share.
const Shape kInt = Shape::Scalar(K::kInteger);
const Shape kNum = Shape::Scalar(K::kNumber);
const Shape kStr = Shape::Scalar(K::kString);
const Shape kBool = Shape::Scalar(K::kBool);
const Shape kScalar = Shape::Scalar(K::kScalar);
const Shape kStrList = Shape::Array(&kStr);
const Shape kNumList = Shape::Array(&kNum);
const Shape kScalarList = Shape::Array(&kScalar);

const Shape& EngineOptionsShape() {
  auto build = [] {
    std::vector<Shape::Field> fields;
    for (const KnobSpec& k : Knobs()) {
      const Shape* shape = &kInt;
      if (k.unit == KnobUnit::kCompression || k.unit == KnobUnit::kEnum) {
        shape = &kStr;
      } else if (k.unit == KnobUnit::kBool) {
        shape = &kBool;
      }
      fields.push_back({std::string(k.json_key), shape});
    }
    fields.push_back({"in_memory", &kBool});
    fields.push_back({"sync", &kBool});
    return Shape::Object(std::move(fields));
  };
  // Other shapes hold its address: rebuilt in place when the table grows
  // (only in tests, ScopedExtraKnobForTest).
  static Shape shape = build();
  static size_t rows = Knobs().size();
  if (rows != Knobs().size()) {
    shape = build();
    rows = Knobs().size();
  }
  return shape;
}

// A measured gain: median ratio, its 95% interval and the repeats.
const Shape& GainShape() {
  static const Shape k = Shape::Object({{"median", &kNum},
                                        {"ci95_low", &kNum},
                                        {"ci95_high", &kNum},
                                        {"repeats", &kInt}});
  return k;
}

// "recommendation": the options with their verdicts, and the memory.
const Shape& RecommendationShape() {
  const Shape* eo = &EngineOptionsShape();
  static const Shape kMemory = Shape::Object({{"write_buffers_bytes", &kInt},
                                              {"table_memory_bytes", &kInt},
                                              {"cache_bytes", &kInt},
                                              {"total_bytes", &kInt}});
  static const Shape kOption = Shape::Object({{"knob", &kStr, true},
                                              {"name", &kStr, true},
                                              {"value", &kScalar, true},
                                              {"value_text", &kStr},
                                              {"default", &kScalar},
                                              {"changed", &kBool, true},
                                              {"verdict", &kStr, true},
                                              {"reason", &kStr},
                                              {"evidence", &kStr},
                                              {"gain", &GainShape()}});
  static const Shape kOptions = Shape::Array(&kOption);
  static const Shape kRecommendation =
      Shape::Object({{"engine_options", eo, true},
                     {"options", &kOptions},
                     {"entries_per_batch", &kInt},
                     {"changed", &kStrList},
                     {"memory", &kMemory},
                     {"explanation", &kStrList}});
  return kRecommendation;
}

// "evidence.device_facts".
const Shape& FactsShape() {
  static const Shape kFacts = Shape::Object({{"source", &kStr},
                                             {"rand_read_4k_p50_ns", &kInt},
                                             {"rand_read_4k_p99_ns", &kInt},
                                             {"seq_write_bytes_per_sec", &kNum},
                                             {"fdatasync_point", &kStr},
                                             {"fdatasync_p50_ns", &kInt},
                                             {"fdatasync_p99_ns", &kInt},
                                             {"rotational", &kBool},
                                             {"rand_read_iops", &kNum},
                                             {"seq_read_bytes_per_sec", &kNum},
                                             {"max_sectors_kb", &kInt},
                                             {"throttle", &kStr},
                                             {"memory_bytes", &kInt},
                                             {"cpu_count", &kInt},
                                             {"snappy_bytes_per_sec", &kNum},
                                             {"fd_limit", &kInt}});
  return kFacts;
}

// "evidence.workload".
const Shape& WorkloadShape() {
  static const Shape kWorkload =
      Shape::Object({{"scenarios", &kStrList},
                     {"measured", &kStrList},
                     {"num", &kInt},
                     {"live_entries", &kInt},
                     {"key_bytes", &kInt},
                     {"value_bytes", &kInt},
                     {"user_data_bytes", &kInt},
                     {"write_share", &kNum},
                     {"point_read_share", &kNum},
                     {"scan_share", &kNum},
                     {"hot_fraction", &kNum},
                     {"cold_reads", &kBool},
                     {"durable_writes", &kBool},
                     {"target_writes_per_sec", &kNum}});
  return kWorkload;
}

// "evidence.rules".
const Shape& RulesShape() {
  static const Shape kRule = Shape::Object({{"rule", &kStr, true},
                                            {"knob", &kStr},
                                            {"fact", &kStr, true},
                                            {"decision", &kStr, true},
                                            {"candidates", &kScalarList}});
  static const Shape kRules = Shape::Array(&kRule);
  return kRules;
}

// "evidence.search": the rungs, a tie's head-to-head, the winner.
const Shape& SearchShape() {
  static const Shape kRung = Shape::Object({{"scale", &kNum},
                                            {"num", &kInt},
                                            {"candidates", &kInt},
                                            {"best_ops_per_sec", &kNum},
                                            {"best", &kStr}});
  static const Shape kRungs = Shape::Array(&kRung);
  static const Shape kTie = Shape::Object({{"leader", &kStr},
                                           {"preferred", &kStr},
                                           {"scale", &kNum},
                                           {"gain", &GainShape()},
                                           {"leader_won", &kBool},
                                           {"preferred_for", &kStr}});
  static const Shape kSearch =
      Shape::Object({{"method", &kStr},
                     {"eta", &kInt},
                     {"candidates", &kInt},
                     {"trials", &kInt},
                     {"elapsed_ns", &kInt},
                     {"truncated", &kBool},
                     {"rungs", &kRungs},
                     {"tie", &kTie},
                     {"winner", &kStr},
                     {"winner_engine_options", &EngineOptionsShape()}});
  return kSearch;
}

// "evidence.knobs".
const Shape& KnobsShape() {
  static const Shape kKnob = Shape::Object({{"knob", &kStr, true},
                                            {"default", &kScalar},
                                            {"searched", &kScalar},
                                            {"recommended", &kScalar},
                                            {"status", &kStr, true},
                                            {"reason", &kStr},
                                            {"evidence", &kStr},
                                            {"gain", &GainShape()}});
  static const Shape kKnobs = Shape::Array(&kKnob);
  return kKnobs;
}

// "evidence.verification".
const Shape& VerificationShape() {
  static const Shape kVerification =
      Shape::Object({{"compared", &kStr},
                     {"scale", &kNum},
                     {"num", &kInt},
                     {"trial_cache_bytes", &kInt},
                     {"candidate_copy", &kStr},
                     {"baseline_copy", &kStr},
                     {"faithful", &kBool},
                     {"order", &kStr},
                     {"repeats", &kInt},
                     {"baseline_ops_per_sec", &kNumList},
                     {"candidate_ops_per_sec", &kNumList},
                     {"median_gain", &kNum},
                     {"ci95_low", &kNum},
                     {"ci95_high", &kNum},
                     {"significant", &kBool},
                     {"target_writes_per_sec", &kNum},
                     {"target_met", &kBool}});
  return kVerification;
}

// "evidence.unjudged".
const Shape& UnjudgedShape() {
  static const Shape kUnjudgedOne =
      Shape::Object({{"knobs", &kStr, true},
                     {"needed_scale", &kNum, true},
                     {"affordable_scale", &kNum, true},
                     {"copy", &kStr}});
  static const Shape kUnjudged = Shape::Array(&kUnjudgedOne);
  return kUnjudged;
}

// "evidence.plan": candidates measured and left out.
const Shape& PlanShape() {
  static const Shape kMeasuredOne =
      Shape::Object({{"candidate", &kStr, true},
                     {"scales", &kNumList},
                     {"reason", &kStr},
                     {"predicted_ops_per_sec", &kNum}});
  static const Shape kMeasured = Shape::Array(&kMeasuredOne);
  static const Shape kLeftOutOne =
      Shape::Object({{"candidate", &kStr, true},
                     {"reason", &kStr, true},
                     {"predicted_ops_per_sec", &kNum}});
  static const Shape kLeftOut = Shape::Array(&kLeftOutOne);
  static const Shape kPlanShape = Shape::Object(
      {{"ranking", &kStr}, {"measured", &kMeasured}, {"left_out", &kLeftOut}});
  return kPlanShape;
}

// "evidence".
const Shape& EvidenceShape() {
  static const Shape kBaseline =
      Shape::Object({{"definition", &kStr, true},
                     {"engine_options", &EngineOptionsShape(), true},
                     {"entries_per_batch", &kInt}});
  static const Shape kEvidence =
      Shape::Object({{"baseline", &kBaseline},
                     {"device_facts", &FactsShape()},
                     {"workload", &WorkloadShape()},
                     {"rules", &RulesShape()},
                     {"search", &SearchShape()},
                     {"knobs", &KnobsShape()},
                     {"verification", &VerificationShape()},
                     {"unjudged", &UnjudgedShape()},
                     {"plan", &PlanShape()},
                     {"notes", &kStrList}});
  return kEvidence;
}

// The "tune" object (tuner.h TuneResultToJson writes it).
const Shape& TuneShape() {
  static const Shape kTune =
      Shape::Object({{"tool_version", &kStr},
                     {"created_at", &kStr},
                     {"engine", &kStr, true},
                     {"workload", &kStr, true},
                     {"memory_budget_bytes", &kInt, true},
                     {"data_size_bytes", &kInt},
                     {"time_budget_ns", &kInt},
                     {"write_budget_bytes", &kInt},
                     {"elapsed_ns", &kInt},
                     {"bytes_written", &kInt},
                     {"quick", &kBool},
                     {"verdict", &kStr, true},
                     {"recommendation", &RecommendationShape(), true},
                     {"evidence", &EvidenceShape()}});
  return kTune;
}

// Parses and validates; `bench_out` (optional) gets what src/bench read, with
// absent keys left absent so bench's own defaults (and --quick) still apply.
Result<Profile> ParseProfileImpl(const json& j, const std::string& where,
                                 bench::BenchProfile* bench_out) {
  const std::string p = where.empty() ? "profile" : where;
  if (!j.is_object()) {
    return Status::InvalidArgument(p + ": a profile is a JSON object, not " +
                                   std::string(JsonTypeName(j)));
  }
  // The version first: a newer file has keys this reader cannot know.
  auto v = j.find("profile_version");
  if (v == j.end()) {
    return Status::InvalidArgument(p +
                                   ": missing profile_version (this "
                                   "disktune reads version " +
                                   std::to_string(kProfileVersion) + ")");
  }
  if (!v->is_number_integer() || v->get<int64_t>() != kProfileVersion) {
    return Status::InvalidArgument(
        p + ": profile_version " + v->dump() +
        " is not supported (this disktune reads version " +
        std::to_string(kProfileVersion) + ")");
  }
  DT_RETURN_IF_ERROR(CheckKeys(j, kTopKeys, nullptr, 0, p));
  for (const char* key : {"name", "description", "engine"}) {
    if (j.contains(key) && !j[key].is_string()) {
      return Status::InvalidArgument(p + "." + key + " must be a string, not " +
                                     JsonTypeName(j[key]));
    }
  }
  Profile out;
  out.name = j.value("name", "");
  out.description = j.value("description", "");
  if (j.contains("engine")) out.engine = j["engine"].get<std::string>();

  // What src/bench parses, without the tuner's keys.
  json for_bench = j;
  for_bench.erase("tune");
  json tune_workload = json::object();
  if (j.contains("workload")) {
    DT_RETURN_IF_ERROR(
        CheckKeys(j["workload"], kBenchWorkloadKeys, kTuneWorkloadKeys,
                  std::size(kTuneWorkloadKeys), p + ".workload"));
    for (const char* key : kTuneWorkloadKeys) {
      if (j["workload"].contains(key)) {
        tune_workload[key] = j["workload"][key];
        for_bench["workload"].erase(key);
      }
    }
  }
  auto bp = bench::ParseBenchProfile(for_bench);
  if (!bp.ok()) {
    // bench names the paths "profile.x"; say which file.
    std::string msg = bp.status().message();
    if (msg.rfind("profile", 0) == 0) msg = msg.substr(7);
    if (!msg.empty() && msg[0] != '.' && msg[0] != ':') msg = ": " + msg;
    return Status::InvalidArgument(p + msg);
  }
  const bench::Overrides& o = bp->overrides;
  Workload& w = out.workload;
  w.name = out.name;
  w.description = out.description;
  w.scenarios = bp->scenarios;
  if (o.num) w.num = static_cast<uint64_t>(*o.num);
  if (o.reads) w.reads = static_cast<uint64_t>(*o.reads);
  if (o.writes) w.writes = static_cast<uint64_t>(*o.writes);
  if (o.threads) w.threads = static_cast<int>(*o.threads);
  if (o.key_size) w.key_size_bytes = static_cast<uint64_t>(*o.key_size);
  if (o.value_size) w.value_size_bytes = static_cast<uint64_t>(*o.value_size);
  w.compression_ratio = o.compression_ratio;
  w.seed = o.seed;
  EngineOptions& e = out.engine_options;
  MergeKnobs(o.knobs, /*overwrite=*/true, &e);
  e.in_memory = o.in_memory.value_or(false);
  e.sync = o.sync.value_or(false);
  w.durable_writes = e.sync;

  const std::string wp = p + ".workload";
  if (tune_workload.contains("measured")) {
    const json& m = tune_workload["measured"];
    if (!m.is_array()) {
      return Status::InvalidArgument(wp + ".measured must be a list, not " +
                                     JsonTypeName(m));
    }
    for (const json& s : m) {
      if (!s.is_string()) {
        return Status::InvalidArgument(wp +
                                       ".measured must hold scenario names");
      }
      if (std::find(w.scenarios.begin(), w.scenarios.end(),
                    s.get<std::string>()) == w.scenarios.end()) {
        return Status::InvalidArgument(wp + ".measured: '" +
                                       s.get<std::string>() +
                                       "' is not one of the scenarios");
      }
      w.measured.push_back(s.get<std::string>());
    }
  }
  if (tune_workload.contains("entries_per_batch")) {
    const json& b = tune_workload["entries_per_batch"];
    if (!b.is_number_integer() || b.get<int64_t>() < 1 ||
        b.get<int64_t>() > 1000000) {
      return Status::InvalidArgument(
          wp + ".entries_per_batch must be an integer in [1, 1000000]");
    }
    w.entries_per_batch = b.get<uint64_t>();
  }
  if (tune_workload.contains("target_writes_per_sec")) {
    const json& t = tune_workload["target_writes_per_sec"];
    if (!t.is_number() || !(t.get<double>() > 0)) {
      return Status::InvalidArgument(
          wp + ".target_writes_per_sec must be a number > 0");
    }
    w.target_writes_per_sec = t.get<double>();
  }
  if (j.contains("tune")) {
    DT_RETURN_IF_ERROR(CheckTuneSection(j["tune"], p + ".tune"));
    // The shape check admits a looser object than the tuner writes (the
    // recommendation without options, changed or memory; a gain without a
    // median; any outcome name): the section must also read as the tuner's
    // summary, which is what a profile carries.
    Result<model::TuneSummary> t = model::TuneSummaryFromJson(j["tune"]);
    if (!t.ok()) {
      return Status::InvalidArgument(p + "." + t.status().message() +
                                     " (not the tuner's summary)");
    }
    out.tune = std::move(*t);
  }
  if (bench_out != nullptr) {
    *bench_out = std::move(*bp);
    if (w.entries_per_batch > 1) {
      bench_out->overrides.entries_per_batch =
          static_cast<int64_t>(w.entries_per_batch);
    }
    if (out.tune)
      bench_out->memory_budget_bytes = out.tune->memory_budget_bytes;
  }
  return out;
}

}  // namespace

Status CheckTuneSection(const json& tune, const std::string& path) {
  (void)EngineOptionsShape();  // brings the nested engine options up to date
  return TuneShape().Check(tune, path);
}

Result<Profile> ParseProfile(const json& j, const std::string& where) {
  return ParseProfileImpl(j, where, nullptr);
}

Result<Profile> ParseProfileText(std::string_view text,
                                 const std::string& where) {
  Result<json> j = ParseJsonInput(text, where);
  if (!j.ok()) return j.status();
  return GuardJson(where, [&] { return ParseProfile(*j, where); });
}

Result<Profile> ReadProfile(const std::string& path) {
  Result<json> j = ReadJsonInput(path, "profile");
  if (!j.ok()) return j.status();
  return GuardJson(path, [&] { return ParseProfile(*j, path); });
}

json ProfileEngineOptionsToJson(const EngineOptions& o) {
  json j = KnobsToJson(o);
  if (o.in_memory) j["in_memory"] = true;
  if (o.sync) j["sync"] = true;
  return j;
}

json ProfileToJson(const Profile& p) {
  json j;
  j["profile_version"] = kProfileVersion;
  if (!p.name.empty()) j["name"] = p.name;
  if (!p.description.empty()) j["description"] = p.description;
  if (p.engine) j["engine"] = *p.engine;
  EngineOptions e = p.engine_options;
  e.sync = e.sync || p.workload.durable_writes;
  json eo = ProfileEngineOptionsToJson(e);
  if (!eo.empty()) j["engine_options"] = eo;
  const Workload& w = p.workload;
  json wl;
  wl["scenarios"] = w.scenarios;
  if (!w.measured.empty()) wl["measured"] = w.measured;
  wl["num"] = w.num;
  if (w.reads) wl["reads"] = *w.reads;
  if (w.writes) wl["writes"] = *w.writes;
  wl["threads"] = w.threads;
  if (w.key_size_bytes) wl["key_size_bytes"] = *w.key_size_bytes;
  if (w.value_size_bytes) wl["value_size_bytes"] = *w.value_size_bytes;
  if (w.compression_ratio) wl["compression_ratio"] = *w.compression_ratio;
  if (w.seed) wl["seed"] = *w.seed;
  if (w.entries_per_batch != 1) wl["entries_per_batch"] = w.entries_per_batch;
  if (w.target_writes_per_sec) {
    wl["target_writes_per_sec"] = *w.target_writes_per_sec;
  }
  j["workload"] = wl;
  if (p.tune) j["tune"] = model::TuneSummaryToJson(*p.tune);
  return j;
}

Result<bench::BenchProfile> ReadProfileForBench(const std::string& path) {
  Result<json> j = ReadJsonInput(path, "--profile");
  if (!j.ok()) return j.status();
  return GuardJson("--profile " + path, [&]() -> Result<bench::BenchProfile> {
    bench::BenchProfile b;
    auto p = ParseProfileImpl(*j, "--profile " + path, &b);
    if (!p.ok()) return p.status();
    return b;
  });
}

}  // namespace disktune::tune
