#include "reports/text_report.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <sstream>

#include "reports/analysis_registry.h"
#include "reports/durability_text.h"
#include "reports/engine_config.h"
#include "reports/memory_budget.h"
#include "reports/prediction_text.h"
#include "reports/render_util.h"
#include "reports/summarize.h"
#include "reports/tune_table.h"
#include "src/core/histogram.h"
#include "src/core/units.h"
#include "src/model/analysis_bytes_written.h"
#include "src/model/analysis_page_cache.h"
#include "src/model/analysis_rand_read_saturation.h"
#include "src/model/throttle_by_probe_lines.h"

namespace disktune {
namespace {

std::string Fmt(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), fmt, v);
  return buf;
}

void Header(const Report& r, std::ostringstream& os) {
  const Environment& e = r.environment;
  os << "disktune " << r.tool_version << " " << r.command << " on "
     << e.system.hostname << " (" << e.system.cpu_count << " CPU, "
     << FormatBytes(e.system.memory_bytes) << ", kernel " << e.system.kernel
     << ")\n";
  os << "target:   " << e.target_dir << " — " << e.filesystem.type << " ("
     << e.filesystem.mount_options << "), "
     << FormatBytes(e.filesystem.free_bytes) << " free\n";
  if (e.device) {
    const DeviceInfo& d = *e.device;
    os << "device:   " << d.disk;
    if (!d.model.empty()) os << " " << d.model;
    if (d.size_bytes)
      os << ", " << FormatBytes(static_cast<double>(*d.size_bytes));
    if (d.rotational)
      os << (*d.rotational ? ", rotational" : ", non-rotational");
    if (!d.scheduler.empty()) os << ", scheduler " << d.scheduler;
    if (!d.write_cache.empty()) os << ", write cache: " << d.write_cache;
    os << "\n";
    if (d.chain.size() > 1) {
      os << "path:     ";
      for (size_t i = 0; i < d.chain.size(); i++)
        os << (i ? " -> " : "") << d.chain[i];
      os << "\n";
    }
  } else if (!e.device_note.empty()) {
    os << "device:   " << e.device_note << "\n";
  }
  if (r.completion != "complete")
    os << "status:   " << r.completion << " (partial results)\n";
  if (const auto& t = e.throttle) {
    os << "throttle: " << ThrottleBanner(*t) << "\n";
    if (std::string esc = ThrottleEscapeLine(*t); !esc.empty())
      os << "          " << esc << "\n";
  }
}

bool IsFsync(const ProbeResult& p) { return p.probe == "fsync"; }

void StatusLine(const ProbeResult& p, int w, std::ostringstream& os) {
  char line[1024];
  std::snprintf(
      line, sizeof(line), "%-*s %s: %s\n", w, p.name.c_str(),
      ProbeStatusName(p.status),
      (p.status == ProbeStatus::kSkipped ? p.reason : p.error).c_str());
  os << line;
}

// The rows of one probe table (the sync points, or the others), in order:
// a status line for each point that did not measure, `row` for each that did.
template <typename Row>
void TableRows(const Report& r, bool fsync, int w, std::ostringstream& os,
               Row row) {
  for (const auto& p : r.probes) {
    if (IsFsync(p) != fsync) continue;
    if (p.status != ProbeStatus::kOk) {
      StatusLine(p, w, os);
      continue;
    }
    row(p);
  }
}

// The MB/s column: the point's bandwidth, or "-" without one.
std::string MegabytesPerSec(const ProbeResult& p) {
  return p.bytes_per_sec ? Fmt("%.1f", *p.bytes_per_sec / 1e6) : "-";
}

