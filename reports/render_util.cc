#include "reports/render_util.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <utility>

#include "src/core/histogram.h"
#include "src/core/units.h"
#include "src/model/analysis_rand_read_saturation.h"
#include "src/model/fsync_names.h"

namespace disktune {

std::string ReportDevice(const Report& report) {
  return report.environment.device ? report.environment.device->disk : "";
}

std::string ProbeDevice(const Report& report, const ProbeResult& p) {
  std::string own = JsonStr(p.params.extra, "disk");
  return own.empty() ? ReportDevice(report) : own;
}

std::vector<int> BenchOccurrences(
    const std::vector<bench::BenchResult>& benches) {
  std::map<std::pair<std::string, std::string>, int> seen;
  std::vector<int> out;
  out.reserve(benches.size());
  for (const auto& b : benches) out.push_back(++seen[{b.engine, b.scenario}]);
  return out;
}

std::string BenchKey(const bench::BenchResult& b, int occurrence) {
  return occurrence > 1 ? b.scenario + "#" + std::to_string(occurrence)
                        : b.scenario;
}

std::string JsonStr(const nlohmann::json& j, std::string_view key) {
  if (!j.is_object()) return "";
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

const nlohmann::json* JsonNum(const nlohmann::json& j, std::string_view key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? &*it : nullptr;
}

std::string JsonScalarText(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  if (v.is_number_float()) {
    double d = v.get<double>();
    char buf[64];
    // Enough digits to tell figures apart, few enough to read.
    std::snprintf(buf, sizeof(buf), "%.6g", d);
    return buf;
  }
  if (v.is_null()) return "";
  return v.dump();
}

bool IsPreformatted(const nlohmann::json& v) {
  return v.is_array() &&
         std::all_of(v.begin(), v.end(),
                     [](const nlohmann::json& e) { return e.is_string(); }) &&
         std::any_of(v.begin(), v.end(), [](const nlohmann::json& e) {
           const std::string& s = e.get_ref<const std::string&>();
           return !s.empty() && s[0] == ' ';
         });
}

namespace {
bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.substr(s.size() - suffix.size()) == suffix;
}
}  // namespace

std::string HumanValue(std::string_view key, const nlohmann::json& v) {
  if (!v.is_number() || v.is_boolean()) return JsonScalarText(v);
  double d = v.get<double>();
  // The tuner's successive halving keeps the best 1/eta of each rung.
  if (key == "eta") return "best 1 in " + JsonScalarText(v) + " kept per rung";
  if (key.starts_with("bytes_") && !EndsWith(key, "_per_sec")) {
    return FormatBytes(d);
  }
  if (key == "bytes_per_sec" || EndsWith(key, "_bytes_per_sec"))
    return FormatRate(d);
  if (key == "bytes" || EndsWith(key, "_bytes")) return FormatBytes(d);
  if (EndsWith(key, "_ns")) return FormatDuration(d);
  if (EndsWith(key, "_ms")) return FormatDuration(d * 1e6);
  if (EndsWith(key, "_per_sec"))
    return (d >= 100 ? Thousands(d) : Fixed(d, 1)) + "/s";
  return JsonScalarText(v);
}

std::string FieldLabel(std::string_view key, const nlohmann::json& v) {
  std::string label(key);
  if (!v.is_number() || v.is_boolean()) return label;
  for (std::string_view unit : {"_ns", "_ms", "_bytes"}) {
    if (EndsWith(key, unit) && key.size() > unit.size()) {
      return label.substr(0, key.size() - unit.size());
    }
  }
  return label;
}

std::string ProbeLabel(const ProbeResult& p) {
  if (p.probe == "fsync") {
    std::string s = FsyncResultSuffix(p.params);
    std::replace(s.begin(), s.end(), '.', ' ');
    if (!s.empty()) return s;
  }
  std::string out;
  if (p.params.block_size_bytes)
    out = FormatBytes(static_cast<double>(*p.params.block_size_bytes));
  std::string what = p.probe;
  if (p.probe == "seq_read") what = "sequential reads";
  if (p.probe == "rand_read") what = "random reads";
  if (p.probe == "seq_write") what = "sequential writes";
  if (p.probe == "rand_write") what = "random writes";
  out += (out.empty() ? "" : " ") + what;
  if (p.params.queue_depth)
    out += ", QD " + std::to_string(*p.params.queue_depth);
  return out;
}

std::vector<std::string> DisplayKeys(const nlohmann::json& object) {
  std::vector<std::string> keys;
  if (!object.is_object()) return keys;
  static const char* kFirst[] = {"name",   "knob",     "id",
                                 "engine", "scenario", "point"};
  for (const char* k : kFirst) {
    if (object.contains(k)) keys.push_back(k);
  }
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (std::find(keys.begin(), keys.end(), it.key()) == keys.end())
      keys.push_back(it.key());
  }
  return keys;
}

