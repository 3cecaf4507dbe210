#include "reports/summarize.h"

#include <algorithm>

#include "reports/check.h"
#include "reports/render_util.h"
#include "reports/tune_table.h"
#include "src/core/sysinfo.h"
#include "src/model/durability_analyses.h"
#include "src/model/named_figures.h"

namespace disktune {
namespace {

using nlohmann::json;

const ServiceGates* FindService(std::string_view name) {
  for (const ServiceGates& s : Services()) {
    if (name == s.service) return &s;
  }
  return nullptr;
}

// The engine the report ran: the run's --engine, else its first bench's.
std::string RunEngine(const Report& r) {
  if (r.config.is_object()) {
    auto run = r.config.find("run");
    if (run != r.config.end() && run->is_object()) {
      std::string e = JsonStr(*run, "engine");
      if (!e.empty()) return e;
    }
  }
  if (r.tune && !r.tune->engine.empty()) return r.tune->engine;
  if (!r.benches.empty()) return r.benches.front().engine;
  return "";
}

SummaryGate GateOf(const RequirementResult& rr) {
  SummaryGate g;
  g.expression = rr.requirement.text;
  g.outcome = CheckOutcomeName(rr.outcome);
  g.detail = rr.detail;
  if (rr.figure) {
    const Figure& f = *rr.figure;
    g.resolved = f.resolved;
    if (f.dimension == Dimension::kTime && f.resolved.rfind("fsync.", 0) == 0)
      g.part = SyncLatencyPart(f.metric);
    g.measured = FormatFigure(f.value, f.dimension, f.metric);
    g.value = f.value;
    if (f.samples) {
      g.samples = f.samples;
      g.samples_needed = f.samples_needed;
    }
  }
  return g;
}

std::optional<SummaryDurability> DurabilityOf(const Report& r) {
  DurabilityAnalyses a = DurabilityAnalysesOf(r.analyses);
  if (!a.findings || a.findings->verdicts.empty()) return std::nullopt;
  // The scratch directory's verdict: the first scope (the fsync family).
  const ScopeVerdict& v = a.findings->verdicts.front();
  SummaryDurability d;
  d.verdict = v.verdict.id;
  d.title = DurabilityTitle(v.verdict.id);
  d.disk = v.disk;
  if (v.good()) {
    d.reaches_stable_storage = true;
  } else if (v.verdict.id == "unsafe_write_through" ||
             v.verdict.id == "flushes_dropped") {
    d.reaches_stable_storage = false;
  }
  if (v.evidence) d.flushes_per_sync = v.evidence->flushes_per_sync();
  if (a.write_cache) {
    for (const WriteCacheView& w : a.write_cache->devices) {
      if (w.disk != v.disk && !v.disk.empty()) continue;
      d.volatile_cache =
          w.kernel_view == "write back" || w.drive.enabled.value_or(false);
    }
  }
  return d;
}

// The predictor's bound on the bench figures (src/predict, a Prediction on
// each BenchResult), grouped per engine and bound in run order: one entry
// names the resource and the scenarios it bounds.
std::string BoundWords(const std::string& bound) {
  static const std::pair<const char*, const char*> kWords[] = {
      {"cpu", "the CPU"},
      {"read_iops", "the disk's random-read IOPS"},
      {"read_bandwidth", "the disk's read bandwidth"},
      {"write_bandwidth", "the disk's write bandwidth"},
      {"sync_latency", "the disk's sync latency"},
      {"write_stall", "the engine's write stalls"},
  };
  for (const auto& [k, v] : kWords) {
    if (bound == k) return v;
  }
  return bound;
}

std::vector<SummaryBound> BoundsOf(const Report& r) {
  std::vector<SummaryBound> out;
  for (const auto& b : r.benches) {
    if (!b.prediction || b.prediction->bound.empty()) continue;
    std::string words = BoundWords(b.prediction->bound);
    auto it = std::find_if(out.begin(), out.end(), [&](const SummaryBound& s) {
      return s.engine == b.engine && s.bound == words;
    });
    if (it == out.end()) {
      out.push_back({b.engine, b.scenario, words});
    } else if (it->scenario.find(b.scenario) == std::string::npos) {
      it->scenario += ", " + b.scenario;
    }
  }
  return out;
}

SummarySetting SettingOf(const Report& r) {
  SummarySetting s;
  if (!r.tune) {
    s.action = "not_tuned";
    s.reason = r.command == "probe"
                   ? "this run measured the disk only; `disktune run` or "
                     "`disktune tune` measures settings for the engine"
                   : "this run did not tune the engine";
    return s;
  }
  const model::TuneSummary& t = *r.tune;
  const bool significant = t.evidence && t.evidence->verification &&
                           t.evidence->verification->significant;
  s.reason = t.verdict;
  std::string profile = "profile-" + t.workload + "-" + t.engine + ".json";
  // A tune's --out names its profile; a run writes it into its out_dir.
  std::string out_dir =
      r.config.is_object() ? JsonStr(r.config, "out_dir") : std::string();
  std::string written =
      r.config.is_object() ? JsonStr(r.config, "profile_path") : std::string();
  if (!written.empty()) {
    s.profile_path = written;
  } else if (!out_dir.empty()) {
    s.profile_path = out_dir + "/" + profile;
  }
  s.action = significant ? "apply_profile" : "keep_defaults";
  for (const model::TunedOption& o : t.recommendation.options) {
    if (o.changed) s.changes.push_back(o.name + " " + o.value_text);
  }
  return s;
}

SummaryConditions ConditionsOf(const Report& r) {
  const SystemInfo& sys = r.environment.system;
  SummaryConditions c;
  c.load_average_1m_before = sys.load_average_1m;
  c.load_average_1m_after = sys.load_average_1m_after;
  c.cpu_count = sys.cpu_count;
  c.busy_above_load = kBusyLoadPerCpu * sys.cpu_count;
  c.other_io = ForeignIoReason(r.environment);
  c.busy = MachineWasBusy(sys) || !c.other_io.empty();
  return c;
}

// The verdict from the gates and durability: a failed gate or syncs that do
// not reach stable storage is not fit; then what keeps a verdict from being
// given, most actionable first.
void Judge(Summary* s) {
  auto any = [&](const char* outcome) {
    return std::any_of(
        s->gates.begin(), s->gates.end(),
        [&](const SummaryGate& g) { return g.outcome == outcome; });
  };
  s->gates_passed = static_cast<int>(
      std::count_if(s->gates.begin(), s->gates.end(),
                    [](const SummaryGate& g) { return g.outcome == "pass"; }));
  std::string counted = std::to_string(s->gates_passed) + " of " +
                        std::to_string(s->gates.size()) + " gates passed";
  bool not_durable =
      s->durability && s->durability->reaches_stable_storage == false;
  std::string who = " for " + s->service;
  if (any("fail") || not_durable) {
    s->verdict = "not_fit";
    s->headline = "NOT FIT" + who + ": " + counted +
                  (not_durable ? "; syncs do not reach stable storage" : "");
  } else if (any("not_measured")) {
    s->verdict = "not_measured";
    s->headline = "NO VERDICT" + who + ": " + counted +
                  "; the rest were not measured (they need the fsync probe: "
                  "disktune probe or run)";
  } else if (any("unreliable")) {
    s->verdict = "unreliable";
    s->headline = "UNRELIABLE" + who + ": " + counted +
                  "; a gate was missed while the machine was busy";
  } else if (any("insufficient")) {
    s->verdict = "insufficient";
    s->headline = "NO VERDICT" + who + ": " + counted +
                  "; a percentile rests on too few samples (measure longer)";
  } else {
    s->verdict = "fit";
    s->headline = "FIT" + who + ": " + counted;
  }
}

}  // namespace

std::string DurabilityTitle(const std::string& id) {
  static const std::pair<const char*, const char*> kTitles[] = {
      {"unsafe_write_through",
       "NOT durable: the kernel sends no flushes to a volatile cache"},
      {"kernel_write_through",
       "no flushes sent (the kernel's view is 'write through'): durable only "
       "if the device has no volatile cache"},
      {"flushes_dropped", "NOT durable: syncs never reach the device"},
      {"cache_absorbs_flushes",
       "a cache absorbs the flushes: durable only if it survives power loss"},
      {"power_loss_protection_likely",
       "flushes reach the device; power-loss protection likely"},
      {"flushes_reach_device", "flushes reach stable storage"},
      {"partial_flushes", "only some syncs reach the device as flushes"},
      {"not_counted", "unknown: flushes were not counted"},
  };
  for (const auto& [k, v] : kTitles) {
    if (id == k) return v;
  }
  return id;
}

std::string CheckMeasurementText(const std::string& measurement) {
  size_t space = measurement.find(' ');
  if (space == std::string::npos) return measurement;
  std::string point = measurement.substr(0, space);
  std::string figure = measurement.substr(space + 1);
  if (figure.rfind("metrics.", 0) == 0) figure = figure.substr(8);
  std::string pct = figure.substr(figure.rfind('.') + 1);
  return SyncLatencyPart(figure) + " " + pct + " on " + point;
}

Status ValidateService(std::string_view service) {
  if (service.empty() || FindService(service)) return Status::OK();
  return Status::InvalidArgument(
      "--service '" + std::string(service) +
      "': not a service with gates; valid: " + ServiceList());
}

Summary Summarize(const Report& report, std::string_view service) {
  Summary s;
  const ServiceGates* svc = FindService(service);
  s.service_from = "--service";
  if (!svc) {
    std::string engine = RunEngine(report);
    svc = FindService(engine);
    s.service_from =
        svc ? "the engine run"
            : (engine.empty() ? "default"
                              : "default (no gates for " + engine + ")");
    if (!svc) svc = FindService("leveldb");
  }
  s.service = svc->service;
  s.gate_set = svc->preset;
  Result<std::vector<Requirement>> reqs = PresetRequirements(svc->preset);
  if (reqs.ok()) {
    Result<std::vector<RequirementResult>> results =
        EvaluateRequirements(report, *reqs);
    if (results.ok()) {
      for (const RequirementResult& rr : *results)
        s.gates.push_back(GateOf(rr));
    }
  }
  s.durability = DurabilityOf(report);
  s.bounds = BoundsOf(report);
  s.set = SettingOf(report);
  s.conditions = ConditionsOf(report);
  Judge(&s);
  return s;
}

Summary SummaryOf(const Report& report) {
  return report.summary ? *report.summary : Summarize(report, "");
}

}  // namespace disktune
