#include "reports/tune_table.h"

#include <cstdio>

#include "engines/knob_spec.h"
#include "reports/render_util.h"
#include "src/core/units.h"

namespace disktune {
namespace {

using json = nlohmann::json;

// The tuner's per-knob status (src/tune/tuner.h KnobEvidence) in words.
std::string VerdictText(const std::string& status) {
  if (status == "won") return "won alone";
  if (status == "won_jointly") return "won with the others";
  if (status == "rule") return "set by rule";
  if (status == "no_gain") return "no gain: default kept";
  if (status == "default") return "default kept";
  return status;
}

std::string ValueText(const KnobSpec* spec, const json& v) {
  if (v.is_null()) return "-";
  if (spec != nullptr) {
    Result<KnobValue> k = KnobValueFromJson(*spec, v, "tune");
    if (k.ok()) return KnobValueText(*spec, *k);
  }
  return v.is_string() ? v.get<std::string>() : v.dump();
}

std::string GainCell(const json& g) {
  if (!g.is_object() || !g.contains("median")) return "";
  const double median = g.value("median", 1.0);
  if (!g.contains("ci95_low") || !g.contains("ci95_high")) {
    return RatioText(median);
  }
  return GainText(median, g.value("ci95_low", 1.0), g.value("ci95_high", 1.0));
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

std::vector<RecommendationRow> RecommendationRows(const json& tune) {
  std::vector<RecommendationRow> rows;
  if (!tune.is_object() || !tune.contains("evidence") ||
      !tune["evidence"].is_object()) {
    return rows;
  }
  const json& knobs = tune["evidence"].value("knobs", json::array());
  if (!knobs.is_array()) return rows;
  // The block cache is not judged: it is what the budget leaves.
  const json& rec = tune.value("recommendation", json::object());
  const KnobSpec* cache = FindKnob("cache_bytes");
  if (rec.is_object() && rec.contains("engine_options") &&
      rec["engine_options"].contains("cache_bytes") && cache != nullptr) {
    RecommendationRow r;
    r.knob = std::string(cache->name);
    r.value = ValueText(cache, rec["engine_options"]["cache_bytes"]);
    auto d = KnobDefault(*cache, tune.value("engine", ""));
    r.default_value = d ? KnobValueText(*cache, *d) : "-";
    r.verdict = "sized from the budget";
    r.reason =
        "what the memory budget leaves after the write buffers and the "
        "index and filter blocks";
    rows.push_back(r);
  }
  for (const json& k : knobs) {
    if (!k.is_object()) continue;
    const std::string key = k.value("knob", "");
    const KnobSpec* spec = FindKnob(key);
    RecommendationRow r;
    r.knob = spec != nullptr              ? std::string(spec->name)
             : key == "entries_per_batch" ? "entries per batch"
                                          : key;
    r.value = ValueText(spec, k.value("recommended", json()));
    r.default_value = ValueText(spec, k.value("default", json()));
    r.verdict = VerdictText(k.value("status", ""));
    r.gain = GainCell(k.value("gain", json()));
    r.reason = k.value("reason", "");
    rows.push_back(r);
  }
  return rows;
}

std::string RecommendationHeadline(const json& tune) {
  if (!tune.is_object() || !tune.contains("engine")) return "";
  std::string s = tune.value("engine", "") + " for workload '" +
                  tune.value("workload", "") + "'";
  if (tune.contains("memory_budget_bytes") &&
      tune["memory_budget_bytes"].is_number()) {
    s += " at a " + FormatBytes(tune["memory_budget_bytes"].get<double>()) +
         " memory budget";
  }
  if (tune.contains("verdict") && tune["verdict"].is_string()) {
    s += ": " + tune["verdict"].get<std::string>();
  }
  return s;
}

json TuneEvidence(const json& tune) {
  json rest = tune;
  if (!rest.is_object() || RecommendationRows(tune).empty()) return rest;
  for (const char* k : {"engine", "workload", "memory_budget_bytes", "verdict"})
    rest.erase(k);
  return rest;
}

namespace {

std::string Num(const json& j, const char* key, int decimals) {
  const json* v = JsonNum(j, key);
  return v ? Fixed(v->get<double>(), decimals) : "?";
}

std::string Verification(const json& v) {
  if (!v.is_object()) return "";
  std::string s = "Verified: the " + JsonStr(v, "compared") +
                  " against the defaults in " + Num(v, "repeats", 0) +
                  " interleaved pairs";
  if (const json* scale = JsonNum(v, "scale");
      scale && scale->get<double>() < 1)
    s += " on a copy at scale " + Fixed(scale->get<double>(), 3);
  if (const json* num = JsonNum(v, "num"))
    s += " (" + Thousands(num->get<double>()) + " keys)";
  s += ": " + Num(v, "median_gain", 2) + "x [" + Num(v, "ci95_low", 2) + "x, " +
       Num(v, "ci95_high", 2) + "x], " +
       (v.value("significant", false) ? "significant" : "not significant") +
       ".";
  return s;
}

std::string Search(const json& v) {
  if (!v.is_object()) return "";
  std::string s = "Search: " + JsonStr(v, "method") + " over " +
                  Num(v, "candidates", 0) + " candidates, " +
                  Num(v, "trials", 0) + " trials";
  if (const json* e = JsonNum(v, "elapsed_ns"))
    s += " in " + FormatDuration(e->get<double>());
  std::string winner = JsonStr(v, "winner");
  if (!winner.empty()) s += "; its best: " + winner;
  return s + ".";
}

std::string Budgets(const json& t) {
  std::string s;
  if (const json* e = JsonNum(t, "elapsed_ns")) {
    s = "The tuner took " + FormatDuration(e->get<double>());
    if (const json* b = JsonNum(t, "time_budget_ns"))
      s += " of its " + FormatDuration(b->get<double>()) + " time budget";
  }
  if (const json* w = JsonNum(t, "bytes_written")) {
    s += std::string(s.empty() ? "The tuner" : " and") + " wrote " +
         FormatBytes(w->get<double>());
    if (const json* b = JsonNum(t, "write_budget_bytes"))
      s += " of its " + FormatBytes(b->get<double>()) + " write budget";
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

std::vector<std::string> TuneEvidenceSentences(const json& tune) {
  std::vector<std::string> out;
  if (!tune.is_object()) return out;
  const json ev = tune.value("evidence", json::object());
  auto add = [&](std::string s) {
    if (!s.empty()) out.push_back(std::move(s));
  };
  if (ev.is_object()) {
    add(Verification(ev.value("verification", json())));
    add(Search(ev.value("search", json())));
  }
  add(Budgets(tune));
  if (ev.is_object()) {
    add(Facts(ev.value("device_facts", json())));
    const json notes = ev.value("notes", json::array());
    if (notes.is_array()) {
      for (const json& n : notes) {
        if (n.is_string()) add(n.get<std::string>());
      }
    }
  }
  return out;
}

}  // namespace disktune
