#include "src/model/tune_summary.h"

#include <type_traits>

namespace disktune::model {
namespace {

using json = nlohmann::json;

// ---- writing ----

json OptionToJson(const TunedOption& o) {
  json e = {{"knob", o.knob},       {"name", o.name},
            {"value", o.value},     {"value_text", o.value_text},
            {"changed", o.changed}, {"verdict", KnobOutcomeName(o.outcome)}};
  if (o.default_value) e["default"] = *o.default_value;
  if (!o.reason.empty()) e["reason"] = o.reason;
  if (o.evidence != KnobProof::kNone) e["evidence"] = KnobProofName(o.evidence);
  if (o.gain) e["gain"] = GainFigureToJson(*o.gain);
  return e;
}

json RecommendationToJson(const TuneRecommendation& r) {
  json rec;
  rec["engine_options"] = r.engine_options;
  json options = json::array();
  for (const TunedOption& o : r.options) options.push_back(OptionToJson(o));
  rec["options"] = options;
  if (r.entries_per_batch) rec["entries_per_batch"] = *r.entries_per_batch;
  rec["changed"] = r.changed;
  rec["memory"] = {{"write_buffers_bytes", r.memory.write_buffers_bytes},
                   {"cache_bytes", r.memory.cache_bytes},
                   {"total_bytes", r.memory.total_bytes}};
  if (r.memory.table_memory_bytes) {
    rec["memory"]["table_memory_bytes"] = *r.memory.table_memory_bytes;
  }
  rec["explanation"] = r.explanation;
  return rec;
}

json JudgedKnobToJson(const JudgedKnob& k) {
  json kj = {{"knob", k.knob},
             {"default", k.default_value},
             {"searched", k.searched},
             {"recommended", k.recommended},
             {"status", KnobOutcomeName(k.outcome)}};
  if (!k.reason.empty()) kj["reason"] = k.reason;
  if (k.evidence != KnobProof::kNone)
    kj["evidence"] = KnobProofName(k.evidence);
  if (k.gain) kj["gain"] = GainFigureToJson(*k.gain);
  return kj;
}

json VerificationToJson(const VerificationSummary& v) {
  json vj;
  vj["compared"] = v.compared;
  vj["scale"] = v.scale;
  vj["num"] = v.num;
  if (v.trial_cache_bytes) vj["trial_cache_bytes"] = *v.trial_cache_bytes;
  if (v.candidate_copy) vj["candidate_copy"] = *v.candidate_copy;
  if (v.baseline_copy) vj["baseline_copy"] = *v.baseline_copy;
  if (v.faithful) vj["faithful"] = *v.faithful;
  if (v.order) vj["order"] = *v.order;
  vj["repeats"] = v.gain.repeats;
  vj["baseline_ops_per_sec"] = v.baseline_ops_per_sec;
  vj["candidate_ops_per_sec"] = v.candidate_ops_per_sec;
  vj["median_gain"] = v.gain.median;
  vj["ci95_low"] = v.gain.ci95_low;
  vj["ci95_high"] = v.gain.ci95_high;
  vj["significant"] = v.significant;
  if (v.target_writes_per_sec) {
    vj["target_writes_per_sec"] = *v.target_writes_per_sec;
  }
  if (v.target_met) vj["target_met"] = *v.target_met;
  return vj;
}

json SearchToJson(const SearchSummary& s) {
  json j;
  j["method"] = s.method;
  if (s.eta) j["eta"] = *s.eta;
  j["candidates"] = s.candidates;
  j["trials"] = s.trials;
  if (s.elapsed_ns) j["elapsed_ns"] = *s.elapsed_ns;
  if (s.truncated) j["truncated"] = *s.truncated;
  if (s.rungs) j["rungs"] = *s.rungs;
  if (s.tie) j["tie"] = *s.tie;
  if (!s.winner.empty()) j["winner"] = s.winner;
  if (s.winner_engine_options) {
    j["winner_engine_options"] = *s.winner_engine_options;
  }
  return j;
}

json EvidenceToJson(const TuneEvidence& e) {
  json ev = e.other.is_object() ? e.other : json::object();
  json knobs = json::array();
  for (const JudgedKnob& k : e.knobs) knobs.push_back(JudgedKnobToJson(k));
  ev["knobs"] = knobs;
  if (e.search) ev["search"] = SearchToJson(*e.search);
  if (e.verification) ev["verification"] = VerificationToJson(*e.verification);
  ev["notes"] = e.notes;
  return ev;
}

// ---- reading ----

// The first member without the tune object's shape; caught at the top.
struct ShapeError {
  std::string path;
  std::string what;
};

const json& Need(const json& j, const char* key, const std::string& path) {
  auto it = j.find(key);
  if (it == j.end()) throw ShapeError{path + "." + key, "is missing"};
  return *it;
}

const json* Find(const json& j, const char* key) {
  auto it = j.find(key);
  return it == j.end() || it->is_null() ? nullptr : &*it;
}

template <typename T>
T As(const json& v, const std::string& path) {
  if constexpr (std::is_same_v<T, std::string>) {
    if (!v.is_string()) throw ShapeError{path, "is not a string"};
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!v.is_boolean()) throw ShapeError{path, "is not true or false"};
  } else if constexpr (std::is_same_v<T, double>) {
    if (!v.is_number()) throw ShapeError{path, "is not a number"};
  } else if constexpr (std::is_unsigned_v<T>) {
    if (!v.is_number_unsigned()) {
      throw ShapeError{path, "is not a non-negative integer"};
    }
  } else {
    if (!v.is_number_integer()) throw ShapeError{path, "is not an integer"};
  }
  return v.get<T>();
}

template <typename T>
T Req(const json& j, const char* key, const std::string& path) {
  return As<T>(Need(j, key, path), path + "." + key);
}

template <typename T>
std::optional<T> Opt(const json& j, const char* key, const std::string& path) {
  const json* v = Find(j, key);
  if (v == nullptr) return std::nullopt;
  return As<T>(*v, path + "." + key);
}

const json& Object(const json& v, const std::string& path) {
  if (!v.is_object()) throw ShapeError{path, "is not an object"};
  return v;
}

const json& Array(const json& v, const std::string& path) {
  if (!v.is_array()) throw ShapeError{path, "is not an array"};
  return v;
}

std::vector<std::string> Strings(const json& v, const std::string& path) {
  std::vector<std::string> out;
  size_t i = 0;
  for (const json& s : Array(v, path)) {
    out.push_back(As<std::string>(s, path + "[" + std::to_string(i++) + "]"));
  }
  return out;
}

std::vector<double> Numbers(const json& v, const std::string& path) {
  std::vector<double> out;
  size_t i = 0;
  for (const json& s : Array(v, path)) {
    out.push_back(As<double>(s, path + "[" + std::to_string(i++) + "]"));
  }
  return out;
}

// A knob value: an integer, a string or a boolean (null where the tuner had
// none to state).
json KnobValue(const json& v, const std::string& path) {
  if (v.is_structured() || v.is_binary()) {
    throw ShapeError{path, "is not an integer, a string or a boolean"};
  }
  return v;
}

KnobOutcome Outcome(const json& j, const char* key, const std::string& path) {
  const std::string name = Req<std::string>(j, key, path);
  std::optional<KnobOutcome> o = ParseKnobOutcome(name);
  if (!o) throw ShapeError{path + "." + key, "names no outcome: " + name};
  return *o;
}

KnobProof Proof(const json& j, const std::string& path) {
  std::optional<std::string> name = Opt<std::string>(j, "evidence", path);
  if (!name) return KnobProof::kNone;
  std::optional<KnobProof> p = ParseKnobProof(*name);
  if (!p) throw ShapeError{path + ".evidence", "names no evidence: " + *name};
  return *p;
}

GainFigure Gain(const json& v, const std::string& path) {
  Object(v, path);
  GainFigure g;
  g.median = Req<double>(v, "median", path);
  g.ci95_low = Opt<double>(v, "ci95_low", path).value_or(g.median);
  g.ci95_high = Opt<double>(v, "ci95_high", path).value_or(g.median);
  g.repeats = Opt<int>(v, "repeats", path).value_or(0);
  return g;
}

std::optional<GainFigure> OptGain(const json& j, const std::string& path) {
  const json* v = Find(j, "gain");
  if (v == nullptr) return std::nullopt;
  return Gain(*v, path + ".gain");
}

TunedOption Option(const json& v, const std::string& path) {
  Object(v, path);
  TunedOption o;
  o.knob = Req<std::string>(v, "knob", path);
  o.name = Req<std::string>(v, "name", path);
  o.value = KnobValue(Need(v, "value", path), path + ".value");
  o.value_text = Opt<std::string>(v, "value_text", path).value_or("");
  if (const json* d = Find(v, "default")) {
    o.default_value = KnobValue(*d, path + ".default");
  }
  o.changed = Req<bool>(v, "changed", path);
  o.outcome = Outcome(v, "verdict", path);
  o.reason = Opt<std::string>(v, "reason", path).value_or("");
  o.evidence = Proof(v, path);
  o.gain = OptGain(v, path);
  return o;
}

TuneRecommendation Recommendation(const json& v, const std::string& path) {
  Object(v, path);
  TuneRecommendation r;
  r.engine_options =
      Object(Need(v, "engine_options", path), path + ".engine_options");
  size_t i = 0;
  for (const json& o : Array(Need(v, "options", path), path + ".options")) {
    r.options.push_back(
        Option(o, path + ".options[" + std::to_string(i++) + "]"));
  }
  r.entries_per_batch = Opt<int64_t>(v, "entries_per_batch", path);
  r.changed = Strings(Need(v, "changed", path), path + ".changed");
  const std::string mp = path + ".memory";
  const json& m = Object(Need(v, "memory", path), mp);
  r.memory.write_buffers_bytes = Req<uint64_t>(m, "write_buffers_bytes", mp);
  r.memory.table_memory_bytes = Opt<uint64_t>(m, "table_memory_bytes", mp);
  r.memory.cache_bytes = Req<uint64_t>(m, "cache_bytes", mp);
  r.memory.total_bytes = Req<uint64_t>(m, "total_bytes", mp);
  if (const json* e = Find(v, "explanation")) {
    r.explanation = Strings(*e, path + ".explanation");
  }
  return r;
}

JudgedKnob Judged(const json& v, const std::string& path) {
  Object(v, path);
  JudgedKnob k;
  k.knob = Req<std::string>(v, "knob", path);
  if (const json* d = Find(v, "default")) {
    k.default_value = KnobValue(*d, path + ".default");
  }
  if (const json* d = Find(v, "searched")) {
    k.searched = KnobValue(*d, path + ".searched");
  }
  if (const json* d = Find(v, "recommended")) {
    k.recommended = KnobValue(*d, path + ".recommended");
  }
  k.outcome = Outcome(v, "status", path);
  k.reason = Opt<std::string>(v, "reason", path).value_or("");
  k.evidence = Proof(v, path);
  k.gain = OptGain(v, path);
  return k;
}

VerificationSummary Verification(const json& v, const std::string& p) {
  Object(v, p);
  VerificationSummary s;
  s.compared = Opt<std::string>(v, "compared", p).value_or("");
  s.scale = Opt<double>(v, "scale", p).value_or(0);
  s.num = Opt<uint64_t>(v, "num", p).value_or(0);
  s.trial_cache_bytes = Opt<uint64_t>(v, "trial_cache_bytes", p);
  s.candidate_copy = Opt<std::string>(v, "candidate_copy", p);
  s.baseline_copy = Opt<std::string>(v, "baseline_copy", p);
  s.faithful = Opt<bool>(v, "faithful", p);
  s.order = Opt<std::string>(v, "order", p);
  if (const json* x = Find(v, "baseline_ops_per_sec")) {
    s.baseline_ops_per_sec = Numbers(*x, p + ".baseline_ops_per_sec");
  }
  if (const json* x = Find(v, "candidate_ops_per_sec")) {
    s.candidate_ops_per_sec = Numbers(*x, p + ".candidate_ops_per_sec");
  }
  s.gain.repeats = Opt<int>(v, "repeats", p).value_or(0);
  s.gain.median = Opt<double>(v, "median_gain", p).value_or(1);
  s.gain.ci95_low = Opt<double>(v, "ci95_low", p).value_or(s.gain.median);
  s.gain.ci95_high = Opt<double>(v, "ci95_high", p).value_or(s.gain.median);
  s.significant = Opt<bool>(v, "significant", p).value_or(false);
  s.target_writes_per_sec = Opt<double>(v, "target_writes_per_sec", p);
  s.target_met = Opt<bool>(v, "target_met", p);
  return s;
}

SearchSummary Search(const json& v, const std::string& p) {
  Object(v, p);
  SearchSummary s;
  s.method = Opt<std::string>(v, "method", p).value_or("");
  s.eta = Opt<int>(v, "eta", p);
  s.candidates = Opt<int>(v, "candidates", p).value_or(0);
  s.trials = Opt<int>(v, "trials", p).value_or(0);
  s.elapsed_ns = Opt<uint64_t>(v, "elapsed_ns", p);
  s.truncated = Opt<bool>(v, "truncated", p);
  if (const json* r = Find(v, "rungs")) s.rungs = Array(*r, p + ".rungs");
  if (const json* t = Find(v, "tie")) s.tie = Object(*t, p + ".tie");
  s.winner = Opt<std::string>(v, "winner", p).value_or("");
  if (const json* w = Find(v, "winner_engine_options")) {
    s.winner_engine_options = Object(*w, p + ".winner_engine_options");
  }
  return s;
}

TuneEvidence Evidence(const json& v, const std::string& path) {
  Object(v, path);
  TuneEvidence e;
  if (const json* knobs = Find(v, "knobs")) {
    size_t i = 0;
    for (const json& k : Array(*knobs, path + ".knobs")) {
      e.knobs.push_back(
          Judged(k, path + ".knobs[" + std::to_string(i++) + "]"));
    }
  }
  if (const json* s = Find(v, "search")) {
    e.search = Search(*s, path + ".search");
  }
  if (const json* ver = Find(v, "verification")) {
    e.verification = Verification(*ver, path + ".verification");
  }
  if (const json* notes = Find(v, "notes")) {
    e.notes = Strings(*notes, path + ".notes");
  }
  e.other = v;
  for (const char* k : {"knobs", "search", "verification", "notes"}) {
    e.other.erase(k);
  }
  return e;
}

TuneSummary Summary(const json& j) {
  const std::string p = "tune";
  Object(j, p);
  TuneSummary t;
  t.tool_version = Opt<std::string>(j, "tool_version", p);
  t.created_at = Opt<std::string>(j, "created_at", p);
  t.engine = Req<std::string>(j, "engine", p);
  t.workload = Req<std::string>(j, "workload", p);
  t.memory_budget_bytes = Req<uint64_t>(j, "memory_budget_bytes", p);
  t.data_size_bytes = Opt<uint64_t>(j, "data_size_bytes", p);
  t.time_budget_ns = Opt<uint64_t>(j, "time_budget_ns", p);
  t.elapsed_ns = Opt<uint64_t>(j, "elapsed_ns", p);
  t.write_budget_bytes = Opt<uint64_t>(j, "write_budget_bytes", p);
  t.bytes_written = Opt<uint64_t>(j, "bytes_written", p);
  t.quick = Opt<bool>(j, "quick", p);
  t.verdict = Req<std::string>(j, "verdict", p);
  t.recommendation =
      Recommendation(Need(j, "recommendation", p), p + ".recommendation");
  if (const json* ev = Find(j, "evidence")) {
    t.evidence = Evidence(*ev, p + ".evidence");
  }
  return t;
}

}  // namespace

