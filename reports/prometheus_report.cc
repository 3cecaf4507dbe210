#include "reports/prometheus_report.h"

#include <charconv>
#include <cmath>
#include <ctime>
#include <iterator>
#include <utility>
#include <vector>

#include "reports/analysis_registry.h"
#include "reports/char_escape.h"
#include "reports/render_util.h"
#include "src/model/analysis_checks.h"
#include "src/model/analysis_durability.h"
#include "src/model/analysis_rand_read_saturation.h"
#include "src/model/analysis_write_cache.h"

namespace disktune {
namespace {

using Labels = std::vector<std::pair<std::string, std::string>>;

// The shortest text that reads back as the same double.
std::string Value(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, res.ptr);
}

std::string LabelText(const Labels& labels) {
  if (labels.empty()) return "";
  std::string out = "{";
  for (size_t i = 0; i < labels.size(); i++) {
    out += (i ? "," : "") + labels[i].first + "=\"" +
           PrometheusLabelValue(labels[i].second) + "\"";
  }
  return out + "}";
}

// HELP text: backslash and newline are escaped.
std::string HelpText(std::string_view s) {
  return EscapeChars(s, {{'\\', "\\\\"}, {'\n', "\\n"}});
}

// Families are written whole, in the order first used: the format wants a
// family's samples together after its HELP and TYPE.
class Exposition {
 public:
  void Add(const std::string& name, const char* type, const std::string& help,
           const Labels& labels, double v,
           const std::string& sample_suffix = "") {
    Family* f = nullptr;
    for (auto& x : families_) {
      if (x.name == name) f = &x;
    }
    if (!f) {
      families_.push_back(Family{name, type, help, ""});
      f = &families_.back();
    }
    f->samples +=
        name + sample_suffix + LabelText(labels) + " " + Value(v) + "\n";
  }
  std::string Text() const {
    std::string out;
    for (const auto& f : families_) {
      out += "# HELP " + f.name + " " + HelpText(f.help) + "\n";
      out += "# TYPE " + f.name + " " + f.type + "\n";
      out += f.samples;
    }
    return out;
  }

