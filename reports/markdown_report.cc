#include "reports/markdown_report.h"

#include <algorithm>
#include <iterator>
#include <sstream>

#include "reports/analysis_registry.h"
#include "reports/char_escape.h"
#include "reports/engine_config.h"
#include "reports/memory_budget.h"
#include "reports/prediction_text.h"
#include "reports/render_util.h"
#include "reports/summarize.h"
#include "reports/tune_table.h"
#include "src/core/histogram.h"
#include "src/core/units.h"
#include "src/model/analysis_durability.h"
#include "src/model/analysis_rand_read_saturation.h"
#include "src/model/analysis_write_cache.h"
#include "src/model/throttle_by_probe_lines.h"

namespace disktune {
namespace {

using nlohmann::json;

// A table cell or inline text: pipes would end the cell, a newline the row,
// and '<' could open HTML on GitHub.
std::string Md(std::string_view s) {
  return EscapeChars(s, {{'|', "\\|"},
                         {'\n', " "},
                         {'\r', " "},
                         {'<', "&lt;"},
                         {'>', "&gt;"},
                         {'`', "\\`"}});
}

std::string Row(const std::vector<std::string>& cells) {
  std::string out = "|";
  for (const auto& c : cells) out += " " + c + " |";
  return out + "\n";
}

// `align`: one char per column, 'l' or 'r'.
std::string HeaderRow(const std::vector<std::string>& cells,
                      const std::string& align) {
  std::string out = Row(cells) + "|";
  for (size_t i = 0; i < cells.size(); i++)
    out += i < align.size() && align[i] == 'r' ? " --: |" : " --- |";
  return out + "\n";
}

std::string Dur(double ns) { return FormatDuration(ns); }

void Header(const Report& r, std::ostringstream& os) {
  const Environment& e = r.environment;
  std::string dev = e.device ? e.device->disk : "no block device";
  os << "## disktune: " << Md(e.system.hostname) << " / " << Md(dev) << " ("
     << Md(e.filesystem.type) << ")\n\n";
  os << "disktune " << Md(r.tool_version) << " `" << Md(r.command) << "`, "
     << Md(r.created_at);
  if (r.completion != "complete") os << ", **" << Md(r.completion) << "**";
  os << "\n\n";
  os << SummaryMarkdown(SummaryOf(r)) << "\n";
  if (const auto& t = e.throttle) {
    os << "> **" << Md(ThrottleBanner(*t)) << "**";
    if (std::string esc = ThrottleEscapeLine(*t); !esc.empty())
      os << "\n>\n> " << Md(esc);
    // Each probe family's share (probes/throttle_meter.h), as text shows it.
    if (const auto& by = r.analyses.throttle_by_probe) {
      if (by->test_file_fill)
        os << "\n>\n> " << Md(FillAccountingLine(*by->test_file_fill));
      for (const ProbeAccounting& p : by->probes)
        os << "\n>\n> " << Md(ProbeAccountingLine(p));
    }
    os << "\n\n";
  }
  os << "### Environment\n\n";
  os << HeaderRow({"", ""}, "ll");
  std::string sys = e.system.os.empty() ? "" : e.system.os + ", ";
  sys += "kernel " + e.system.kernel + ", " +
         std::to_string(e.system.cpu_count) + " × " + e.system.cpu_model +
         ", " + FormatBytes(static_cast<double>(e.system.memory_bytes));
  os << Row({"system", Md(sys)});
  if (e.device) {
    const DeviceInfo& d = *e.device;
    std::string s = d.disk;
    if (!d.model.empty()) s += " " + d.model;
    if (d.size_bytes)
      s += ", " + FormatBytes(static_cast<double>(*d.size_bytes));
    if (d.rotational) s += *d.rotational ? ", rotational" : ", non-rotational";
    if (!d.scheduler.empty()) s += ", scheduler " + d.scheduler;
    if (!d.write_cache.empty()) s += ", write cache: " + d.write_cache;
    os << Row({"device", Md(s)});
  } else if (!e.device_note.empty()) {
    os << Row({"device", Md(e.device_note)});
  }
  os << Row({"filesystem",
             Md(e.filesystem.type + " (" + e.filesystem.mount_options + ")")});
  os << Row({"build", Md(e.build_type)});
}

void Checks(const Report& r, std::ostringstream& os) {
  NamedChecks checks = r.analyses.checks.value_or(NamedChecks{});
  if (checks.empty()) return;
  os << "\n### Checks\n\n"
     << HeaderRow({"check", "result", "measurement", "measured", "limit"},
                  "llrrr");
  for (const auto& [name, e] : checks) {
    os << Row({Md(name), "**" + Md(CheckVerdictText(e)) + "**",
               Md(CheckMeasurementText(e.measurement)),
               DurationOrDash(e.value_ns),
               e.threshold_ns ? "< " + DurationOrDash(e.threshold_ns) : "-"});
  }
}

// An array of objects as a table: a column per key, values with units.
void ObjectTableMd(const json& v, std::ostringstream& os) {
  std::vector<std::vector<std::string>> cells = ObjectTableCells(v);
  for (auto& row : cells)
    for (std::string& cell : row) cell = Md(cell);
  os << "\n" << HeaderRow(cells[0], std::string(cells[0].size(), 'l'));
  for (size_t i = 1; i < cells.size(); i++) os << Row(cells[i]);
  os << "\n";
}

void JsonMd(const json& v, const std::string& key, int depth,
            std::ostringstream& os) {
  std::string pad(static_cast<size_t>(depth) * 2, ' ');
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (it->is_structured() && it->empty()) continue;  // nothing to say
      if (it->is_structured()) {
        os << pad << "- **" << Md(it.key()) << "**\n";
        JsonMd(*it, it.key(), depth + 1, os);
      } else {
        os << pad << "- **" << Md(FieldLabel(it.key(), *it))
           << "**: " << Md(HumanValue(it.key(), *it)) << "\n";
      }
    }
    return;
  }
  if (v.is_array()) {
    // Lines laid out for a terminal (the tuner's explanation): a code block
    // inside the list item keeps their columns.
    if (IsPreformatted(v)) {
      // In a list item the block needs a blank line before it.
      if (depth > 0) os << "\n";
      os << pad << "```\n";
      for (const auto& e : v) os << pad << e.get<std::string>() << "\n";
      os << pad << "```\n" << (depth > 0 ? "\n" : "");
      return;
    }
    if (!v.empty() && v[0].is_object()) {
      ObjectTableMd(v, os);
      return;
    }
    for (const auto& e : v) {
      {
        os << pad << "- "
           << Md(e.is_structured() ? e.dump() : HumanValue(key, e)) << "\n";
      }
    }
    return;
  }
  os << pad << "- " << Md(HumanValue(key, v)) << "\n";
}

