#include "reports/fleet.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "generated/version.h"
#include "reports/fleet_predicted.h"
#include "reports/noise_floor.h"
#include "reports/render_util.h"
#include "reports/tune_table.h"
#include "src/core/sysinfo.h"
#include "src/model/analysis_durability.h"
#include "src/model/analysis_write_cache.h"

namespace disktune {
namespace {

using nlohmann::json;

std::vector<FleetFigure> DeviceFigures() {
  return {
      {"read_4k_qd1_p50_ns", "4 KiB QD1 read p50", "rand_read.4k.qd1.p50",
       Dimension::kTime, "p50", false},
      {"read_4k_qd32_iops", "4 KiB QD32 read IOPS", "rand_read.4k.qd32.iops",
       Dimension::kRate, "iops", true},
      {"read_1m_bytes_per_sec", "1 MiB read bandwidth",
       "seq_read.1m.qd1.bytes_per_sec", Dimension::kByteRate, "bytes_per_sec",
       true},
      // The etcd-style append: the probe measures append before overwrite,
      // and the prefix path resolves to it.
      {"fdatasync_2300_p99_ns", "fdatasync p99 (2300 B append)",
       "fsync.fdatasync.2300.append.p99", Dimension::kTime, "p99", false},
  };
}

// fillrandom and readrandom of every engine the report benched: the engine
// figures the issue asks for, when present.
std::vector<FleetFigure> EngineFigures(const Report& report) {
  std::vector<FleetFigure> out;
  for (const bench::BenchResult& b : report.benches) {
    if (b.scenario != "fillrandom" && b.scenario != "readrandom") continue;
    std::string id = b.engine + "_" + b.scenario + "_ops_per_sec";
    bool seen = std::any_of(out.begin(), out.end(),
                            [&](const FleetFigure& f) { return f.id == id; });
    if (seen) continue;
    out.push_back({id, b.engine + " " + b.scenario,
                   "bench." + b.engine + "." + b.scenario + ".ops_per_sec",
                   Dimension::kRate, "ops_per_sec", true});
  }
  return out;
}

std::string GroupKey(const Report& r, bool by_model) {
  if (!by_model) return "all hosts";
  const auto& d = r.environment.device;
  if (!d || d->model.empty()) return "unknown model";
  return d->vendor.empty() ? d->model : d->vendor + " " + d->model;
}

// The verdict for the scratch directory's disk (what the run measured on).
std::string FlushVerdict(const Report& r) {
  const std::optional<DurabilityFindings>& d = r.analyses.durability;
  if (!d) return "";
  std::string first;
  for (const ScopeVerdict& v : d->verdicts) {
    if (first.empty()) first = v.verdict.id;
    if (v.scope == "scratch directory") return v.verdict.id;
  }
  return first;
}

// "mixed-leveldb: write_buffer_bytes, bloom_bits_per_key" or
// "mixed-leveldb: defaults": the profile `run` wrote, and what it changes.
std::string Recommended(const Report& r) {
  const std::optional<model::TuneSummary>& t = r.tune;
  if (!t || t->workload.empty() || t->engine.empty()) return "";
  std::string knobs;
  for (const std::string& k : t->recommendation.changed) {
    knobs += (knobs.empty() ? "" : ", ") + k;
  }
  return t->workload + "-" + t->engine + ": " +
         (knobs.empty() ? std::string("defaults") : knobs);
}

// The value most hosts share, if more than half of those that know it do.
std::string StrictMajority(const std::vector<std::string>& values) {
  std::map<std::string, size_t> counts;
  size_t known = 0;
  for (const std::string& v : values) {
    if (v.empty()) continue;
    counts[v]++;
    known++;
  }
  for (const auto& [v, n] : counts) {
    if (2 * n > known) return v;
  }
  return "";
}

std::string Ratio(double r) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), r >= 10 ? "%.0fx" : "%.1fx", r);
  return buf;
}

