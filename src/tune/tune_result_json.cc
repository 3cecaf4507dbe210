#include <cmath>

#include "generated/version.h"
#include "src/core/sysinfo.h"
#include "src/core/units.h"
#include "src/tune/tuner.h"

namespace disktune::tune {
namespace {

using json = nlohmann::json;

// The engine options a profile states for a config: the budget's cache and
// every knob that differs from the engine's default.
EngineOptions ProfileOptions(const TuneConfig& c, const EngineModel& m) {
  const EngineOptions full = ToEngineOptions(c);
  EngineOptions o;
  o.cache_bytes = c.cache_bytes();
  for (Knob k : AllKnobs()) {
    if (k.spec != nullptr && KnobDiffers(c, m.defaults, k)) {
      k.spec->set(&o, k.spec->get(full));
    }
  }
  o.sync = c.sync;
  return o;
}

// Every knob the engine has, kept or changed: tooling reads
// engine_options.write_buffer_bytes whether or not the default was kept.
json CompleteEngineOptions(const TuneResult& r, const EngineModel& m) {
  const EngineOptions full = ToEngineOptions(r.recommendation);
  json j = ProfileEngineOptionsToJson(ProfileOptions(r.recommendation, m));
  for (const KnobSpec& k : Knobs()) {
    if (j.contains(k.json_key)) continue;
    std::optional<KnobValue> v = k.get(full);
    if (!v) v = KnobDefault(k, r.engine);
    if (v) j[std::string(k.json_key)] = KnobValueToJson(k, *v);
  }
  return j;
}

// One entry per knob: the value, the engine's default, and why it is what
// it is (the tuner's evidence for a knob it judged; "default" otherwise).
json OptionVerdicts(const TuneResult& r) {
  const EngineOptions full = ToEngineOptions(r.recommendation);
  json out = json::array();
  for (const KnobSpec& k : Knobs()) {
    std::optional<KnobValue> def = KnobDefault(k, r.engine);
    std::optional<KnobValue> v = k.get(full);
    if (!v) v = def;
    if (!v) continue;  // the engine has no such option
    json e = {{"knob", k.json_key},
              {"name", k.name},
              {"value", KnobValueToJson(k, *v)},
              {"value_text", KnobValueText(k, *v)},
              {"changed", def ? *v != *def : true}};
    if (def) e["default"] = KnobValueToJson(k, *def);
    std::string verdict = def && *v == *def ? "default" : "set";
    for (const KnobEvidence& ev : r.knobs) {
      if (ev.knob.spec != &k) continue;
      verdict = ev.status;
      if (!ev.reason.empty()) e["reason"] = ev.reason;
      if (!ev.evidence.empty()) e["evidence"] = ev.evidence;
      if (ev.gain) e["gain"] = GainToJson(*ev.gain);
    }
    // The block cache is the budget's remainder, not a searched knob.
    if (k.id == KnobId::kCacheBytes && verdict == "set") verdict = "budget";
    e["verdict"] = verdict;
    out.push_back(e);
  }
  return out;
}

// The recommendation: every option with its verdict, what changed from the
// baseline, and the memory it takes.
json RecommendationJson(const TuneResult& r, const EngineModel& m) {
  json rec;
  rec["engine_options"] = CompleteEngineOptions(r, m);
  rec["options"] = OptionVerdicts(r);
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
  return rec;
}

// The workload the tuner was given, with the shape and traits it derived.
json WorkloadJson(const TuneResult& r) {
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
  return wl;
}

// Each rung of the successive halving: its scale, size and best candidate.
json RungsJson(const TuneResult& r) {
  json rungs = json::array();
  for (const Rung& g : r.search.rungs) {
    size_t best = 0;
    for (size_t i = 1; i < g.candidates.size(); i++) {
      if (g.ops_per_sec[i] > g.ops_per_sec[best]) best = i;
    }
    json rj = {{"scale", std::round(g.scale * 1e4) / 1e4},
               {"num", static_cast<uint64_t>(
                           *WorkloadOverrides(r.workload, g.scale).num)},
               {"candidates", g.candidates.size()}};
    if (!g.candidates.empty()) {
      rj["best_ops_per_sec"] = std::round(g.ops_per_sec[best]);
      rj["best"] = ConfigText(r.candidates[g.candidates[best]]);
    }
    rungs.push_back(rj);
  }
  return rungs;
}

// The search: its method, rungs, the head-to-head of a tie, and the winner.
json SearchJson(const TuneResult& r, const EngineModel& m) {
  json search;
  search["method"] = "successive_halving";
  search["eta"] = 3;
  search["candidates"] = r.search.candidates;
  search["trials"] = r.search.trials;
  search["elapsed_ns"] = r.search.elapsed_ns;
  search["truncated"] = r.search.truncated;
  search["rungs"] = RungsJson(r);
  if (r.search.tie) {
    const HeadToHead& h = *r.search.tie;
    search["tie"] = {{"leader", ConfigText(r.candidates[h.leader])},
                     {"preferred", ConfigText(r.candidates[h.preferred])},
                     {"scale", std::round(h.scale * 1e4) / 1e4},
                     {"gain", GainToJson(h.gain)},
                     {"leader_won", h.gain.significant()}};
  }
  search["winner"] = ConfigText(r.winner);
  search["winner_engine_options"] =
      ProfileEngineOptionsToJson(ProfileOptions(r.winner, m));
  return search;
}

// One entry per judged knob: default, searched and recommended values.
json KnobEvidenceJson(const TuneResult& r, const EngineModel& m) {
  json knobs = json::array();
  for (const KnobEvidence& e : r.knobs) {
    json kj = {{"knob", KnobName(e.knob)},
               {"default", KnobValueJson(m.defaults, e.knob)},
               {"searched", KnobValueJson(r.winner, e.knob)},
               {"recommended", KnobValueJson(r.recommendation, e.knob)},
               {"status", e.status}};
    if (!e.reason.empty()) kj["reason"] = e.reason;
    if (!e.evidence.empty()) kj["evidence"] = e.evidence;
    if (e.gain) kj["gain"] = GainToJson(*e.gain);
    knobs.push_back(kj);
  }
  return knobs;
}

// The interleaved runs of the recommendation against the baseline.
json VerificationJson(const Verification& v, const Workload& w) {
  json vj;
  vj["compared"] = v.compared;
  vj["scale"] = std::round(v.scale * 1e4) / 1e4;
  vj["num"] = v.num;
  vj["trial_cache_bytes"] = v.trial_cache_bytes;
  vj["candidate_copy"] = v.candidate_copy;
  vj["baseline_copy"] = v.baseline_copy;
  vj["faithful"] = v.faithful;
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
  return vj;
}

// What no trial judged: knob values whose effect on the LSM or the
// cache only a larger copy than the budget affords shows (fidelity.h).
json UnjudgedJson(const TuneResult& r) {
  json unjudged = json::array();
  for (const UnjudgedShape& u : r.unjudged) {
    unjudged.push_back(
        {{"knobs", u.knobs},
         {"needed_scale", std::round(u.needed_scale * 1e4) / 1e4},
         {"affordable_scale", std::round(u.affordable_scale * 1e4) / 1e4},
         {"copy", u.copy}});
  }
  return unjudged;
}

// Which candidates were measured at what scales, or left out and why.
json PlanEntriesJson(const std::vector<PlanEntry>& list) {
  json out = json::array();
  for (const PlanEntry& e : list) {
    json x = {{"candidate", e.candidate}};
    if (!e.scales.empty()) {
      json scales = json::array();
      for (double sc : e.scales) scales.push_back(std::round(sc * 1e4) / 1e4);
      x["scales"] = scales;
    }
    if (!e.reason.empty()) x["reason"] = e.reason;
    if (e.predicted_ops_per_sec) {
      x["predicted_ops_per_sec"] = std::round(*e.predicted_ops_per_sec);
    }
    out.push_back(x);
  }
  return out;
}

// The evidence behind the recommendation: baseline, device, workload,
// rules, search, per-knob outcomes, verification and plan.
json EvidenceJson(const TuneResult& r, const EngineModel& m) {
  json ev;
  ev["baseline"] = {{"definition", r.baseline_definition},
                    {"engine_options", ProfileEngineOptionsToJson(
                                           ProfileOptions(r.baseline, m))}};
  if (r.baseline.entries_per_batch != 1) {
    ev["baseline"]["entries_per_batch"] = r.baseline.entries_per_batch;
  }
  ev["device_facts"] = FactsToJson(r.facts);
  ev["workload"] = WorkloadJson(r);
  json rules = json::array();
  for (const RuleRecord& rr : r.rules) rules.push_back(RuleRecordToJson(rr));
  ev["rules"] = rules;
  ev["search"] = SearchJson(r, m);
  ev["knobs"] = KnobEvidenceJson(r, m);
  if (r.verification) {
    ev["verification"] = VerificationJson(*r.verification, r.workload);
  }
  ev["unjudged"] = UnjudgedJson(r);
  ev["plan"] = {{"ranking", r.ranking_model},
                {"measured", PlanEntriesJson(r.measured)},
                {"left_out", PlanEntriesJson(r.left_out)}};
  ev["notes"] = r.notes;
  return ev;
}

}  // namespace

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
  j["recommendation"] = RecommendationJson(r, m);
  j["evidence"] = EvidenceJson(r, m);
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