void Recommendation(const Report& r, std::ostringstream& os) {
  if (!r.tune) return;
  const model::TuneSummary& tune = *r.tune;
  os << "\n### Recommendation\n\n";
  // The recommendation as a table, then the tuner's evidence in sentences;
  // without evidence, the summary as it is written.
  std::vector<RecommendationRow> rows = RecommendationRows(tune);
  if (rows.empty()) {
    JsonMd(model::TuneSummaryToJson(tune), "", 0, os);
    return;
  }
  os << Md(RecommendationHeadline(tune)) << "\n\n"
     << HeaderRow(RecommendationColumns(), "llllll");
  for (const RecommendationRow& row : rows) {
    std::vector<std::string> cells;
    for (const std::string& c : RecommendationCells(row)) {
      cells.push_back(Md(c));
    }
    os << Row(cells);
  }
  std::vector<std::string> why = TuneEvidenceSentences(tune);
  if (!why.empty()) os << "\nHow the tuner got there:\n\n";
  for (const std::string& line : why) os << "- " << Md(line) << "\n";
}

void Benches(const Report& r, std::ostringstream& os) {
  if (r.benches.empty()) return;
  const auto& p = r.benches.front().params;
  os << "\n### Benchmarks\n\n"
     << p.key_size_bytes << "-byte keys, " << p.value_size_bytes
     << "-byte values, " << Thousands(static_cast<double>(p.num)) << " entries";
  if (r.benches.front().repeats) {
    os << ", median of " << r.benches.front().repeats->count
       << " runs (spread: min..max)";
  }
  os << ".\n\n"
     << HeaderRow({"engine", "scenario", "ops/sec", "micros/op", "MiB/s", "p99",
                   "spread"},
                  "llrrrrr");
  std::vector<int> occ = BenchOccurrences(r.benches);
  bool any_few = false;
  for (size_t i = 0; i < r.benches.size(); i++) {
    const auto& b = r.benches[i];
    std::string key = BenchKey(b, occ[i]);
    if (b.status == bench::RunStatus::kFailed ||
        b.status == bench::RunStatus::kSkipped) {
      os << Row(
          {Md(b.engine), Md(key),
           Md(std::string(bench::RunStatusName(b.status)) + ": " + b.error), "",
           "", "", ""});
      continue;
    }
    const auto& m = b.metrics;
    std::string spread = b.repeats
                             ? Thousands(b.repeats->ops_per_sec.min) + ".." +
                                   Thousands(b.repeats->ops_per_sec.max)
                             : "-";
    // A one-shot step (compact) is a duration, not a rate.
    std::string rate =
        m.ops <= 1 ? "took " + FormatDuration(static_cast<double>(m.elapsed_ns))
                   : Thousands(m.ops_per_sec);
    bool few =
        m.latency_ns && m.latency_ns->samples < MinSamplesForQuantile(0.99);
    any_few |= few;
    os << Row({Md(b.engine), Md(key), rate, Fixed(m.micros_per_op, 3),
               m.bytes_per_sec ? Fixed(*m.bytes_per_sec / 1048576.0, 1) : "-",
               m.latency_ns ? Dur(static_cast<double>(m.latency_ns->p99)) +
                                  (few ? "\\*" : "")
                            : "-",
               spread});
  }
  if (any_few) os << "\n\\* " << Md(kFewSamplesNote + 2) << "\n";
  os << RenderPredictionsMarkdown(r.benches);
  if (const MemoryBudgetCheck* mem = MemoryBudgetOf(r.analyses)) {
    os << "\nMemory: " << Md(MemoryBudgetText(*mem)) << ".\n";
  }
}