// The rule's ratio, raised to the noise floor of the figure's kind for a
// probe figure (bench figures have no measured floor).
double FigureMinRatio(const FleetRule& rule, const FleetFigure& fig) {
  size_t dot = fig.path.rfind('.');
  if (!rule.noise_floors || fig.path.rfind("bench.", 0) == 0 ||
      dot == std::string::npos) {
    return rule.min_ratio;
  }
  std::optional<NoiseFloor> floor =
      NoiseFloorFor("probe", std::string_view(fig.path).substr(0, dot),
                    std::string_view(fig.path).substr(dot + 1));
  return floor ? std::max(rule.min_ratio, floor->ratio) : rule.min_ratio;
}

void JudgeGroup(FleetReport& fleet, FleetGroup& g) {
  const FleetRule& rule = fleet.rule;
  g.judged = g.hosts.size() >= rule.min_hosts;
  g.stats.resize(fleet.figures.size());
  for (size_t f = 0; f < fleet.figures.size(); f++) {
    const FleetFigure& fig = fleet.figures[f];
    std::vector<double> values, logs;
    for (size_t h : g.hosts) {
      const std::optional<double>& v = fleet.hosts[h].cells[f].value;
      if (!v) continue;
      values.push_back(*v);
      if (*v > 0) logs.push_back(std::log(*v));
    }
    FleetGroupStat& st = g.stats[f];
    st.hosts = values.size();
    st.median = Median(values);
    // Judged on the logarithm (see fleet.h); a figure of 0 or less cannot
    // be, and leaves the group unjudged for that figure.
    if (values.empty() || logs.size() != values.size()) continue;
    double log_median = *Median(logs);
    st.median = std::exp(log_median);
    std::vector<double> dev;
    for (double l : logs) dev.push_back(std::fabs(l - log_median));
    st.mad_ln = Median(dev);
    if (values.size() < rule.min_hosts) continue;
    double sigma =
        std::max(*st.mad_ln * kMadToSigma, std::log1p(rule.mad_floor_fraction));
    double m = *st.median;
    for (size_t h : g.hosts) {
      FleetCell& c = fleet.hosts[h].cells[f];
      if (!c.value) continue;
      double v = *c.value;
      double d = std::fabs(std::log(v) - log_median);
      c.mads = d / sigma;
      c.ratio = std::exp(d);
      c.outlier = *c.mads > rule.max_mads && *c.ratio >= fig.min_ratio;
      if (!c.outlier) continue;
      bool higher = v > m;
      c.direction = higher == fig.higher_is_better ? "better" : "worse";
      fleet.outliers.push_back(
          {fleet.hosts[h].host, fig.id, c.direction,
           fig.label + " " + FormatFigure(v, fig.dimension, fig.metric) +
               " is " + Ratio(*c.ratio) + (higher ? " above" : " below") +
               " the group median " +
               FormatFigure(m, fig.dimension, fig.metric) + " (" +
               Fixed(*c.mads, 1) + " MADs), " + c.direction});
    }
  }
  std::vector<std::string> caches, verdicts;
  for (size_t h : g.hosts) {
    caches.push_back(fleet.hosts[h].write_cache);
    verdicts.push_back(fleet.hosts[h].flush_verdict);
  }
  g.write_cache_majority = StrictMajority(caches);
  g.flush_verdict_majority = StrictMajority(verdicts);
  if (!g.judged) return;
  auto categorical = [&](const std::string& id, const std::string& label,
                         const std::vector<std::string>& values,
                         const std::string& majority) {
    if (majority.empty()) return;
    size_t n = std::count(values.begin(), values.end(), majority);
    for (size_t i = 0; i < g.hosts.size(); i++) {
      if (values[i].empty() || values[i] == majority) continue;
      fleet.outliers.push_back(
          {fleet.hosts[g.hosts[i]].host, id, "differs",
           label + " " + values[i] + " where " + std::to_string(n) + " of " +
               std::to_string(g.hosts.size()) + " hosts have " + majority});
    }
  };
  categorical("write_cache", "write cache", caches, g.write_cache_majority);
  categorical("flush_verdict", "flush verdict", verdicts,
              g.flush_verdict_majority);
}

json OptNum(const std::optional<double>& v) {
  return v ? json(*v) : json(nullptr);
}

}  // namespace

std::string RatioRuleText(const FleetRule& r) {
  return "at least " + Fixed(r.min_ratio, 2) + "x" +
         (r.noise_floors ? " (or the figure's noise floor, where larger: how "
                           "far identical runs on one host land apart)"
                         : "");
}