// probe --repeat: the median and min..max of the rounds, under the point's
// row (which shows its median round).
void RoundsLine(const ProbeResult& p, std::ostringstream& os) {
  if (!p.repeats || p.repeats->count < 2) return;
  const ProbeRepeats& r = *p.repeats;
  std::string out =
      "  " + std::to_string(r.count) + " rounds, median [min..max]:";
  auto rate = [&](const char* what, const std::optional<RoundStat>& s) {
    if (s) {
      out += std::string(" ") + what + " " + Fmt("%.0f", s->median) +
             Fmt(" [%.0f", s->min) + Fmt("..%.0f]", s->max);
    }
  };
  auto lat = [&](const char* what, const std::optional<RoundStat>& s) {
    if (s) {
      out += std::string(", ") + what + " " + FormatDuration(s->median) + " [" +
             FormatDuration(s->min) + ".." + FormatDuration(s->max) + "]";
    }
  };
  if (r.iops) {
    rate("IOPS", r.iops);
  } else {
    rate("ops/s", r.ops_per_sec);
  }
  lat("p50", r.latency_p50_ns);
  lat("p99", r.latency_p99_ns);
  os << out << "\n";
}

// Under --throttle, beside the table: one line per probe family in it (and
// the test file's fill, with the first table shown), what reached the
// throttled device through the throttle and around it
// (probes/throttle_meter.h).
void AccountingLines(const Report& r, bool fsync, std::ostringstream& os) {
  const std::optional<ThrottleByProbe>& by = r.analyses.throttle_by_probe;
  if (!by) return;
  bool other_table =
      std::any_of(r.probes.begin(), r.probes.end(),
                  [](const ProbeResult& p) { return !IsFsync(p); });
  if (by->test_file_fill && (!fsync || !other_table))
    os << "  " << FillAccountingLine(*by->test_file_fill) << "\n";
  for (const ProbeAccounting& p : by->probes) {
    if ((p.probe == "fsync") == fsync)
      os << "  " << ProbeAccountingLine(p) << "\n";
  }
}

void ProbeTable(const Report& r, std::ostringstream& os) {
  bool any = std::any_of(r.probes.begin(), r.probes.end(),
                         [](const ProbeResult& p) { return !IsFsync(p); });
  if (!any) return;
  char line[512];
  int w = 26;
  for (const auto& p : r.probes) {
    if (!IsFsync(p)) w = std::max(w, static_cast<int>(p.name.size()));
  }
  // Which loop measured each point (reports written before the field have
  // none: the column is left out then).
  bool by =
      std::any_of(r.probes.begin(), r.probes.end(), [](const ProbeResult& p) {
        return !IsFsync(p) && p.measured_by.has_value();
      });
  bool few_samples = false;
  std::snprintf(line, sizeof(line), "\n%-*s %12s %11s %11s %11s %11s %9s%s\n",
                w, "probe", "IOPS", "MB/s", "p50", "p99 ", "max", "samples",
                by ? "  measured by" : "");
  os << line;
  TableRows(r, /*fsync=*/false, w, os, [&](const ProbeResult& p) {
    double iops = p.iops.value_or(p.ops_per_sec.value_or(0));
    std::string mbs = MegabytesPerSec(p);
    std::string p50 = p.latency_ns ? FormatDuration(p.latency_ns->p50) : "-";
    std::string p99 = p.latency_ns ? FormatDuration(p.latency_ns->p99) +
                                         FewSamplesMark(p.latency_ns->samples,
                                                        0.99, &few_samples)
                                   : "-";
    std::string mx = p.latency_ns ? FormatDuration(p.latency_ns->max) : "-";
    std::string engine =
        by ? "  " + std::string(p.measured_by ? MeasuredByName(*p.measured_by)
                                              : "-")
           : "";
    std::snprintf(
        line, sizeof(line), "%-*s %12.0f %11s %11s %11s %11s %9llu%s\n", w,
        p.name.c_str(), iops, mbs.c_str(), p50.c_str(), p99.c_str(), mx.c_str(),
        static_cast<unsigned long long>(p.samples.value_or(0)), engine.c_str());
    os << line;
    if (!p.measured_by_reason.empty())
      os << "  measured by the native loop: " << p.measured_by_reason << "\n";
    RoundsLine(p, os);
    if (p.fio && p.fio->status == "ok") {
      std::string ratio = "  fio: ";
      if (p.fio->iops) ratio += Fmt("%.0f IOPS", *p.fio->iops);
      if (p.fio->latency_ns)
        ratio += ", p50 " + FormatDuration(p.fio->latency_ns->p50);
      if (p.fio->iops_ratio)
        ratio += Fmt("; native/fio IOPS %.3f", *p.fio->iops_ratio);
      if (p.fio->latency_p50_ratio)
        ratio += Fmt(", p50 %.3f", *p.fio->latency_p50_ratio);
      os << ratio << "\n";
    } else if (p.fio) {
      os << "  fio: " << p.fio->status << ": " << p.fio->reason << "\n";
    }
  });
  AccountingLines(r, /*fsync=*/false, os);
  if (few_samples) os << kFewSamplesNote;
}