// Whether the block I/O points say which loop measured them (reports
// written before the field do not: the column is left out then).
bool MeasuredByColumn(const Report& r) {
  return std::any_of(r.probes.begin(), r.probes.end(),
                     [](const ProbeResult& p) {
                       return p.probe != "fsync" && p.measured_by.has_value();
                     });
}

// "fio", "native", or "native (fio is not installed ...)".
std::string MeasuredByCell(const ProbeResult& p) {
  if (!p.measured_by) return "-";
  std::string cell = MeasuredByName(*p.measured_by);
  if (!p.measured_by_reason.empty())
    cell += " (" + Md(p.measured_by_reason) + ")";
  return cell;
}

void ProbeRows(const Report& r, bool fsync, std::ostringstream& os) {
  bool by = !fsync && MeasuredByColumn(r);
  for (const auto& p : r.probes) {
    if ((p.probe == "fsync") != fsync) continue;
    if (p.status != ProbeStatus::kOk) {
      std::vector<std::string> cells = {
          "`" + Md(p.name) + "`",
          Md(std::string(ProbeStatusName(p.status)) + ": " +
             (p.status == ProbeStatus::kSkipped ? p.reason : p.error)),
          "",
          "",
          "",
          "",
          ""};
      if (by) cells.push_back(MeasuredByCell(p));
      os << Row(cells);
      continue;
    }
    std::optional<double> rate = p.iops ? p.iops : p.ops_per_sec;
    const json* fps = JsonNum(p.metrics, "flushes_per_sync");
    auto lat = [&](uint64_t LatencySummary::*f) {
      return p.latency_ns ? Dur(static_cast<double>((*p.latency_ns).*f))
                          : std::string("-");
    };
    std::vector<std::string> cells = {
        "`" + Md(p.name) + "`",
        rate ? Thousands(*rate) : "-",
        p.bytes_per_sec ? Fixed(*p.bytes_per_sec / 1e6, 1) : "-",
        lat(&LatencySummary::p50),
        lat(&LatencySummary::p99) +
            (p.latency_ns && p.latency_ns->samples < MinSamplesForQuantile(0.99)
                 ? "\\*"
                 : ""),
        lat(&LatencySummary::max)};
    cells.push_back(
        fsync ? (fps ? Fixed(fps->get<double>(), 2) : "-")
              : (p.samples ? Thousands(static_cast<double>(*p.samples)) : "-"));
    if (by) cells.push_back(MeasuredByCell(p));
    os << Row(cells);
  }
}

// The analyses said after the probe tables, one paragraph each, by kind
// (reports/analysis_registry.h); the other places' kinds are said inside
// their own sections.
void SaturationParagraph(const Report& r, std::ostringstream& os) {
  os << "\n" << Md(SaturationText(*r.analyses.rand_read_saturation)) << "\n";
}