std::optional<double> Median(std::vector<double> v) {
  if (v.empty()) return std::nullopt;
  size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + mid, v.end());
  double upper = v[mid];
  if (v.size() % 2 == 1) return upper;
  double lower = *std::max_element(v.begin(), v.begin() + mid);
  return (lower + upper) / 2;
}

FleetBuilder::FleetBuilder(const FleetRule& rule) {
  fleet_.rule = rule;
  fleet_.created_at = UtcTimestamp();
  fleet_.figures = DeviceFigures();
}

void FleetBuilder::SetPredictionBasis(FleetPredictionBasis basis) {
  fleet_.prediction = std::move(basis);
}

void FleetBuilder::Add(const std::string& file, const Report& r,
                       std::vector<FleetPrediction> predictions) {
  for (FleetFigure& f : EngineFigures(r)) {
    bool known =
        std::any_of(fleet_.figures.begin(), fleet_.figures.end(),
                    [&](const FleetFigure& k) { return k.id == f.id; });
    if (!known) fleet_.figures.push_back(std::move(f));
  }
  FleetHost h;
  h.hostname = r.environment.system.hostname;
  h.file = file;
  h.group = GroupKey(r, fleet_.rule.group_by_model);
  h.command = r.command;
  h.created_at = r.created_at;
  if (r.environment.device) {
    h.device = r.environment.device->disk;
    h.write_cache = r.environment.device->write_cache;
  }
  h.flush_verdict = FlushVerdict(r);
  h.recommended = Recommended(r);
  h.cpu_model = r.environment.system.cpu_model;
  h.predictions = std::move(predictions);
  // Every figure this report can have is known by now (a later report can
  // only add engines this one did not bench); Finish() fills the rest as
  // not measured.
  for (const FleetFigure& f : fleet_.figures) {
    FleetCell c;
    Result<Figure> got = LookupFigure(r, f.path);
    if (got.ok()) c.value = got->value;
    h.cells.push_back(c);
  }
  fleet_.hosts.push_back(std::move(h));
}

void FleetBuilder::Skip(const std::string& file, const std::string& error) {
  fleet_.skipped.push_back({file, error});
}

FleetReport FleetBuilder::Finish() {
  FleetReport fleet = std::move(fleet_);
  fleet_ = FleetReport();
  std::map<std::string, int> name_count;
  for (const FleetHost& h : fleet.hosts) name_count[h.hostname]++;
  std::map<std::string, size_t> group_index;
  for (FleetHost& h : fleet.hosts) {
    h.cells.resize(fleet.figures.size());
    std::string stem = std::filesystem::path(h.file).stem().string();
    // Several results from one machine (its disks one by one, or a test
    // playing a fleet) are told apart by their file names.
    if (h.hostname.empty()) {
      h.host = stem;
    } else if (name_count[h.hostname] > 1) {
      h.host = h.hostname + "/" + stem;
    } else {
      h.host = h.hostname;
    }
    group_index.emplace(h.group, 0);
  }
  for (auto& [key, index] : group_index) {
    index = fleet.groups.size();
    FleetGroup g;
    g.key = key;
    fleet.groups.push_back(g);
  }
  for (size_t i = 0; i < fleet.hosts.size(); i++) {
    fleet.groups[group_index[fleet.hosts[i].group]].hosts.push_back(i);
  }
  for (FleetFigure& f : fleet.figures)
    f.min_ratio = FigureMinRatio(fleet.rule, f);
  for (FleetGroup& g : fleet.groups) JudgeGroup(fleet, g);
  return fleet;
}

FleetReport BuildFleet(const std::vector<FleetInput>& inputs,
                       const FleetRule& rule) {
  FleetBuilder b(rule);
  for (const FleetInput& in : inputs) b.Add(in.file, in.report);
  return b.Finish();
}