// The durability points: syncs per second and the latency tail, with the
// device flushes counted per sync (whether the sync reached the disk).
void FsyncTable(const Report& r, std::ostringstream& os) {
  bool any = std::any_of(r.probes.begin(), r.probes.end(), IsFsync);
  if (!any) return;
  char line[512];
  int w = 30;
  for (const auto& p : r.probes) {
    if (IsFsync(p)) w = std::max(w, static_cast<int>(p.name.size()));
  }
  bool few_samples = false;
  std::snprintf(line, sizeof(line),
                "\n%-*s %10s %9s %11s %11s %11s %10s %8s %8s\n", w,
                "sync point (write+sync)", "syncs/s", "MB/s", "p50 ", "p99 ",
                "p99.9 ", "max", "flush/op", "samples");
  os << line;
  TableRows(r, /*fsync=*/true, w, os, [&](const ProbeResult& p) {
    double rate = p.ops_per_sec.value_or(p.iops.value_or(0));
    std::string mbs = MegabytesPerSec(p);
    auto d = [&](uint64_t LatencySummary::*f) {
      return p.latency_ns
                 ? FormatDuration(static_cast<double>((*p.latency_ns).*f))
                 : "-";
    };
    // A percentile on fewer samples than it needs is marked, not shown as
    // if it were one: with 154 syncs p99.9 is the largest value.
    auto pct = [&](uint64_t LatencySummary::*f, double q) {
      std::string v = d(f);
      bool few =
          p.latency_ns && p.latency_ns->samples < MinSamplesForQuantile(q);
      few_samples |= few;
      return v + (few ? "*" : " ");
    };
    auto fps = p.metrics.find("flushes_per_sync");
    std::string flush = fps != p.metrics.end() && fps->is_number()
                            ? Fmt("%.2f", fps->get<double>())
                            : "-";
    std::snprintf(line, sizeof(line),
                  "%-*s %10.0f %9s %11s %11s %11s %10s %8s %8llu\n", w,
                  p.name.c_str(), rate, mbs.c_str(),
                  pct(&LatencySummary::p50, 0.50).c_str(),
                  pct(&LatencySummary::p99, 0.99).c_str(),
                  pct(&LatencySummary::p999, 0.999).c_str(),
                  d(&LatencySummary::max).c_str(), flush.c_str(),
                  static_cast<unsigned long long>(p.samples.value_or(0)));
    os << line;
    RoundsLine(p, os);
  });
  AccountingLines(r, /*fsync=*/true, os);
  if (few_samples) os << kFewSamplesNote;
}

