#include "reports/report_query.h"

#include <algorithm>
#include <cstdlib>

#include "reports/render_util.h"
#include "src/core/histogram.h"
#include "src/core/units.h"
#include "src/model/named_figures.h"

namespace disktune {
namespace {

using nlohmann::json;

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.substr(s.size() - suffix.size()) == suffix;
}

bool IsLatencyKey(std::string_view m) {
  static const char* kKeys[] = {"p50", "p90", "p99",  "p999",
                                "min", "max", "mean", "stddev"};
  for (const char* k : kKeys) {
    if (m == k) return true;
  }
  return false;
}

// The factor that takes a figure named `metric` to its dimension's canonical
// unit: *_ms and micros_per_op are times held in other units than ns.
double CanonicalFactor(std::string_view metric) {
  if (metric == "micros_per_op" || EndsWith(metric, "_us")) return 1e3;
  if (EndsWith(metric, "_ms")) return 1e6;
  return 1;
}

Result<Figure> FromJsonValue(const json& v, std::string_view metric,
                             std::string resolved) {
  Figure f;
  f.resolved = std::move(resolved);
  f.metric = std::string(metric);
  if (v.is_boolean()) {
    f.value = v.get<bool>() ? 1 : 0;
    f.is_bool = true;
    f.dimension = Dimension::kCount;
    return f;
  }
  if (!v.is_number()) {
    return Status::InvalidArgument(
        "'" + f.resolved + "." + f.metric + "' is " +
        (v.is_string() ? "text ('" + v.get<std::string>() + "')"
                       : std::string("not a number")) +
        ", not a figure to compare");
  }
  f.dimension = DimensionOfMetric(metric);
  f.value = v.get<double>() * CanonicalFactor(metric);
  return f;
}

std::string Join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// A metric of one result's JSON: top level, latency_ns, or `metrics`.
const json* FindMetric(const json& j, std::string_view metric) {
  if (IsLatencyKey(metric)) {
    auto lat = j.find("latency_ns");
    if (lat == j.end() || !lat->is_object()) return nullptr;
    auto it = lat->find(metric);
    return it == lat->end() ? nullptr : &*it;
  }
  if (size_t dot = metric.find('.'); dot != std::string_view::npos) {
    // "sync_latency_ns.p99": a member of an object under `metrics`.
    auto m = j.find("metrics");
    if (m == j.end() || !m->is_object()) return nullptr;
    auto obj = m->find(std::string(metric.substr(0, dot)));
    if (obj == m->end() || !obj->is_object()) return nullptr;
    auto leaf = obj->find(std::string(metric.substr(dot + 1)));
    return leaf == obj->end() ? nullptr : &*leaf;
  }
  auto it = j.find(metric);
  if (it != j.end() && (it->is_number() || it->is_boolean())) return &*it;
  auto m = j.find("metrics");
  if (m != j.end() && m->is_object()) {
    auto mit = m->find(metric);
    if (mit != m->end()) return &*mit;
  }
  return nullptr;
}

// A percentile's sample count: latency_ns.samples for p99, the group's own
// "samples" for sync_latency_ns.p99.
void AttachSamples(const json& j, std::string_view metric, Figure* f) {
  size_t dot = metric.rfind('.');
  std::string_view leaf =
      dot == std::string_view::npos ? metric : metric.substr(dot + 1);
  std::optional<double> q = QuantileOfKey(leaf);
  if (!q) return;
  const json* group = nullptr;
  if (dot == std::string_view::npos) {
    auto lat = j.find("latency_ns");
    if (lat != j.end()) group = &*lat;
  } else {
    auto m = j.find("metrics");
    if (m != j.end() && m->is_object()) {
      auto g = m->find(std::string(metric.substr(0, dot)));
      if (g != m->end()) group = &*g;
    }
  }
  if (!group || !group->is_object()) return;
  auto n = group->find("samples");
  if (n == group->end() || !n->is_number_unsigned()) return;
  f->samples = n->get<uint64_t>();
  f->samples_needed = MinSamplesForQuantile(*q);
}

bool AnyProbeHasMetric(const Report& r, std::string_view metric) {
  std::string head(metric.substr(0, metric.find('.')));
  for (const auto& p : r.probes) {
    if (p.metrics.is_object() && p.metrics.contains(head)) return true;
  }
  return false;
}

// Whether some probe's `metrics` holds an object named `key` (a latency
// summary of one part of an operation, such as sync_latency_ns).
bool AnyProbeHasMetricGroup(const Report& r, std::string_view key) {
  for (const auto& p : r.probes) {
    if (!p.metrics.is_object()) continue;
    auto it = p.metrics.find(std::string(key));
    if (it != p.metrics.end() && it->is_object()) return true;
  }
  return false;
}

Result<Figure> LookupProbe(const Report& r, std::string_view path, size_t dot) {
  std::string target(path.substr(0, dot));
  std::string metric(path.substr(dot + 1));
  const auto& known = KnownProbeMetrics();
  if (std::find(known.begin(), known.end(), metric) == known.end() &&
      !AnyProbeHasMetric(r, metric)) {
    return Status::InvalidArgument("unknown metric '" + metric +
                                   "' (probe metrics: " + Join(known) +
                                   ", or a key of a probe's metrics)");
  }
  const ProbeResult* hit = nullptr;
  for (const auto& p : r.probes) {
    if (p.name == target) {
      hit = &p;
      break;
    }
  }
  if (!hit) {
    // A prefix must name one point: fsync.fdatasync.2300 matches the append,
    // overwrite and prealloc points, whose figures differ, and a gate that
    // picked one silently would judge another figure than the reader meant.
    std::string prefix = target + ".";
    std::vector<std::string> candidates;
    for (const auto& p : r.probes) {
      if (p.name.rfind(prefix, 0) != 0) continue;
      if (!hit) hit = &p;
      candidates.push_back(p.name + "." + metric);
    }
    if (candidates.size() > 1) {
      constexpr size_t kShown = 8;
      std::string list;
      for (size_t i = 0; i < candidates.size() && i < kShown; i++)
        list += (i ? ", " : "") + candidates[i];
      if (candidates.size() > kShown)
        list += " and " + std::to_string(candidates.size() - kShown) + " more";
      return Status::InvalidArgument(
          "'" + target + "." + metric + "' matches " +
          std::to_string(candidates.size()) + " figures; name one: " + list);
    }
  }
  if (!hit)
    return Status::NotFound("no probe named " + target + "[.*] in the report");
  if (hit->status != ProbeStatus::kOk) {
    return Status::NotFound(
        hit->name + " was " + ProbeStatusName(hit->status) + ": " +
        (hit->status == ProbeStatus::kSkipped ? hit->reason : hit->error));
  }
  json j = *hit;
  const json* v = FindMetric(j, metric);
  // The fsync probes count syncs (ops_per_sec), the block probes I/Os (iops):
  // either name reaches the one a probe has.
  if (!v && metric == "iops") v = FindMetric(j, "ops_per_sec");
  if (!v && metric == "ops_per_sec") v = FindMetric(j, "iops");
  if (!v) return Status::NotFound(hit->name + " has no " + metric + " figure");
  Result<Figure> f = FromJsonValue(*v, metric, hit->name);
  if (f.ok()) AttachSamples(j, metric, &*f);
  return f;
}

Result<Figure> LookupBench(const Report& r, std::string_view path,
                           size_t* metric_offset) {
  // bench.<engine>.<scenario>[#N].<metric>
  std::string_view rest = path.substr(6);
  size_t dot1 = rest.find('.');
  size_t last = rest.rfind('.');
  if (dot1 == std::string_view::npos || last == dot1) {
    return Status::InvalidArgument(
        "a bench path is bench.<engine>.<scenario>.<metric>, e.g. "
        "bench.leveldb.fillrandom.ops_per_sec");
  }
  if (metric_offset) *metric_offset = 6 + last + 1;
  std::string engine(rest.substr(0, dot1));
  std::string scenario(rest.substr(dot1 + 1, last - dot1 - 1));
  std::string metric(rest.substr(last + 1));
  const auto& known = KnownBenchMetrics();
  if (std::find(known.begin(), known.end(), metric) == known.end()) {
    return Status::InvalidArgument("unknown bench metric '" + metric +
                                   "' (bench metrics: " + Join(known) + ")");
  }
  int want = 1;
  if (size_t hash = scenario.find('#'); hash != std::string::npos) {
    char* end = nullptr;
    long n = std::strtol(scenario.c_str() + hash + 1, &end, 10);
    if (n < 1 || *end != '\0') {
      return Status::InvalidArgument(
          "'" + scenario.substr(hash) +
          "' after a scenario must be #N with N from 1");
    }
    want = static_cast<int>(n);
    scenario.resize(hash);
  }
  std::vector<int> occ = BenchOccurrences(r.benches);
  for (size_t i = 0; i < r.benches.size(); i++) {
    const auto& b = r.benches[i];
    if (b.engine != engine || b.scenario != scenario || occ[i] != want)
      continue;
    std::string resolved = "bench." + engine + "." + BenchKey(b, occ[i]);
    if (b.status == bench::RunStatus::kFailed ||
        b.status == bench::RunStatus::kSkipped) {
      return Status::NotFound(resolved + " " + bench::RunStatusName(b.status) +
                              ": " + b.error);
    }
    json j = b;
    const json* v = FindMetric(j["metrics"], metric);
    if (!v) return Status::NotFound(resolved + " has no " + metric + " figure");
    return FromJsonValue(*v, metric, resolved);
  }
  return Status::NotFound("no bench of " + scenario +
                          (want > 1 ? " #" + std::to_string(want) : "") +
                          " on " + engine + " in the report");
}

Result<Figure> LookupAnalyses(const Report& r, std::string_view path,
                              size_t* metric_offset) {
  // The query language walks the analyses' JSON form, as a result file
  // holds it.
  const json analyses = model::AnalysesToJson(r.analyses);
  const json* node = &analyses;
  const json* parent = nullptr;
  std::string walked = "analyses";
  size_t pos = 9;  // after "analyses."
  std::string key;
  while (pos <= path.size()) {
    size_t next = path.find('.', pos);
    if (next == std::string_view::npos) next = path.size();
    key = std::string(path.substr(pos, next - pos));
    if (metric_offset) *metric_offset = pos;
    if (key.empty())
      return Status::InvalidArgument("empty key in '" + std::string(path) +
                                     "'");
    parent = node;
    if (node->is_array()) {
      char* end = nullptr;
      unsigned long idx = std::strtoul(key.c_str(), &end, 10);
      if (*end != '\0' || idx >= node->size()) {
        return Status::NotFound(walked + " has no element " + key);
      }
      node = &(*node)[idx];
    } else if (node->is_object() && node->contains(key)) {
      node = &(*node)[key];
    } else {
      return Status::NotFound(walked + " has no '" + key + "'");
    }
    if (next == path.size()) break;
    walked += "." + key;
    pos = next + 1;
  }
  if (node->is_object() || node->is_array()) {
    return Status::InvalidArgument(
        "'" + std::string(path) +
        "' is a group of figures; name one of its members");
  }
  Result<Figure> f = FromJsonValue(*node, key, walked);
  // A figure beside "samples" and "samples_needed" (the etcd check) carries
  // them, so a verdict on too few samples is INSUFFICIENT.
  if (f.ok() && parent && parent->is_object() &&
      parent->contains("samples_needed") &&
      (*parent)["samples"].is_number_unsigned() &&
      (*parent)["samples_needed"].is_number_unsigned() && key != "samples" &&
      key != "samples_needed") {
    f->samples = (*parent)["samples"].get<uint64_t>();
    f->samples_needed = (*parent)["samples_needed"].get<uint64_t>();
  }
  return f;
}

}  // namespace