json GainFigureToJson(const GainFigure& g) {
  return {{"median", g.median},
          {"ci95_low", g.ci95_low},
          {"ci95_high", g.ci95_high},
          {"repeats", g.repeats}};
}

json TuneSummaryToJson(const TuneSummary& t) {
  json j;
  if (t.tool_version) j["tool_version"] = *t.tool_version;
  if (t.created_at) j["created_at"] = *t.created_at;
  j["engine"] = t.engine;
  j["workload"] = t.workload;
  j["memory_budget_bytes"] = t.memory_budget_bytes;
  if (t.data_size_bytes) j["data_size_bytes"] = *t.data_size_bytes;
  if (t.time_budget_ns) j["time_budget_ns"] = *t.time_budget_ns;
  if (t.elapsed_ns) j["elapsed_ns"] = *t.elapsed_ns;
  if (t.write_budget_bytes) j["write_budget_bytes"] = *t.write_budget_bytes;
  if (t.bytes_written) j["bytes_written"] = *t.bytes_written;
  if (t.quick) j["quick"] = *t.quick;
  j["verdict"] = t.verdict;
  j["recommendation"] = RecommendationToJson(t.recommendation);
  if (t.evidence) j["evidence"] = EvidenceToJson(*t.evidence);
  return j;
}

Result<TuneSummary> TuneSummaryFromJson(const json& j) {
  try {
    return Summary(j);
  } catch (const ShapeError& e) {
    return Status::Corruption(e.path + " " + e.what);
  } catch (const json::exception& e) {
    return Status::Corruption(std::string("tune: ") + e.what());
  }
}

}  // namespace disktune::model