// db_bench's own lines per engine, then one aligned table across engines
// with the spread of repeats.
void Benches(const Report& r, std::ostringstream& os) {
  if (r.benches.empty()) return;
  std::vector<std::string> engines;
  for (const auto& b : r.benches) {
    if (std::find(engines.begin(), engines.end(), b.engine) == engines.end()) {
      engines.push_back(b.engine);
    }
  }
  const auto& p0 = r.benches.front().params;
  os << "\nbenchmarks: " << p0.key_size_bytes << "-byte keys, "
     << p0.value_size_bytes << "-byte values, "
     << Thousands(static_cast<double>(p0.num)) << " entries"
     << (r.benches.front().repeats
             ? ", median of " +
                   std::to_string(r.benches.front().repeats->count) + " runs"
             : std::string())
     << "\n";
  const std::vector<EngineConfig> configs = EngineConfigs(r);
  for (const auto& e : engines) {
    os << "engine: " << e << "\n";
    for (const EngineConfig& c : configs) {
      if (c.engine != e) continue;
      if (c.library) os << "  library:  " << LibraryText(*c.library) << "\n";
      for (const auto& [name, value] : c.settings) {
        os << "  setting:  " << name << " = " << value << "\n";
      }
    }
    for (const auto& b : r.benches) {
      if (b.engine == e) os << bench::FormatDbBenchLine(b) << "\n";
    }
  }
  std::vector<int> occ = BenchOccurrences(r.benches);
  int we = 8, ws = 12;
  for (size_t i = 0; i < r.benches.size(); i++) {
    we = std::max(we, static_cast<int>(r.benches[i].engine.size()));
    ws = std::max(ws, static_cast<int>(BenchKey(r.benches[i], occ[i]).size()));
  }
  char line[512];
  bool few_samples = false;
  std::snprintf(line, sizeof(line), "\n%-*s %-*s %12s %11s %9s %10s %10s  %s\n",
                we, "engine", ws, "scenario", "ops/sec", "micros/op", "MiB/s",
                "p50", "p99 ", "spread (min..max)");
  os << line;
  for (size_t i = 0; i < r.benches.size(); i++) {
    const auto& b = r.benches[i];
    std::string key = BenchKey(b, occ[i]);
    if (b.status == bench::RunStatus::kFailed ||
        b.status == bench::RunStatus::kSkipped) {
      std::snprintf(line, sizeof(line), "%-*s %-*s %s: %s\n", we,
                    b.engine.c_str(), ws, key.c_str(),
                    bench::RunStatusName(b.status), b.error.c_str());
      os << line;
      continue;
    }
    const auto& m = b.metrics;
    std::string mbs =
        m.bytes_per_sec ? Fmt("%.1f", *m.bytes_per_sec / 1048576.0) : "-";
    std::string p50 = m.latency_ns ? FormatDuration(m.latency_ns->p50) : "-";
    std::string p99 = m.latency_ns ? FormatDuration(m.latency_ns->p99) +
                                         FewSamplesMark(m.latency_ns->samples,
                                                        0.99, &few_samples)
                                   : "-";
    std::string spread = "-";
    if (b.repeats) {
      spread = Thousands(b.repeats->ops_per_sec.min) + ".." +
               Thousands(b.repeats->ops_per_sec.max);
    }
    // A one-shot step (compact) is a duration, not a rate.
    std::string rate =
        m.ops <= 1 ? "took " + FormatDuration(static_cast<double>(m.elapsed_ns))
                   : Thousands(m.ops_per_sec);
    std::snprintf(
        line, sizeof(line), "%-*s %-*s %12s %11.3f %9s %10s %10s  %s\n", we,
        b.engine.c_str(), ws, key.c_str(), rate.c_str(), m.micros_per_op,
        mbs.c_str(), p50.c_str(), p99.c_str(), spread.c_str());
    os << line;
  }
  if (few_samples) os << kFewSamplesNote;
  os << RenderPredictionsText(r.benches);
  if (const MemoryBudgetCheck* mem = MemoryBudgetOf(r.analyses)) {
    os << "\nmemory: " << MemoryBudgetText(*mem) << "\n";
  }
}

// What the tuner wrote, whatever its shape: nested objects indent, arrays of
// objects become one line per element.
// An array of sentences (an explanation, notes): one per line.
bool IsSentences(const nlohmann::json& v) {
  return v.is_array() &&
         std::any_of(v.begin(), v.end(), [](const nlohmann::json& e) {
           return e.is_string() && e.get<std::string>().size() > 40;
         });
}