const char* DimensionName(Dimension d) {
  switch (d) {
    case Dimension::kCount:
      return "a count";
    case Dimension::kRate:
      return "a rate (ops/s)";
    case Dimension::kTime:
      return "a time";
    case Dimension::kBytes:
      return "a size";
    case Dimension::kByteRate:
      return "a bandwidth (bytes/s)";
  }
  return "?";
}

Dimension DimensionOfMetric(std::string_view m) {
  // "sync_latency_ns.p99": the leaf when it names a percentile, else the group.
  if (size_t dot = m.rfind('.'); dot != std::string_view::npos) {
    std::string_view leaf = m.substr(dot + 1);
    return DimensionOfMetric(IsLatencyKey(leaf) ? leaf : m.substr(0, dot));
  }
  if (IsLatencyKey(m) || EndsWith(m, "_ns") || EndsWith(m, "_us") ||
      EndsWith(m, "_ms") || m == "micros_per_op") {
    return Dimension::kTime;
  }
  if (m == "bytes_per_sec" || EndsWith(m, "_bytes_per_sec"))
    return Dimension::kByteRate;
  if (m == "iops" || EndsWith(m, "_per_sec")) return Dimension::kRate;
  if (m == "bytes" || EndsWith(m, "_bytes")) return Dimension::kBytes;
  return Dimension::kCount;
}