namespace {

std::string CellText(const std::string& key, const nlohmann::json& v) {
  std::string cell;
  if (v.is_array()) {
    for (const auto& x : v)
      cell += (cell.empty() ? "" : " / ") + HumanValue(key, x);
  } else if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it)
      cell += (cell.empty() ? "" : "; ") + FieldLabel(it.key(), *it) + " = " +
              HumanValue(it.key(), *it);
  } else {
    cell = HumanValue(key, v);
  }
  return cell;
}

}  // namespace

std::vector<std::vector<std::string>> ObjectTableCells(
    const nlohmann::json& array) {
  std::vector<std::string> keys;
  for (const auto& e : array) {
    for (const auto& k : DisplayKeys(e)) {
      if (std::find(keys.begin(), keys.end(), k) == keys.end())
        keys.push_back(k);
    }
  }
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> head;
  for (const auto& k : keys)
    head.push_back(FieldLabel(k, array[0].value(k, nlohmann::json())));
  rows.push_back(head);
  for (const auto& e : array) {
    std::vector<std::string> row;
    for (const auto& k : keys) {
      bool has = e.is_object() && e.contains(k);
      row.push_back(has ? CellText(k, e[k]) : "-");
    }
    rows.push_back(row);
  }
  return rows;
}

std::string FewSamplesMark(uint64_t samples, double q, bool* any) {
  bool few = samples < MinSamplesForQuantile(q);
  if (few && any) *any = true;
  return few ? "*" : " ";
}

std::string SaturationText(const RandReadSaturation& s) {
  std::string t;
  if (s.knee_queue_depth) {
    t = "Random reads: the knee is at queue depth " +
        std::to_string(*s.knee_queue_depth) + " (" +
        Thousands(s.knee_iops.value_or(0)) + " IOPS";
    if (s.knee_p99_ns)
      t += ", p99 " + FormatDuration(static_cast<double>(*s.knee_p99_ns));
    t += "): deeper queues gain less than 10% IOPS per step or double the "
         "p99. ";
  } else {
    t = "Random reads: ";
  }
  t += "Queue depth " + std::to_string(s.queue_depth) +
       " reaches 95% of the best (" + Thousands(s.best_iops) +
       " IOPS at depth " + std::to_string(s.best_queue_depth) + ").";
  return t;
}

bool IsScratchFsync(const ProbeResult& p) {
  return p.probe == "fsync" && p.params.filesystem.empty() &&
         p.params.write_cache == CacheState::kAsFound &&
         p.params.variant != kVariantWriteCacheAb &&
         !FsyncPointKey(p.params).empty();
}

TuneSections SplitTune(const nlohmann::json& tune) {
  TuneSections t;
  if (!tune.is_object()) return t;
  for (auto it = tune.begin(); it != tune.end(); ++it) {
    if (!it->is_structured()) t.scalars[it.key()] = *it;
  }
  for (const char* k : {"recommendation", "evidence"}) {
    if (tune.contains(k) && tune[k].is_structured()) t.sections.push_back(k);
  }
  for (auto it = tune.begin(); it != tune.end(); ++it) {
    if (it->is_structured() && it.key() != "recommendation" &&
        it.key() != "evidence") {
      t.sections.push_back(it.key());
    }
  }
  return t;
}

std::string DurationOrDash(const std::optional<uint64_t>& ns) {
  return ns ? FormatDuration(static_cast<double>(*ns)) : "-";
}

std::string CheckVerdictText(const NamedCheck& c) {
  std::string v = c.verdict.empty() ? (c.pass ? "pass" : "fail") : c.verdict;
  if (v == "pass") return "PASS";
  if (v != "insufficient") return "FAIL";
  std::string out = "INSUFFICIENT";
  if (c.samples && c.samples_needed) {
    out += " (" + Thousands(static_cast<double>(*c.samples)) + " of " +
           Thousands(static_cast<double>(*c.samples_needed)) + " samples)";
  }
  return out;
}

}  // namespace disktune