// An array of objects as an aligned table: one column per key (in display
// order), a value per cell with its unit; a nested value in words.
void ObjectTable(const nlohmann::json& v, int indent, std::ostringstream& os) {
  std::vector<std::vector<std::string>> rows = ObjectTableCells(v);
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto& row : rows)
    for (size_t i = 0; i < row.size(); i++)
      width[i] = std::max(width[i], row[i].size());
  std::string pad(static_cast<size_t>(indent), ' ');
  for (const auto& row : rows) {
    std::string line = pad;
    for (size_t i = 0; i < row.size(); i++) {
      line += row[i];
      if (i + 1 < row.size())
        line += std::string(width[i] - row[i].size() + 2, ' ');
    }
    os << line << "\n";
  }
}

void JsonText(const nlohmann::json& v, const std::string& key, int indent,
              std::ostringstream& os) {
  std::string pad(static_cast<size_t>(indent), ' ');
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (it->is_structured() && it->empty()) continue;  // nothing to say
      if (it->is_object() || IsSentences(*it) ||
          (it->is_array() && !it->empty() && (*it)[0].is_object())) {
        os << pad << it.key() << ":\n";
        JsonText(*it, it.key(), indent + 2, os);
      } else {
        os << pad << FieldLabel(it.key(), *it) << ": ";
        JsonText(*it, it.key(), 0, os);
      }
    }
    return;
  }
  if (v.is_array()) {
    if (!v.empty() && v[0].is_object()) {
      ObjectTable(v, indent, os);
      return;
    }
    if (IsPreformatted(v)) {
      for (const auto& e : v) os << pad << e.get<std::string>() << "\n";
      return;
    }
    if (IsSentences(v)) {
      for (const auto& e : v) {
        os << pad << "- " << (e.is_structured() ? e.dump() : HumanValue(key, e))
           << "\n";
      }
      return;
    }
    std::string line;
    for (const auto& e : v) {
      line += (line.empty() ? "" : ", ") +
              (e.is_structured() ? e.dump() : HumanValue(key, e));
    }
    os << pad << line << "\n";
    return;
  }
  os << pad << HumanValue(key, v) << "\n";
}

// The recommendation as a table (knob, value, default, verdict, gain,
// reason), then the evidence: the tuner's scalars first, then the
// recommendation, its evidence and the rest, as the HTML report orders them.
void RecommendationTable(const model::TuneSummary& tune,
                         const std::vector<RecommendationRow>& rows,
                         std::ostringstream& os) {
  os << "  " << RecommendationHeadline(tune) << "\n";
  std::vector<std::vector<std::string>> cells = {RecommendationColumns()};
  for (const RecommendationRow& row : rows) {
    cells.push_back(RecommendationCells(row));
  }
  std::vector<size_t> width(cells[0].size(), 0);
  for (const auto& line : cells) {
    for (size_t i = 0; i < line.size(); i++) {
      width[i] = std::max(width[i], line[i].size());
    }
  }
  for (const auto& line : cells) {
    std::string out = " ";
    for (size_t i = 0; i < line.size(); i++) {
      out += " " + line[i];
      if (i + 1 < line.size())
        out += std::string(width[i] - line[i].size(), ' ');
    }
    out.erase(out.find_last_not_of(' ') + 1);
    os << out << "\n";
  }
}

void Recommendation(const Report& r, std::ostringstream& os) {
  if (!r.tune) return;
  const model::TuneSummary& tune = *r.tune;
  os << "\nrecommendation:\n";
  std::vector<RecommendationRow> rows = RecommendationRows(tune);
  if (rows.empty()) {  // no evidence: the summary as it is written
    JsonText(model::TuneSummaryToJson(tune), "", 2, os);
    return;
  }
  RecommendationTable(tune, rows, os);
  std::vector<std::string> why = TuneEvidenceSentences(tune);
  if (!why.empty()) os << "\nhow the tuner got there:\n";
  for (const std::string& line : why) os << "  - " << line << "\n";
}

