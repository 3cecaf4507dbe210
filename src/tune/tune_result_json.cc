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
  o.Set(KnobId::kCacheBytes, c.cache_bytes());
  for (Knob k : AllKnobs()) {
    if (k.spec != nullptr && KnobDiffers(c, m.defaults, k)) {
      o.Set(k.spec->id, full.Get(k.spec->id));
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
    std::optional<KnobValue> v = full.Get(k.id);
    if (!v) v = KnobDefault(k, r.engine);
    if (v) j[std::string(k.json_key)] = KnobValueToJson(k, *v);
  }
  return j;
}

// One entry per knob: the value, the engine's default, and why it is what
// it is (the tuner's evidence for a knob it judged; "default" otherwise).
std::vector<model::TunedOption> OptionVerdicts(const TuneResult& r) {
  const EngineOptions full = ToEngineOptions(r.recommendation);
  std::vector<model::TunedOption> out;
  for (const KnobSpec& k : Knobs()) {
    std::optional<KnobValue> def = KnobDefault(k, r.engine);
    std::optional<KnobValue> v = full.Get(k.id);
    if (!v) v = def;
    if (!v) continue;  // the engine has no such option
    model::TunedOption e;
    e.knob = k.json_key;
    e.name = k.name;
    e.value = KnobValueToJson(k, *v);
    e.value_text = KnobValueText(k, *v);
    e.changed = def ? *v != *def : true;
    if (def) e.default_value = KnobValueToJson(k, *def);
    e.outcome = def && *v == *def ? model::KnobOutcome::kDefault
                                  : model::KnobOutcome::kSet;
    for (const KnobEvidence& ev : r.knobs) {
      if (ev.knob.spec != &k) continue;
      e.outcome = ev.outcome;
      e.reason = ev.reason;
      e.evidence = ev.evidence;
      if (ev.gain) e.gain = GainFigureOf(*ev.gain);
    }
    // The block cache is the budget's remainder, not a searched knob.
    if (k.id == KnobId::kCacheBytes && e.outcome == model::KnobOutcome::kSet) {
      e.outcome = model::KnobOutcome::kBudget;
    }
    out.push_back(std::move(e));
  }
  return out;
}

