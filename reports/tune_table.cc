#include "reports/tune_table.h"

#include <cstdio>

#include "reports/render_util.h"
#include "src/core/number_text.h"
#include "src/core/units.h"
#include "src/model/knob_spec.h"

namespace disktune {
namespace {

using json = nlohmann::json;
using model::KnobOutcome;

// A judged knob's outcome in words.
const char* OutcomeText(KnobOutcome o) {
  switch (o) {
    case KnobOutcome::kWon:
      return "won alone";
    case KnobOutcome::kRule:
      return "set by rule";
    case KnobOutcome::kNoGain:
      return "no gain: default kept";
    case KnobOutcome::kDefault:
      return "default kept";
    case KnobOutcome::kBudget:
    case KnobOutcome::kSet:
      break;
  }
  return model::KnobOutcomeName(o);
}

std::string ValueText(const KnobSpec* spec, const json& v) {
  if (v.is_null()) return "-";
  if (spec != nullptr) {
    Result<KnobValue> k = KnobValueFromJson(*spec, v, "tune");
    if (k.ok()) return KnobValueText(*spec, *k);
  }
  return v.is_string() ? v.get<std::string>() : v.dump();
}

std::string GainCell(const model::GainFigure& g) {
  return GainText(g.median, g.ci95_low, g.ci95_high);
}

}  // namespace

const std::vector<std::string>& RecommendationColumns() {
  static const std::vector<std::string> kColumns = {
      "knob", "value", "default", "verdict", "gain [95% interval]", "reason"};
  return kColumns;
}

std::vector<std::string> RecommendationCells(const RecommendationRow& row) {
  return {row.knob,
          row.value,
          row.default_value,
          row.verdict,
          row.gain.empty() ? "-" : row.gain,
          row.reason};
}

std::vector<RecommendationRow> RecommendationRows(
    const model::TuneSummary& tune) {
  std::vector<RecommendationRow> rows;
  if (!tune.evidence) return rows;
  // The block cache is not judged: it is what the budget leaves.
  const json& eo = tune.recommendation.engine_options;
  const KnobSpec* cache = FindKnob("cache_bytes");
  if (eo.contains("cache_bytes") && cache != nullptr) {
    RecommendationRow r;
    r.knob = std::string(cache->name);
    r.value = ValueText(cache, eo["cache_bytes"]);
    auto d = KnobDefault(*cache, tune.engine);
    r.default_value = d ? KnobValueText(*cache, *d) : "-";
    r.verdict = "sized from the budget";
    r.reason =
        "what the memory budget leaves after the write buffers and the "
        "index and filter blocks";
    rows.push_back(r);
  }
  for (const model::JudgedKnob& k : tune.evidence->knobs) {
    const KnobSpec* spec = FindKnob(k.knob);
    RecommendationRow r;
    r.knob = spec != nullptr                 ? std::string(spec->name)
             : k.knob == "entries_per_batch" ? "entries per batch"
                                             : k.knob;
    r.value = ValueText(spec, k.recommended);
    r.default_value = ValueText(spec, k.default_value);
    r.verdict = OutcomeText(k.outcome);
    r.gain = k.gain ? GainCell(*k.gain) : "";
    r.reason = k.reason;
    rows.push_back(r);
  }
  return rows;
}

std::string RecommendationHeadline(const model::TuneSummary& tune) {
  return tune.engine + " for workload '" + tune.workload + "' at a " +
         FormatBytes(static_cast<double>(tune.memory_budget_bytes)) +
         " memory budget: " + tune.verdict;
}

namespace {

std::string Verification(const model::VerificationSummary& v) {
  std::string s = "Verified: the " + v.compared + " against the defaults in " +
                  Fixed(v.gain.repeats, 0) + " interleaved pairs";
  if (v.scale < 1) s += " on a copy at scale " + Fixed(v.scale, 3);
  s += " (" + Thousands(static_cast<double>(v.num)) + " keys)";
  s += ": " + Fixed(v.gain.median, 2) + "x [" + Fixed(v.gain.ci95_low, 2) +
       "x, " + Fixed(v.gain.ci95_high, 2) + "x], " +
       (v.significant ? "significant" : "not significant") + ".";
  return s;
}

std::string Search(const model::SearchSummary& v) {
  std::string s = "Search: " + v.method + " over " + Fixed(v.candidates, 0) +
                  " candidates, " + Fixed(v.trials, 0) + " trials";
  if (v.elapsed_ns)
    s += " in " + FormatDuration(static_cast<double>(*v.elapsed_ns));
  if (!v.winner.empty()) s += "; its best: " + v.winner;
  return s + ".";
}

std::string Budgets(const model::TuneSummary& t) {
  std::string s;
  if (t.elapsed_ns) {
    s = "The tuner took " + FormatDuration(static_cast<double>(*t.elapsed_ns));
    if (t.time_budget_ns)
      s += " of its " + FormatDuration(static_cast<double>(*t.time_budget_ns)) +
           " time budget";
  }
  if (t.bytes_written) {
    s += std::string(s.empty() ? "The tuner" : " and") + " wrote " +
         FormatBytes(static_cast<double>(*t.bytes_written));
    if (t.write_budget_bytes)
      s += " of its " +
           FormatBytes(static_cast<double>(*t.write_budget_bytes)) +
           " write budget";
  }
  return s.empty() ? s : s + ".";
}

std::string Facts(const json& f) {
  if (!f.is_object()) return "";
  std::vector<std::string> parts;
  auto dur = [&](const char* key, const char* what) {
    if (const json* v = JsonNum(f, key))
      parts.push_back(std::string(what) + " " +
                      FormatDuration(v->get<double>()));
  };
  dur("fdatasync_p50_ns", "fdatasync p50");
  dur("fdatasync_p99_ns", "p99");
  std::string point = JsonStr(f, "fdatasync_point");
  if (!point.empty() && !parts.empty()) parts.back() += " (" + point + ")";
  dur("rand_read_4k_p50_ns", "4 KiB random read p50");
  if (const json* v = JsonNum(f, "seq_write_bytes_per_sec"))
    parts.push_back("sequential writes " + FormatRate(v->get<double>()));
  if (const json* v = JsonNum(f, "snappy_bytes_per_sec"))
    parts.push_back("snappy " + FormatRate(v->get<double>()) + " per core");
  if (parts.empty()) return "";
  std::string s = "Device facts it read";
  std::string src = JsonStr(f, "source");
  if (!src.empty()) s += " (" + src + ")";
  s += ": ";
  for (size_t i = 0; i < parts.size(); i++) s += (i ? ", " : "") + parts[i];
  return s + ".";
}

}  // namespace

std::vector<std::string> TuneEvidenceSentences(const model::TuneSummary& tune) {
  std::vector<std::string> out;
  auto add = [&](std::string s) {
    if (!s.empty()) out.push_back(std::move(s));
  };
  const json none;
  const json& other = tune.evidence ? tune.evidence->other : none;
  if (tune.evidence) {
    if (tune.evidence->verification) {
      add(Verification(*tune.evidence->verification));
    }
    if (tune.evidence->search) add(Search(*tune.evidence->search));
  }
  add(Budgets(tune));
  if (tune.evidence) {
    add(Facts(other.value("device_facts", json())));
    for (const std::string& n : tune.evidence->notes) add(n);
  }
  return out;
}

}  // namespace disktune