std::string FormatQuantity(double v, Dimension d) {
  switch (d) {
    case Dimension::kTime:
      return FormatDuration(v);
    case Dimension::kBytes:
      return FormatBytes(v);
    case Dimension::kByteRate:
      return FormatRate(v);
    case Dimension::kRate:
      return (v >= 100 ? Thousands(v) : Fixed(v, 1)) + " ops/s";
    case Dimension::kCount:
      if (v == static_cast<double>(static_cast<long long>(v)))
        return Thousands(v);
      return Fixed(v, 3);
  }
  return "";
}

std::string FormatFigure(double value, Dimension d, std::string_view metric) {
  if (metric == "iops") return Thousands(value) + " IOPS";
  return FormatQuantity(value, d);
}

const std::vector<std::string>& KnownProbeMetrics() {
  static const std::vector<std::string> k = {
      "iops",       "ops_per_sec", "bytes_per_sec", "samples", "bytes",
      "elapsed_ns", "p50",         "p90",           "p99",     "p999",
      "min",        "max",         "mean",          "stddev"};
  return k;
}

const std::vector<std::string>& KnownBenchMetrics() {
  static const std::vector<std::string> k = {"ops_per_sec",
                                             "micros_per_op",
                                             "bytes_per_sec",
                                             "ops",
                                             "elapsed_ns",
                                             "bytes",
                                             "found",
                                             "reads",
                                             "cpu_user_ns",
                                             "cpu_system_ns",
                                             "peak_rss_bytes",
                                             "user_write_bytes",
                                             "device_write_bytes",
                                             "write_amplification",
                                             "db_size_bytes",
                                             "live_data_bytes",
                                             "space_amplification",
                                             "p50",
                                             "p90",
                                             "p99",
                                             "p999",
                                             "min",
                                             "max",
                                             "mean",
                                             "stddev"};
  return k;
}