// The recommendation: every option with its verdict, what changed from the
// baseline, and the memory it takes.
model::TuneRecommendation Recommendation(const TuneResult& r,
                                         const EngineModel& m) {
  model::TuneRecommendation rec;
  rec.engine_options = CompleteEngineOptions(r, m);
  rec.options = OptionVerdicts(r);
  if (r.recommendation.entries_per_batch != 1) {
    rec.entries_per_batch = r.recommendation.entries_per_batch;
  }
  for (Knob k : AllKnobs()) {
    if (KnobDiffers(r.recommendation, r.baseline, k))
      rec.changed.push_back(std::string(KnobName(k)));
  }
  rec.memory = {.write_buffers_bytes = r.memory.write_buffers_bytes,
                .table_memory_bytes = r.memory.table_memory_bytes,
                .cache_bytes = r.memory.cache_bytes,
                .total_bytes = r.memory.total_bytes()};
  rec.explanation = r.explanation;
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
model::SearchSummary SearchOf(const TuneResult& r, const EngineModel& m) {
  model::SearchSummary search;
  search.method = "successive_halving";
  search.eta = 3;
  search.candidates = r.search.candidates;
  search.trials = r.search.trials;
  search.elapsed_ns = r.search.elapsed_ns;
  search.truncated = r.search.truncated;
  search.rungs = RungsJson(r);
  if (r.search.tie) {
    const HeadToHead& h = *r.search.tie;
    search.tie = {{"leader", ConfigText(r.candidates[h.leader])},
                  {"preferred", ConfigText(r.candidates[h.preferred])},
                  {"scale", std::round(h.scale * 1e4) / 1e4},
                  {"gain", GainToJson(h.gain)},
                  {"leader_won", h.leader_stands()},
                  {"preferred_for", h.leaner() ? "memory" : "rules"}};
  }
  search.winner = ConfigText(r.winner);
  search.winner_engine_options =
      ProfileEngineOptionsToJson(ProfileOptions(r.winner, m));
  return search;
}

// One entry per judged knob: default, searched and recommended values.
std::vector<model::JudgedKnob> JudgedKnobs(const TuneResult& r,
                                           const EngineModel& m) {
  std::vector<model::JudgedKnob> knobs;
  for (const KnobEvidence& e : r.knobs) {
    model::JudgedKnob kj;
    kj.knob = std::string(KnobName(e.knob));
    kj.default_value = KnobValueJson(m.defaults, e.knob);
    kj.searched = KnobValueJson(r.winner, e.knob);
    kj.recommended = KnobValueJson(r.recommendation, e.knob);
    kj.outcome = e.outcome;
    kj.reason = e.reason;
    kj.evidence = e.evidence;
    if (e.gain) kj.gain = GainFigureOf(*e.gain);
    knobs.push_back(std::move(kj));
  }
  return knobs;
}

// The interleaved runs of the recommendation against the baseline.
model::VerificationSummary VerificationOf(const Verification& v,
                                          const Workload& w) {
  model::VerificationSummary vs;
  vs.compared = v.compared;
  vs.scale = std::round(v.scale * 1e4) / 1e4;
  vs.num = v.num;
  vs.trial_cache_bytes = v.trial_cache_bytes;
  vs.candidate_copy = v.candidate_copy;
  vs.baseline_copy = v.baseline_copy;
  vs.faithful = v.faithful;
  vs.order = "interleaved, alternating first (B A, A B, ...)";
  for (double x : v.baseline_ops_per_sec) {
    vs.baseline_ops_per_sec.push_back(std::round(x));
  }
  for (double x : v.candidate_ops_per_sec) {
    vs.candidate_ops_per_sec.push_back(std::round(x));
  }
  vs.gain = GainFigureOf(v.gain);
  vs.significant = v.gain.significant();
  vs.target_writes_per_sec = w.target_writes_per_sec;
  vs.target_met = v.target_met;
  return vs;
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
model::TuneEvidence Evidence(const TuneResult& r, const EngineModel& m) {
  model::TuneEvidence ev;
  json& other = ev.other;
  other["baseline"] = {{"definition", r.baseline_definition},
                       {"engine_options", ProfileEngineOptionsToJson(
                                              ProfileOptions(r.baseline, m))}};
  if (r.baseline.entries_per_batch != 1) {
    other["baseline"]["entries_per_batch"] = r.baseline.entries_per_batch;
  }
  other["device_facts"] = FactsToJson(r.facts);
  other["workload"] = WorkloadJson(r);
  json rules = json::array();
  for (const RuleRecord& rr : r.rules) rules.push_back(RuleRecordToJson(rr));
  other["rules"] = rules;
  ev.search = SearchOf(r, m);
  ev.knobs = JudgedKnobs(r, m);
  if (r.verification) {
    ev.verification = VerificationOf(*r.verification, r.workload);
  }
  other["unjudged"] = UnjudgedJson(r);
  other["plan"] = {{"ranking", r.ranking_model},
                   {"measured", PlanEntriesJson(r.measured)},
                   {"left_out", PlanEntriesJson(r.left_out)}};
  ev.notes = r.notes;
  return ev;
}

}  // namespace

model::TuneSummary TuneResultToSummary(const TuneResult& r) {
  const EngineModel& m = ModelFor(r.engine);
  model::TuneSummary t;
  t.tool_version = DISKTUNE_VERSION;
  t.created_at = UtcTimestamp();
  t.engine = r.engine;
  t.workload = r.workload.name;
  t.memory_budget_bytes = r.memory_budget_bytes;
  t.data_size_bytes = r.shape.user_bytes();
  t.time_budget_ns = r.time_budget_ns;
  t.elapsed_ns = r.elapsed_ns;
  if (r.write_budget_bytes > 0) t.write_budget_bytes = r.write_budget_bytes;
  t.bytes_written = r.bytes_written;
  t.quick = r.quick;
  t.verdict = r.verdict;
  t.recommendation = Recommendation(r, m);
  t.evidence = Evidence(r, m);
  return t;
}

json TuneResultToJson(const TuneResult& r) {
  return model::TuneSummaryToJson(TuneResultToSummary(r));
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
  p.tune = TuneResultToSummary(r);
  return p;
}

std::string EngineFormsHeader(const TuneResult& r, const std::string& name) {
  return "disktune " + std::string(DISKTUNE_VERSION) + " tune: " + r.engine +
         " for workload '" + r.workload.name + "', " +
         FormatBytes(static_cast<double>(r.memory_budget_bytes)) +
         " memory budget (profile " + name + ")\n" + "Verdict: " + r.verdict;
}

}  // namespace disktune::tune
