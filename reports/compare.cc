#include "reports/compare.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>

#include "reports/noise_floor.h"
#include "reports/render_util.h"

namespace disktune {
namespace {

using nlohmann::json;

std::optional<Interval> SpreadOf(const bench::RepeatStat& s) {
  if (s.ci95_low && s.ci95_high)
    return Interval{*s.ci95_low, *s.ci95_high, "ci95"};
  if (s.max > s.min) return Interval{s.min, s.max, "min-max"};
  return std::nullopt;
}

bool Inside(double v, const Interval& i) { return v >= i.low && v <= i.high; }

bool InsideSpreads(const CompareRow& row) {
  if (row.a_spread && row.b_spread) {
    return row.a_spread->low <= row.b_spread->high &&
           row.b_spread->low <= row.a_spread->high;
  }
  if (row.a_spread) return Inside(row.b, *row.a_spread);
  if (row.b_spread) return Inside(row.a, *row.b_spread);
  return false;
}

// Whether A and B are within the floor of the row's kind; records the floor.
bool InsideNoiseFloor(CompareRow& row) {
  std::optional<NoiseFloor> f = NoiseFloorFor(row.kind, row.item, row.metric);
  if (!f) return false;
  row.noise_floor_ratio = f->ratio;
  row.noise_kind = std::string(f->kind);
  double lo = std::min(std::fabs(row.a), std::fabs(row.b));
  double hi = std::max(std::fabs(row.a), std::fabs(row.b));
  return lo > 0 ? hi / lo <= f->ratio : hi == 0;
}

// Decides the verdict of a row whose values and spreads are set.
void Judge(CompareRow& row, const CompareOptions& o) {
  if (row.a != 0) row.change_pct = (row.b - row.a) / std::fabs(row.a) * 100.0;
  bool spread = InsideSpreads(row);
  // The floor applies with repeats too: the rounds of one run agree more
  // closely than two runs minutes apart do, so the spreads alone call drift
  // a change (benchmarks/README.md, "compare: noise before regressions").
  bool floor = o.noise_floors && InsideNoiseFloor(row);
  bool noise = spread || floor;
  if (!row.change_pct) {
    row.verdict =
        row.b == row.a ? CompareVerdict::kSame : CompareVerdict::kNoise;
    row.rule = row.b == row.a ? "threshold" : "from_zero";
    return;
  }
  double pct = *row.change_pct;
  bool worse = row.higher_is_better ? pct < 0 : pct > 0;
  if (!noise && worse && o.fail_on_regression_pct &&
      std::fabs(pct) > *o.fail_on_regression_pct) {
    row.verdict = CompareVerdict::kRegression;
  } else if (std::fabs(pct) < o.threshold_pct) {
    row.verdict = CompareVerdict::kSame;
  } else if (noise) {
    row.verdict = CompareVerdict::kNoise;
  } else {
    row.verdict = worse ? CompareVerdict::kWorse : CompareVerdict::kBetter;
  }
  if (row.verdict == CompareVerdict::kSame) {
    row.rule = "threshold";
  } else if (row.verdict == CompareVerdict::kNoise) {
    row.rule = spread ? "spread" : "noise_floor";
  } else if (row.a_spread || row.b_spread) {
    row.rule =
        row.noise_floor_ratio ? "beyond_spread_and_floor" : "beyond_spread";
  } else {
    row.rule = row.noise_floor_ratio ? "beyond_noise_floor" : "threshold";
  }
}

void Differ(std::vector<std::string>* out, const std::string& what,
            const std::string& a, const std::string& b) {
  if (a != b)
    out->push_back(what + ": " + (a.empty() ? "-" : a) + " vs " +
                   (b.empty() ? "-" : b));
}

// A run measured on a busy machine (sysinfo.h MachineWasBusy: the load
// before or after beyond kBusyLoadPerCpu) or beside other processes' I/O on
// its disk (probes/foreign_io.h): its figures move beyond the noise floors,
// which hold for an idle one. The note names what made each run busy.
std::string BusyMachine(const Environment& a, const Environment& b) {
  auto busy = [](const Environment& e) {
    return MachineWasBusy(e.system) || !ForeignIoReason(e).empty();
  };
  if (!busy(a) && !busy(b)) return "";
  auto load = [](const SystemInfo& s) {
    return Fixed(s.load_average_1m.value_or(0), 1);
  };
  std::string t = "machine load: " + load(a.system) + " vs " + load(b.system) +
                  " on " + std::to_string(b.system.cpu_count) + " CPUs";
  const std::pair<const char*, const Environment*> runs[] = {{"first", &a},
                                                             {"second", &b}};
  for (const auto& [name, e] : runs) {
    if (std::string io = ForeignIoReason(*e); !io.empty()) {
      t += std::string("; the ") + name + " run: " + io;
    }
  }
  return t +
         " (a busy machine: figures move beyond the noise floors, which hold "
         "for an idle one; re-measure idle or use probe --repeat)";
}

std::vector<std::string> EnvironmentDifferences(const Report& a,
                                                const Report& b) {
  std::vector<std::string> d;
  const Environment& x = a.environment;
  const Environment& y = b.environment;
  Differ(&d, "host", x.system.hostname, y.system.hostname);
  Differ(&d, "kernel", x.system.kernel, y.system.kernel);
  Differ(&d, "cpu", x.system.cpu_model, y.system.cpu_model);
  Differ(&d, "filesystem", x.filesystem.type, y.filesystem.type);
  Differ(&d, "mount options", x.filesystem.mount_options,
         y.filesystem.mount_options);
  std::string dx =
      x.device ? x.device->disk +
                     (x.device->model.empty() ? "" : " " + x.device->model)
               : "";
  std::string dy =
      y.device ? y.device->disk +
                     (y.device->model.empty() ? "" : " " + y.device->model)
               : "";
  Differ(&d, "device", dx, dy);
  Differ(&d, "write cache", x.device ? x.device->write_cache : "",
         y.device ? y.device->write_cache : "");
  Differ(&d, "scheduler", x.device ? x.device->scheduler : "",
         y.device ? y.device->scheduler : "");
  // A throttled run measured an emulated device class, not the disk: the
  // comparison says so, as it does for another device.
  auto throttle = [](const Environment& e) {
    return e.throttle ? "the " + e.throttle->spec.class_name + " class (" +
                            DescribeThrottle(e.throttle->spec) + ")"
                      : std::string("none (the disk itself)");
  };
  Differ(&d, "throttle", throttle(x), throttle(y));
  if (std::string busy = BusyMachine(x, y); !busy.empty()) {
    d.push_back(busy);
  }
  Differ(&d, "build", x.build_type, y.build_type);
  Differ(&d, "disktune", a.tool_version, b.tool_version);
  return d;
}

// The probe parameters that change what a figure means.
std::string ProbeParamDifferences(const ProbeResult& a, const ProbeResult& b) {
  json ja = a.params, jb = b.params;
  std::string out;
  for (const char* k :
       {"block_size_bytes", "queue_depth", "pattern", "direct",
        "file_size_bytes", "duration_ns", "io_engine", "method"}) {
    json va = ja.value(k, json()), vb = jb.value(k, json());
    if (va != vb) {
      out += (out.empty() ? "" : ", ") + std::string(k) + " " +
             JsonScalarText(va) + " vs " + JsonScalarText(vb);
    }
  }
  return out.empty() ? "" : "params differ: " + out;
}

std::string BenchParamDifferences(const bench::BenchResult& a,
                                  const bench::BenchResult& b) {
  json ja = a, jb = b;
  std::string out;
  for (const char* group : {"params", "engine_options"}) {
    const json& pa = ja[group];
    const json& pb = jb[group];
    std::map<std::string, bool> keys;
    for (auto it = pa.begin(); it != pa.end(); ++it) keys[it.key()] = true;
    for (auto it = pb.begin(); it != pb.end(); ++it) keys[it.key()] = true;
    for (const auto& [k, unused] : keys) {
      if (k == "seed") continue;  // a different seed measures the same thing
      json va = pa.value(k, json()), vb = pb.value(k, json());
      if (va != vb) {
        out += (out.empty() ? "" : ", ") + k + " " +
               (va.is_null() ? "-" : JsonScalarText(va)) + " vs " +
               (vb.is_null() ? "-" : JsonScalarText(vb));
      }
    }
  }
  return out.empty() ? "" : "params differ: " + out;
}

// Probe --repeat rounds: the median and the rounds' min..max.
void ApplyRounds(const std::optional<RoundStat>& s, double* value,
                 std::optional<Interval>* spread) {
  if (!s || s->values.size() < 2) return;
  *value = s->median;
  *spread = Interval{s->min, s->max, "min-max"};
}

// `ra` / `rb`: the probe's rounds, null for benches and single runs.
void AddLatencyRows(const std::string& kind, const std::string& item,
                    const std::optional<LatencySummary>& la,
                    const std::optional<LatencySummary>& lb,
                    const std::optional<ProbeRepeats>& ra,
                    const std::optional<ProbeRepeats>& rb,
                    const std::string& note, const CompareOptions& o,
                    std::vector<CompareRow>* rows, bool with_p50) {
  if (!la || !lb || la->samples == 0 || lb->samples == 0) return;
  using Stat = std::optional<RoundStat> ProbeRepeats::*;
  auto add = [&](const char* metric, double a, double b, Stat stat) {
    CompareRow r;
    r.kind = kind;
    r.item = item;
    r.metric = metric;
    r.dimension = Dimension::kTime;
    r.higher_is_better = false;
    r.a = a;
    r.b = b;
    if (ra) ApplyRounds((*ra).*stat, &r.a, &r.a_spread);
    if (rb) ApplyRounds((*rb).*stat, &r.b, &r.b_spread);
    r.note = note;
    Judge(r, o);
    rows->push_back(std::move(r));
  };
  if (with_p50) {
    add("p50", static_cast<double>(la->p50), static_cast<double>(lb->p50),
        &ProbeRepeats::latency_p50_ns);
  }
  add("p99", static_cast<double>(la->p99), static_cast<double>(lb->p99),
      &ProbeRepeats::latency_p99_ns);
}

std::string StatusText(ProbeStatus s, const ProbeResult& p) {
  return std::string(ProbeStatusName(s)) + ": " +
         (s == ProbeStatus::kSkipped ? p.reason : p.error);
}

void CompareProbes(const Report& a, const Report& b, const CompareOptions& o,
                   Comparison* c) {
  std::map<std::string, const ProbeResult*> in_b;
  for (const auto& p : b.probes) in_b[p.name] = &p;
  std::map<std::string, bool> seen;
  for (const auto& pa : a.probes) {
    auto it = in_b.find(pa.name);
    if (it == in_b.end()) {
      c->only_in_a.push_back(pa.name);
      continue;
    }
    seen[pa.name] = true;
    const ProbeResult& pb = *it->second;
    if (pa.status != ProbeStatus::kOk || pb.status != ProbeStatus::kOk) {
      if (pa.status == ProbeStatus::kOk && pb.status == ProbeStatus::kFailed) {
        c->failed_in_b.push_back(pa.name + ": " + pb.error);
      } else if (pa.status != pb.status || pa.status != ProbeStatus::kSkipped) {
        c->not_comparable.push_back(pa.name + ": A " +
                                    StatusText(pa.status, pa) + "; B " +
                                    StatusText(pb.status, pb));
      }
      continue;
    }
    std::string note = ProbeParamDifferences(pa, pb);
    CompareRow r;
    r.kind = "probe";
    r.item = pa.name;
    r.note = note;
    std::optional<RoundStat> ProbeRepeats::*stat = nullptr;
    if (pa.iops && pb.iops) {
      r.metric = "iops";
      r.a = *pa.iops;
      r.b = *pb.iops;
      stat = &ProbeRepeats::iops;
    } else if (pa.ops_per_sec && pb.ops_per_sec) {
      r.metric = "ops_per_sec";
      r.a = *pa.ops_per_sec;
      r.b = *pb.ops_per_sec;
      stat = &ProbeRepeats::ops_per_sec;
    } else if (pa.bytes_per_sec && pb.bytes_per_sec) {
      r.metric = "bytes_per_sec";
      r.a = *pa.bytes_per_sec;
      r.b = *pb.bytes_per_sec;
      stat = &ProbeRepeats::bytes_per_sec;
    }
    if (!r.metric.empty()) {
      if (pa.repeats) ApplyRounds((*pa.repeats).*stat, &r.a, &r.a_spread);
      if (pb.repeats) ApplyRounds((*pb.repeats).*stat, &r.b, &r.b_spread);
      r.dimension = DimensionOfMetric(r.metric);
      Judge(r, o);
      c->rows.push_back(r);
    }
    AddLatencyRows("probe", pa.name, pa.latency_ns, pb.latency_ns, pa.repeats,
                   pb.repeats, note, o, &c->rows, true);
  }
  for (const auto& p : b.probes) {
    if (!seen.count(p.name) &&
        !std::any_of(a.probes.begin(), a.probes.end(),
                     [&](const ProbeResult& x) { return x.name == p.name; })) {
      c->only_in_b.push_back(p.name);
    }
  }
}

void CompareBenches(const Report& a, const Report& b, const CompareOptions& o,
                    Comparison* c) {
  std::vector<int> occ_a = BenchOccurrences(a.benches);
  std::vector<int> occ_b = BenchOccurrences(b.benches);
  auto key = [](const bench::BenchResult& r, int occ) {
    return "bench." + r.engine + "." + BenchKey(r, occ);
  };
  std::map<std::string, const bench::BenchResult*> in_b;
  for (size_t i = 0; i < b.benches.size(); i++)
    in_b[key(b.benches[i], occ_b[i])] = &b.benches[i];
  std::map<std::string, bool> in_a;
  for (size_t i = 0; i < a.benches.size(); i++) {
    const auto& ba = a.benches[i];
    std::string k = key(ba, occ_a[i]);
    in_a[k] = true;
    auto it = in_b.find(k);
    if (it == in_b.end()) {
      c->only_in_a.push_back(k);
      continue;
    }
    const auto& bb = *it->second;
    bool a_ok = ba.status == bench::RunStatus::kOk;
    bool b_ok = bb.status == bench::RunStatus::kOk;
    if (!a_ok || !b_ok) {
      if (a_ok && bb.status == bench::RunStatus::kFailed) {
        c->failed_in_b.push_back(k + ": " + bb.error);
      } else {
        c->not_comparable.push_back(
            k + ": A " + bench::RunStatusName(ba.status) +
            (ba.error.empty() ? "" : " (" + ba.error + ")") + "; B " +
            bench::RunStatusName(bb.status) +
            (bb.error.empty() ? "" : " (" + bb.error + ")"));
      }
      continue;
    }
    std::string note = BenchParamDifferences(ba, bb);
    CompareRow r;
    r.kind = "bench";
    r.item = k;
    r.metric = "ops_per_sec";
    r.dimension = Dimension::kRate;
    r.a = ba.metrics.ops_per_sec;
    r.b = bb.metrics.ops_per_sec;
    if (ba.repeats) {
      r.a = ba.repeats->ops_per_sec.median;
      r.a_spread = SpreadOf(ba.repeats->ops_per_sec);
    }
    if (bb.repeats) {
      r.b = bb.repeats->ops_per_sec.median;
      r.b_spread = SpreadOf(bb.repeats->ops_per_sec);
    }
    r.note = note;
    Judge(r, o);
    c->rows.push_back(r);
    AddLatencyRows("bench", k, ba.metrics.latency_ns, bb.metrics.latency_ns,
                   std::nullopt, std::nullopt, note, o, &c->rows, false);
  }
  for (size_t i = 0; i < b.benches.size(); i++) {
    std::string k = key(b.benches[i], occ_b[i]);
    if (!in_a.count(k)) c->only_in_b.push_back(k);
  }
}

std::string ValueText(double v, const std::optional<Interval>& spread,
                      Dimension d, const std::string& metric) {
  std::string s = FormatFigure(v, d, metric);
  if (spread) {
    // The unit once, after the interval, keeps the column narrow.
    if (d == Dimension::kRate) {
      s = Thousands(v) + " [" + Thousands(spread->low) + ".." +
          Thousands(spread->high) + "] ops/s";
    } else {
      s += " [" + FormatQuantity(spread->low, d) + ".." +
           FormatQuantity(spread->high, d) + "]";
    }
  }
  return s;
}

std::string FloorText(const CompareRow& r) {
  return Fixed(r.noise_floor_ratio.value_or(1), 1) + "x " + r.noise_kind;
}

// The verdict with the rule that reached it.
std::string VerdictText(const CompareRow& r) {
  std::string name = r.verdict == CompareVerdict::kRegression
                         ? "REGRESSION"
                         : CompareVerdictName(r.verdict);
  if (r.rule == "spread") return "within noise (spreads overlap)";
  if (r.rule == "noise_floor")
    return "within noise (floor " + FloorText(r) + ")";
  if (r.rule == "from_zero") return "changed from 0";
  if (r.rule == "beyond_spread") return name + " (beyond the spread)";
  if (r.rule == "beyond_spread_and_floor")
    return name + " (beyond the spread and floor " + FloorText(r) + ")";
  if (r.rule == "beyond_noise_floor")
    return name + " (beyond floor " + FloorText(r) + ")";
  return name;
}

json IntervalJson(const Interval& i) {
  return {{"low", i.low}, {"high", i.high}, {"kind", i.kind}};
}

}  // namespace

const char* CompareVerdictName(CompareVerdict v) {
  switch (v) {
    case CompareVerdict::kSame:
      return "same";
    case CompareVerdict::kNoise:
      return "noise";
    case CompareVerdict::kBetter:
      return "better";
    case CompareVerdict::kWorse:
      return "worse";
    case CompareVerdict::kRegression:
      return "regression";
  }
  return "?";
}

Comparison CompareReports(const Report& a, const Report& b,
                          const std::string& a_label,
                          const std::string& b_label,
                          const CompareOptions& options) {
  Comparison c;
  c.a_label = a_label;
  c.b_label = b_label;
  c.options = options;
  c.environment_differences = EnvironmentDifferences(a, b);
  CompareProbes(a, b, options, &c);
  CompareBenches(a, b, options, &c);
  // A figure measured with other parameters on each side (a quick probe
  // against a full one, another value size) is not a change of the disk:
  // only the figures measured alike are compared; the rest are listed.
  std::vector<CompareRow> alike;
  std::string last_item;
  for (auto& r : c.rows) {
    if (r.note.empty()) {
      alike.push_back(std::move(r));
      continue;
    }
    c.params_differ_rows++;
    if (r.item != last_item) c.not_comparable.push_back(r.item + ": " + r.note);
    last_item = r.item;
  }
  c.rows = std::move(alike);
  for (const auto& r : c.rows)
    c.regressions += r.verdict == CompareVerdict::kRegression;
  if (options.fail_on_regression_pct)
    c.regressions += static_cast<int>(c.failed_in_b.size());
  return c;
}

std::string RenderCompareText(const Comparison& c) {
  std::string out = "A: " + c.a_label + "\nB: " + c.b_label + "\n";
  if (c.params_differ_rows > 0) {
    out += "compared only the " + std::to_string(c.rows.size()) +
           " figures measured with the same parameters; " +
           std::to_string(c.params_differ_rows) +
           " left out (listed under \"not comparable\")\n";
  }
  if (!c.environment_differences.empty()) {
    out += "A and B differ in:\n";
    for (const auto& d : c.environment_differences) out += "  " + d + "\n";
  }
  // One table per kind, each as wide as its own cells: bench figures carry
  // their spread and would widen the probe table for nothing.
  int counts[5] = {0, 0, 0, 0, 0};
  char line[1024];
  for (const char* kind : {"probe", "bench"}) {
    size_t wi = 6, wa = 1, wb = 1;
    std::vector<const CompareRow*> rows;
    std::vector<std::array<std::string, 2>> values;
    for (const auto& r : c.rows) {
      if (r.kind != kind) continue;
      rows.push_back(&r);
      values.push_back({ValueText(r.a, r.a_spread, r.dimension, r.metric),
                        ValueText(r.b, r.b_spread, r.dimension, r.metric)});
      wi = std::max(wi, r.item.size());
      wa = std::max(wa, values.back()[0].size());
      wb = std::max(wb, values.back()[1].size());
    }
    if (rows.empty()) continue;
    std::snprintf(line, sizeof(line), "\n%-*s %-11s  %*s  %*s  %8s  %s\n",
                  static_cast<int>(wi), kind, "metric", static_cast<int>(wa),
                  "A", static_cast<int>(wb), "B", "change", "verdict");
    out += line;
    for (size_t i = 0; i < rows.size(); i++) {
      const CompareRow& r = *rows[i];
      counts[static_cast<int>(r.verdict)]++;
      std::string change = r.change_pct ? SignedPercent(*r.change_pct) : "-";
      std::string verdict = VerdictText(r);
      if (!r.note.empty()) verdict += " (" + r.note + ")";
      std::snprintf(line, sizeof(line), "%-*s %-11s  %*s  %*s  %8s  %s\n",
                    static_cast<int>(wi), r.item.c_str(), r.metric.c_str(),
                    static_cast<int>(wa), values[i][0].c_str(),
                    static_cast<int>(wb), values[i][1].c_str(), change.c_str(),
                    verdict.c_str());
      out += line;
    }
  }
  auto list = [&](const char* title, const std::vector<std::string>& v) {
    if (v.empty()) return;
    out += std::string("\n") + title + ":\n";
    for (const auto& s : v) out += "  " + s + "\n";
  };
  list("failed in B", c.failed_in_b);
  list("not comparable", c.not_comparable);
  list("only in A", c.only_in_a);
  list("only in B", c.only_in_b);
  std::snprintf(
      line, sizeof(line),
      "\n%zu figures compared: %d better, %d worse, %d within noise, %d same "
      "(changes under %.1f%% count as same)\n",
      c.rows.size(), counts[static_cast<int>(CompareVerdict::kBetter)],
      counts[static_cast<int>(CompareVerdict::kWorse)] +
          counts[static_cast<int>(CompareVerdict::kRegression)],
      counts[static_cast<int>(CompareVerdict::kNoise)],
      counts[static_cast<int>(CompareVerdict::kSame)], c.options.threshold_pct);
  out += line;
  out += c.options.noise_floors
             ? "noise: inside the spreads of repeats (where both sides "
               "have them) or inside the noise floor measured between "
               "identical runs\n"
             : "noise: the spreads of repeats only (noise floors off)\n";
  if (c.options.fail_on_regression_pct) {
    std::snprintf(line, sizeof(line), "%d regression%s beyond %.1f%%: %s\n",
                  c.regressions, c.regressions == 1 ? "" : "s",
                  *c.options.fail_on_regression_pct,
                  c.regressions ? "FAIL" : "PASS");
    out += line;
  }
  return out;
}

json ComparisonToJson(const Comparison& c) {
  json j;
  j["schema"] = "disktune.compare";
  j["schema_version"] = "1.1";
  j["a"] = c.a_label;
  j["b"] = c.b_label;
  j["threshold_pct"] = c.options.threshold_pct;
  j["noise_floors"] = c.options.noise_floors;
  if (c.options.fail_on_regression_pct) {
    j["fail_on_regression_pct"] = *c.options.fail_on_regression_pct;
  }
  j["environment_differences"] = c.environment_differences;
  json rows = json::array();
  for (const auto& r : c.rows) {
    json e = {{"kind", r.kind},
              {"item", r.item},
              {"metric", r.metric},
              {"higher_is_better", r.higher_is_better},
              {"a", r.a},
              {"b", r.b},
              {"verdict", CompareVerdictName(r.verdict)},
              {"rule", r.rule}};
    if (r.noise_floor_ratio) {
      e["noise_floor"] = {{"kind", r.noise_kind},
                          {"ratio", *r.noise_floor_ratio}};
    }
    if (r.change_pct) e["change_pct"] = *r.change_pct;
    if (r.a_spread) e["a_spread"] = IntervalJson(*r.a_spread);
    if (r.b_spread) e["b_spread"] = IntervalJson(*r.b_spread);
    if (!r.note.empty()) e["note"] = r.note;
    rows.push_back(std::move(e));
  }
  j["rows"] = std::move(rows);
  j["only_in_a"] = c.only_in_a;
  j["only_in_b"] = c.only_in_b;
  j["not_comparable"] = c.not_comparable;
  j["failed_in_b"] = c.failed_in_b;
  j["regressions"] = c.regressions;
  return j;
}

}  // namespace disktune