using MarkdownHook = void (*)(const Report&, std::ostringstream&);
// By AnalysisId; nullptr for a kind said in its place's own section or not
// said in Markdown.
constexpr MarkdownHook kMarkdownHooks[] = {
    nullptr,               // throttle_by_probe: Header
    nullptr,               // memory_budget: Benches
    &SaturationParagraph,  // rand_read_saturation
    nullptr,               // page_cache: the text and HTML reports say it
    nullptr,               // leveldb_2011: as written, OtherFindings
    nullptr,               // durability: Durability
    nullptr,               // write_cache: the text and HTML reports say it
    nullptr,               // checks: Checks
    nullptr,               // write_cache_ab: the text and HTML reports say it
    nullptr,               // fs_matrix: the text and HTML reports say it
    nullptr,               // bytes_written: the text report says it
};
static_assert(std::size(kMarkdownHooks) == kAnalysisKinds,
              "one Markdown hook per kind in reports/analysis_registry.h");

void AfterProbes(const Report& r, std::ostringstream& os) {
  for (const AnalysisKind& k : AnalysisKinds()) {
    MarkdownHook hook = kMarkdownHooks[static_cast<size_t>(k.id)];
    if (k.place == AnalysisPlace::kAfterProbes && hook != nullptr &&
        k.present(r.analyses)) {
      hook(r, os);
    }
  }
}

void Probes(const Report& r, std::ostringstream& os) {
  bool block =
      std::any_of(r.probes.begin(), r.probes.end(),
                  [](const ProbeResult& p) { return p.probe != "fsync"; });
  bool fsync =
      std::any_of(r.probes.begin(), r.probes.end(),
                  [](const ProbeResult& p) { return p.probe == "fsync"; });
  if (block) {
    std::vector<std::string> head = {"probe", "IOPS", "MB/s",   "p50",
                                     "p99",   "max",  "samples"};
    std::string align = "lrrrrrr";
    if (MeasuredByColumn(r)) {
      head.push_back("measured by");
      align += "l";
    }
    os << "\n### Disk\n\n" << HeaderRow(head, align);
    ProbeRows(r, false, os);
    os << "\n\\* " << Md(kFewSamplesNote + 2) << "\n";
  }
  AfterProbes(r, os);
  if (fsync) {
    os << "\n<details><summary>Sync latency ("
       << std::count_if(r.probes.begin(), r.probes.end(),
                        [](const ProbeResult& p) { return p.probe == "fsync"; })
       << " points)</summary>\n\n"
       << HeaderRow({"sync point", "syncs/s", "MB/s", "p50", "p99", "max",
                     "flushes/sync"},
                    "lrrrrrr");
    ProbeRows(r, true, os);
    os << "\n\\* " << Md(kFewSamplesNote + 2) << "\n\n</details>\n";
  }
}

void Durability(const Report& r, std::ostringstream& os) {
  const std::optional<DurabilityFindings>& d = r.analyses.durability;
  if (!d) return;
  os << "\n### Durability\n\n";
  for (const ScopeVerdict& v : d->verdicts) {
    os << "- **" << Md(v.scope) << " (" << Md(v.disk)
       << ")**: " << Md(DurabilityTitle(v.verdict.id)) << ". "
       << Md(v.verdict.rule) << "\n";
  }
}

// Per engine: the library build and every setting in force.
void EngineConfiguration(const Report& r, std::ostringstream& os) {
  for (const EngineConfig& c : EngineConfigs(r)) {
    if (c.library == nullptr && c.settings.empty()) continue;
    os << "\n#### Engine " << Md(c.engine) << "\n\n"
       << HeaderRow({"setting", "value"}, "ll");
    if (c.library) os << Row({"library", Md(LibraryText(*c.library))});
    for (const auto& [name, value] : c.settings) {
      os << Row({"`" + Md(name) + "`", Md(value)});
    }
  }
}

// Analyses no kind describes (a probe of a later version) and kinds without
// words of their own yet (reports/analysis_registry.h), as written.
void OtherFindings(const Report& r, std::ostringstream& os) {
  nlohmann::json analyses = model::AnalysesToJson(r.analyses);
  for (auto it = analyses.begin(); it != analyses.end(); ++it) {
    if (!SaidAsWritten(it.key())) continue;
    os << "\n### " << Md(it.key()) << "\n\n";
    JsonMd(it.value(), it.key(), 0, os);
  }
}

void Warnings(const Report& r, std::ostringstream& os) {
  if (r.warnings.empty()) return;
  os << "\n### Warnings\n\n";
  for (const auto& w : r.warnings) os << "- " << Md(w) << "\n";
}

}  // namespace

std::string RenderMarkdown(const Report& report) {
  std::ostringstream os;
  Header(report, os);
  Checks(report, os);
  Recommendation(report, os);
  Benches(report, os);
  EngineConfiguration(report, os);
  Probes(report, os);
  Durability(report, os);
  OtherFindings(report, os);
  Warnings(report, os);
  return os.str();
}

}  // namespace disktune