json FleetToJson(const FleetReport& fleet) {
  json j;
  j["schema"] = kFleetSchema;
  j["schema_version"] = std::to_string(kFleetSchemaMajor) + "." +
                        std::to_string(kFleetSchemaMinor);
  j["tool_version"] = DISKTUNE_VERSION;
  j["created_at"] = fleet.created_at;
  const FleetRule& r = fleet.rule;
  j["rule"] = {
      {"max_mads", r.max_mads},
      {"min_ratio", r.min_ratio},
      {"min_hosts", r.min_hosts},
      {"mad_to_sigma", kMadToSigma},
      {"mad_floor_fraction", r.mad_floor_fraction},
      {"noise_floors", r.noise_floors},
      {"group_by", r.group_by_model ? "device_model" : "none"},
      {"text", "an outlier is more than " + Fixed(r.max_mads, 1) +
                   " MADs (of the natural log, x1.4826) and " +
                   RatioRuleText(r) +
                   " from the median of its device-model group of at least " +
                   std::to_string(r.min_hosts) + " hosts"}};
  j["figures"] = json::array();
  for (const FleetFigure& f : fleet.figures) {
    j["figures"].push_back(
        {{"id", f.id},
         {"label", f.label},
         {"path", f.path},
         {"min_ratio", f.min_ratio},
         {"better", f.higher_is_better ? "higher" : "lower"}});
  }
  j["groups"] = json::array();
  for (const FleetGroup& g : fleet.groups) {
    json jg;
    jg["key"] = g.key;
    jg["hosts"] = json::array();
    for (size_t h : g.hosts) jg["hosts"].push_back(fleet.hosts[h].host);
    jg["judged"] = g.judged;
    if (!g.judged) {
      jg["note"] = "fewer than " + std::to_string(r.min_hosts) +
                   " hosts: medians only, no outliers";
    }
    jg["figures"] = json::object();
    for (size_t f = 0; f < fleet.figures.size(); f++) {
      const FleetGroupStat& st = g.stats[f];
      if (st.hosts == 0) continue;
      json jf = {{"hosts", st.hosts}, {"median", OptNum(st.median)}};
      if (st.mad_ln) jf["mad_ln"] = *st.mad_ln;
      jg["figures"][fleet.figures[f].id] = jf;
    }
    if (!g.write_cache_majority.empty())
      jg["write_cache_majority"] = g.write_cache_majority;
    if (!g.flush_verdict_majority.empty())
      jg["flush_verdict_majority"] = g.flush_verdict_majority;
    j["groups"].push_back(jg);
  }
  j["hosts"] = json::array();
  for (const FleetHost& h : fleet.hosts) {
    json jh = {{"host", h.host},       {"hostname", h.hostname},
               {"file", h.file},       {"group", h.group},
               {"command", h.command}, {"created_at", h.created_at}};
    if (!h.device.empty()) jh["device"] = h.device;
    if (!h.write_cache.empty()) jh["write_cache"] = h.write_cache;
    if (!h.flush_verdict.empty()) jh["flush_verdict"] = h.flush_verdict;
    if (!h.recommended.empty()) jh["recommended_profile"] = h.recommended;
    if (!h.cpu_model.empty()) jh["cpu_model"] = h.cpu_model;
    if (fleet.prediction) jh["predictions"] = FleetHostPredictionsToJson(h);
    jh["figures"] = json::object();
    for (size_t f = 0; f < fleet.figures.size(); f++) {
      const FleetCell& c = h.cells[f];
      if (!c.value) continue;
      json jc = {{"value", *c.value}, {"outlier", c.outlier}};
      if (c.mads) jc["mads"] = *c.mads;
      if (c.ratio) jc["ratio"] = *c.ratio;
      if (c.outlier) jc["direction"] = c.direction;
      jh["figures"][fleet.figures[f].id] = jc;
    }
    j["hosts"].push_back(jh);
  }
  j["outliers"] = json::array();
  for (const FleetOutlier& o : fleet.outliers) {
    j["outliers"].push_back({{"host", o.host},
                             {"figure", o.figure},
                             {"direction", o.direction},
                             {"text", o.text}});
  }
  j["skipped"] = json::array();
  for (const FleetSkipped& s : fleet.skipped) {
    j["skipped"].push_back({{"file", s.file}, {"error", s.error}});
  }
  if (fleet.prediction) {
    j["prediction"] = FleetPredictionBasisToJson(*fleet.prediction);
  }
  return j;
}

}  // namespace disktune