Result<Figure> LookupFigure(const Report& report, std::string_view path,
                            size_t* metric_offset) {
  if (path.rfind("bench.", 0) == 0)
    return LookupBench(report, path, metric_offset);
  if (path.rfind("analyses.", 0) == 0)
    return LookupAnalyses(report, path, metric_offset);
  // etcd.<metric>, wal.<metric>: the named figure's point (named_figures.h).
  if (size_t first = path.find('.'); first != std::string_view::npos) {
    if (const NamedFigure* nf = FindNamedFigure(path.substr(0, first))) {
      const ProbeResult* point = NamedFigurePoint(*nf, report.probes);
      if (!point) {
        if (metric_offset) *metric_offset = 0;
        return Status::NotFound(std::string(nf->name) + " was not measured (" +
                                nf->what + ")");
      }
      Result<Figure> f = LookupFigure(
          report, point->name + std::string(path.substr(first)), nullptr);
      if (metric_offset) *metric_offset = first + 1;
      return f;
    }
  }
  size_t dot = path.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == path.size()) {
    if (metric_offset) *metric_offset = 0;
    return Status::InvalidArgument(
        "a path is <probe name>.<metric> (rand_read.4k.qd32.iops), "
        "bench.<engine>.<scenario>.<metric> or analyses.<key>...");
  }
  // <probe>.metrics.<group>.<leaf> and <probe>.<group>.<leaf>, e.g.
  // fsync.fdatasync.2300.append.sync_latency_ns.p99 (the sync call alone).
  if (size_t m = path.find(".metrics."); m != std::string_view::npos) {
    std::string rewritten =
        std::string(path.substr(0, m)) + "." + std::string(path.substr(m + 9));
    if (metric_offset) *metric_offset = dot + 1;
    return LookupProbe(report, rewritten, m);  // rewritten[m] is the dot
  }
  size_t group_dot = path.rfind('.', dot - 1);
  if (group_dot != std::string_view::npos && group_dot > 0 &&
      AnyProbeHasMetricGroup(report,
                             path.substr(group_dot + 1, dot - group_dot - 1))) {
    if (metric_offset) *metric_offset = dot + 1;
    return LookupProbe(report, path, group_dot);
  }
  if (metric_offset) *metric_offset = dot + 1;
  return LookupProbe(report, path, dot);
}

}  // namespace disktune