// What was written: disktune's own writes, then the disk-wide count (every
// writer on the disk) labelled as such.
void Writes(const Report& r, std::ostringstream& os) {
  const std::optional<BytesWritten>& b = r.analyses.bytes_written;
  if (!b) {
    os << "\nwrote " << FormatBytes(static_cast<double>(r.bytes_written))
       << " to the scratch directory\n";
    return;
  }
  os << "\nwrites:";
  if (b->process_bytes) {
    os << " disktune's own write calls "
       << FormatBytes(static_cast<double>(*b->process_bytes))
       << " (the kernel's count for this process; a page written again "
          "before it reached the disk counts each time; fio's jobs are not "
          "in it)";
  }
  if (b->disk_bytes) {
    os << (b->process_bytes ? ";" : "") << " disk-wide, " << b->disk
       << " completed " << FormatBytes(static_cast<double>(*b->disk_bytes))
       << " from every writer on it during the run";
  }
  os << "\n";
}

// The analyses said after the probe tables, one paragraph each, by kind
// (reports/analysis_registry.h); the other places' kinds are said inside
// their own sections.
void SaturationParagraph(const Report& r, std::ostringstream& os) {
  os << "\n" << SaturationText(*r.analyses.rand_read_saturation) << "\n";
}

void PageCacheParagraph(const Report& r, std::ostringstream& os) {
  if (const auto& pc = r.analyses.page_cache) {
    os << "page cache bypassed: " << (pc->bypassed ? "yes" : "NO") << " ("
       << FormatBytes(static_cast<double>(pc->resident_bytes))
       << " of the test file resident)\n";
  }
}

using TextHook = void (*)(const Report&, std::ostringstream&);
// By AnalysisId; nullptr for a kind said in its place's own section.
constexpr TextHook kTextHooks[] = {
    nullptr,               // throttle_by_probe: AccountingLines
    nullptr,               // memory_budget: Benches
    &SaturationParagraph,  // rand_read_saturation
    &PageCacheParagraph,   // page_cache
    nullptr,               // leveldb_2011: as written, below
    nullptr,               // durability: RenderDurabilityText
    nullptr,               // write_cache: RenderDurabilityText
    nullptr,               // checks: RenderDurabilityText
    nullptr,               // write_cache_ab: RenderDurabilityText
    nullptr,               // fs_matrix: RenderDurabilityText
    nullptr,               // bytes_written: Writes
};
static_assert(std::size(kTextHooks) == kAnalysisKinds,
              "one text hook per kind in reports/analysis_registry.h");

void Analyses(const Report& r, std::ostringstream& os) {
  for (const AnalysisKind& k : AnalysisKinds()) {
    TextHook hook = kTextHooks[static_cast<size_t>(k.id)];
    if (k.place == AnalysisPlace::kAfterProbes && hook != nullptr &&
        k.present(r.analyses)) {
      hook(r, os);
    }
  }
  // Analyses no kind describes (a probe of a later version) and kinds
  // without words of their own yet, as written.
  nlohmann::json analyses = model::AnalysesToJson(r.analyses);
  for (auto it = analyses.begin(); it != analyses.end(); ++it) {
    if (!SaidAsWritten(it.key())) continue;
    os << "\n" << it.key() << ":\n";
    JsonText(it.value(), it.key(), 2, os);
  }
}

}  // namespace

std::string RenderText(const Report& report) {
  std::ostringstream os;
  os << SummaryText(SummaryOf(report)) << "\n";
  Header(report, os);
  Recommendation(report, os);
  Benches(report, os);
  ProbeTable(report, os);
  FsyncTable(report, os);
  Analyses(report, os);
  RenderDurabilityText(report.analyses, os);
  if (!report.warnings.empty()) {
    os << "\nwarnings:\n";
    for (const auto& w : report.warnings) os << "  - " << w << "\n";
  }
  Writes(report, os);
  return os.str();
}

}  // namespace disktune