 private:
  struct Family {
    std::string name;
    std::string type;
    std::string help;
    std::string samples;
  };
  std::vector<Family> families_;
};

Labels With(Labels l, const std::string& k, const std::string& v) {
  l.emplace_back(k, v);
  return l;
}

void Summary(Exposition& e, const std::string& name, const std::string& help,
             const Labels& l, const LatencySummary& s) {
  const std::pair<const char*, uint64_t> q[] = {
      {"0.5", s.p50}, {"0.9", s.p90}, {"0.99", s.p99}, {"0.999", s.p999}};
  for (const auto& [quantile, ns] : q) {
    e.Add(name, "summary", help, With(l, "quantile", quantile),
          static_cast<double>(ns) / 1e9);
  }
  e.Add(name, "summary", help, l, s.mean * static_cast<double>(s.samples) / 1e9,
        "_sum");
  e.Add(name, "summary", help, l, static_cast<double>(s.samples), "_count");
}

std::optional<double> ParseUtc(const std::string& iso) {
  std::tm tm{};
  if (std::sscanf(iso.c_str(), "%d-%d-%dT%d:%d:%dZ", &tm.tm_year, &tm.tm_mon,
                  &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6) {
    return std::nullopt;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<double>(timegm(&tm));
}

void Probes(const Report& r, Exposition& e) {
  for (const auto& p : r.probes) {
    Labels l = {
        {"device", ProbeDevice(r, p)}, {"probe", p.probe}, {"name", p.name}};
    e.Add("disktune_probe_status", "gauge",
          "1 for the probe point's status (ok, skipped, failed).",
          With(l, "status", ProbeStatusName(p.status)), 1);
  }
  for (const auto& p : r.probes) {
    if (p.status != ProbeStatus::kOk) continue;
    Labels l = {
        {"device", ProbeDevice(r, p)}, {"probe", p.probe}, {"name", p.name}};
    if (p.iops) {
      e.Add("disktune_probe_iops", "gauge",
            "I/O operations per second at a probe point.", l, *p.iops);
    }
    if (p.ops_per_sec) {
      e.Add("disktune_probe_ops_per_second", "gauge",
            "Operations (write + sync) per second at a durability probe point.",
            l, *p.ops_per_sec);
    }
    if (p.bytes_per_sec) {
      e.Add("disktune_probe_bytes_per_second", "gauge",
            "Bytes per second at a probe point.", l, *p.bytes_per_sec);
    }
  }
  for (const auto& p : r.probes) {
    if (p.status != ProbeStatus::kOk || !p.latency_ns) continue;
    Labels l = {
        {"device", ProbeDevice(r, p)}, {"probe", p.probe}, {"name", p.name}};
    Summary(e, "disktune_probe_latency_seconds",
            "Latency of one operation at a probe point, warm-up discarded.", l,
            *p.latency_ns);
  }
  for (const auto& p : r.probes) {
    if (p.status != ProbeStatus::kOk || !p.latency_ns) continue;
    Labels l = {
        {"device", ProbeDevice(r, p)}, {"probe", p.probe}, {"name", p.name}};
    e.Add("disktune_probe_latency_max_seconds", "gauge",
          "Slowest operation at a probe point.", l,
          static_cast<double>(p.latency_ns->max) / 1e9);
  }
  for (const auto& p : r.probes) {
    if (p.status != ProbeStatus::kOk) continue;
    const nlohmann::json* fps = JsonNum(p.metrics, "flushes_per_sync");
    if (!fps) continue;
    Labels l = {
        {"device", ProbeDevice(r, p)}, {"probe", p.probe}, {"name", p.name}};
    e.Add("disktune_probe_flushes_per_sync", "gauge",
          "Device flush requests completed per sync (under 0.1: syncs do not "
          "reach the disk).",
          l, fps->get<double>());
  }
}

// The analyses' families, one hook per kind (reports/analysis_registry.h).
void Saturation(const Report& r, const std::string& dev, Exposition& e) {
  const RandReadSaturation& s = *r.analyses.rand_read_saturation;
  e.Add("disktune_rand_read_saturation_queue_depth", "gauge",
        "Smallest queue depth reaching 95% of the best random-read IOPS.",
        {{"device", dev}}, s.queue_depth);
  e.Add("disktune_rand_read_saturation_iops", "gauge",
        "Random-read IOPS at the saturation queue depth.", {{"device", dev}},
        s.iops);
}

void Checks(const Report& r, const std::string& dev, Exposition& e) {
  const NamedChecks& checks = *r.analyses.checks;
  auto check_labels = [&](const std::string& name) {
    return Labels{{"device", dev}, {"check", name}};
  };
  for (const auto& [name, c] : checks) {
    e.Add("disktune_check_pass", "gauge",
          "1 when a named check passed, 0 when it failed.", check_labels(name),
          c.pass ? 1 : 0);
  }
  for (const auto& [name, c] : checks) {
    if (c.value_ns) {
      e.Add("disktune_check_value_seconds", "gauge",
            "The figure a named check measured.", check_labels(name),
            static_cast<double>(*c.value_ns) / 1e9);
    }
  }
  for (const auto& [name, c] : checks) {
    if (c.samples) {
      e.Add("disktune_check_samples", "gauge",
            "The samples a named check's figure rests on (a p99 needs "
            "1,000; fewer give no verdict).",
            check_labels(name), static_cast<double>(*c.samples));
    }
  }
  for (const auto& [name, c] : checks) {
    if (c.threshold_ns) {
      e.Add("disktune_check_threshold_seconds", "gauge",
            "The limit of a named check.", check_labels(name),
            static_cast<double>(*c.threshold_ns) / 1e9);
    }
  }
}

void DurabilityVerdicts(const Report& r, const std::string& /*dev*/,
                        Exposition& e) {
  for (const ScopeVerdict& v : r.analyses.durability->verdicts) {
    e.Add("disktune_durability_verdict", "gauge",
          "1 for the durability verdict of a scope (did syncs reach the "
          "device?).",
          {{"device", v.disk}, {"scope", v.scope}, {"verdict", v.verdict.id}},
          1);
  }
}

using PrometheusHook = void (*)(const Report&, const std::string& dev,
                                Exposition&);
// By AnalysisId; nullptr for a kind with no family.
constexpr PrometheusHook kPrometheusHooks[] = {
    nullptr,              // throttle_by_probe
    nullptr,              // memory_budget
    &Saturation,          // rand_read_saturation
    nullptr,              // page_cache
    nullptr,              // leveldb_2011
    &DurabilityVerdicts,  // durability
    nullptr,              // write_cache
    &Checks,              // checks
    nullptr,              // write_cache_ab
    nullptr,              // fs_matrix
    nullptr,              // bytes_written
};
static_assert(std::size(kPrometheusHooks) == kAnalysisKinds,
              "one Prometheus hook per kind in reports/analysis_registry.h");

// The kinds with a hook, in the order their families have always come out
// (a diff of two scrapes should show figures, not moved families).
constexpr AnalysisId kPrometheusOrder[] = {AnalysisId::kRandReadSaturation,
                                           AnalysisId::kChecks,
                                           AnalysisId::kDurability};

constexpr bool EveryHookOrdered() {
  for (size_t id = 0; id < kAnalysisKinds; id++) {
    bool ordered = false;
    for (AnalysisId o : kPrometheusOrder) {
      ordered |= static_cast<size_t>(o) == id;
    }
    if ((kPrometheusHooks[id] != nullptr) != ordered) return false;
  }
  return true;
}
static_assert(EveryHookOrdered(),
              "kPrometheusOrder holds exactly the kinds with a hook");

void Analyses(const Report& r, Exposition& e) {
  std::string dev = ReportDevice(r);
  for (AnalysisId id : kPrometheusOrder) {
    if (KindOf(id).present(r.analyses)) {
      kPrometheusHooks[static_cast<size_t>(id)](r, dev, e);
    }
  }
}

void Benches(const Report& r, Exposition& e) {
  std::string dev = ReportDevice(r);
  auto labels = [&](const bench::BenchResult& b) {
    return Labels{{"device", dev},
                  {"engine", b.engine},
                  {"scenario", b.scenario},
                  {"step", std::to_string(b.step)}};
  };
  auto ok = [](const bench::BenchResult& b) {
    return b.status == bench::RunStatus::kOk ||
           b.status == bench::RunStatus::kPartial;
  };
  for (const auto& b : r.benches) {
    e.Add("disktune_bench_status", "gauge",
          "1 for a benchmark's status (ok, partial, failed, skipped).",
          With(labels(b), "status", bench::RunStatusName(b.status)), 1);
  }
  for (const auto& b : r.benches) {
    if (!ok(b)) continue;
    e.Add("disktune_bench_ops_per_second", "gauge",
          "Operations per second of a db_bench scenario (the median run with "
          "repeats).",
          labels(b), b.metrics.ops_per_sec);
  }
  for (const auto& b : r.benches) {
    if (!ok(b) || !b.repeats) continue;
    const auto& s = b.repeats->ops_per_sec;
    const char* help =
        "Spread of ops per second over the repeats: min, max and the 95% "
        "interval.";
    e.Add("disktune_bench_ops_per_second_bound", "gauge", help,
          With(labels(b), "bound", "min"), s.min);
    e.Add("disktune_bench_ops_per_second_bound", "gauge", help,
          With(labels(b), "bound", "max"), s.max);
    if (s.ci95_low && s.ci95_high) {
      e.Add("disktune_bench_ops_per_second_bound", "gauge", help,
            With(labels(b), "bound", "ci95_low"), *s.ci95_low);
      e.Add("disktune_bench_ops_per_second_bound", "gauge", help,
            With(labels(b), "bound", "ci95_high"), *s.ci95_high);
    }
  }
  for (const auto& b : r.benches) {
    if (!ok(b)) continue;
    e.Add("disktune_bench_seconds_per_op", "gauge",
          "Summed per-thread time per operation (db_bench's micros/op, in "
          "seconds).",
          labels(b), b.metrics.micros_per_op / 1e6);
  }
  // A gauge family of a figure that some scenarios do not have.
  auto optional_gauge = [&](const char* name, const char* help, auto figure) {
    for (const auto& b : r.benches) {
      const auto& v = b.metrics.*figure;
      if (!ok(b) || !v) continue;
      e.Add(name, "gauge", help, labels(b), static_cast<double>(*v));
    }
  };
  optional_gauge("disktune_bench_bytes_per_second",
                 "Bytes per second of a scenario.",
                 &bench::BenchMetrics::bytes_per_sec);
  for (const auto& b : r.benches) {
    if (!ok(b) || !b.metrics.latency_ns) continue;
    Summary(e, "disktune_bench_latency_seconds",
            "Latency of one operation of a scenario.", labels(b),
            *b.metrics.latency_ns);
  }
  optional_gauge("disktune_bench_write_amplification_ratio",
                 "Bytes the device wrote per byte the scenario wrote.",
                 &bench::BenchMetrics::write_amplification);
  optional_gauge("disktune_bench_db_size_bytes",
                 "Size of the database on disk afterwards.",
                 &bench::BenchMetrics::db_size_bytes);
  optional_gauge("disktune_bench_peak_rss_bytes",
                 "Peak resident memory during a scenario.",
                 &bench::BenchMetrics::peak_rss_bytes);
}

}  // namespace

std::string PrometheusLabelValue(std::string_view v) {
  return EscapeChars(v, {{'\\', "\\\\"}, {'"', "\\\""}, {'\n', "\\n"}});
}

std::string RenderPrometheus(const Report& r) {
  Exposition e;
  const Environment& env = r.environment;
  e.Add("disktune_info", "gauge",
        "The disktune run this file describes (value is always 1).",
        {{"version", r.tool_version},
         {"command", r.command},
         {"completion", r.completion},
         {"host", env.system.hostname},
         {"kernel", env.system.kernel},
         {"device", ReportDevice(r)},
         {"model", env.device ? env.device->model : ""},
         {"filesystem", env.filesystem.type}},
        1);
  if (auto t = ParseUtc(r.created_at)) {
    e.Add("disktune_report_timestamp_seconds", "gauge",
          "When the report was created, in seconds since the Unix epoch.", {},
          *t);
  }
  Probes(r, e);
  Analyses(r, e);
  Benches(r, e);
  for (const LibraryBuild& b : env.engine_libraries) {
    e.Add("disktune_engine_library_info", "gauge",
          "The engine library build the figures came from (value is always "
          "1).",
          {{"engine", b.engine},
           {"version", b.version},
           {"shared_object", b.shared_object},
           {"assertions", b.assertions}},
          1);
    if (b.assertions != "unknown") {
      e.Add("disktune_engine_library_assertions_enabled", "gauge",
            "1 when the engine library is a build with assertions on (its "
            "figures are slower than a release build's).",
            {{"engine", b.engine}}, b.assertions == "on" ? 1 : 0);
    }
  }
  e.Add("disktune_warnings", "gauge", "Warnings the run raised.", {},
        static_cast<double>(r.warnings.size()));
  return e.Text();
}

}  // namespace disktune
