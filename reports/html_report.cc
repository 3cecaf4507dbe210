#include "reports/html_report.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <map>
#include <set>

#include "reports/analysis_registry.h"
#include "reports/engine_config.h"
#include "reports/memory_budget.h"
#include "reports/page_style.h"
#include "reports/prediction_text.h"
#include "reports/render_util.h"
#include "reports/summarize.h"
#include "reports/svg_chart.h"
#include "reports/tune_table.h"
#include "src/core/units.h"
#include "src/model/analysis_page_cache.h"
#include "src/model/analysis_rand_read_saturation.h"
#include "src/model/durability_analyses.h"
#include "src/model/throttle_by_probe_lines.h"

namespace disktune {
namespace {

using nlohmann::json;

std::string H(std::string_view s) { return svg::Escape(s); }

// This page's own rules, after kPageFrameCss in its <style>.
constexpr const char* kStyle =
    R"css(h2 { font-size: 20px; border-bottom: 2px solid #0072B2; padding-bottom: 4px; margin-top: 36px; }
h3 { font-size: 16px; margin: 24px 0 6px; }
p, li { line-height: 1.45; }
.sub { color: #555; margin: 0 0 12px; }
nav { font-size: 14px; margin: 8px 0 16px; }
nav a { margin-right: 14px; color: #0072B2; text-decoration: none; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0 16px; }
th, td { border-bottom: 1px solid #e4e4e4; padding: 3px 10px 3px 0; text-align: left;
         vertical-align: top; }
th { color: #444; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.kv th { width: 220px; }
.charts { display: flex; flex-wrap: wrap; gap: 12px 28px; align-items: flex-start; }
.chart { background: #fff; display: block; }
.note { color: #555; font-size: 13px; }
.skipped { color: #777; font-size: 13px; }
.pass { color: #fff; background: #009E73; padding: 1px 7px; border-radius: 3px; font-weight: 600; }
.fail { color: #fff; background: #D55E00; padding: 1px 7px; border-radius: 3px; font-weight: 600; }
.verdict { border-left: 4px solid #0072B2; padding: 4px 12px; margin: 10px 0; background: #f5f9fc; }
.verdict.warn { border-color: #D55E00; background: #fdf5f0; }
.warnings li { color: #8a3b00; }
pre { background: #f4f4f4; padding: 8px; font-size: 12px; white-space: pre-wrap;
      overflow-wrap: anywhere; margin: 0; }
footer { color: #777; font-size: 12px; margin-top: 40px; }
)css";

std::string Td(const std::string& s, bool num = false) {
  return std::string(num ? "<td class=\"num\">" : "<td>") + H(s) + "</td>";
}
std::string Th(const std::string& s, bool num = false) {
  return std::string(num ? "<th class=\"num\">" : "<th>") + H(s) + "</th>";
}

std::string Dur(double ns) { return FormatDuration(ns); }

// Axis ticks: "0", "0.2", "150", "2500", "150k", "1.5M".
std::string CompactNumber(double v) {
  char buf[32];
  double a = std::fabs(v);
  if (a >= 1e6) {
    std::snprintf(buf, sizeof(buf), "%.3gM", v / 1e6);
  } else if (a >= 1e4) {
    std::snprintf(buf, sizeof(buf), "%.3gk", v / 1e3);
  } else {
    std::snprintf(buf, sizeof(buf), "%.4g", v);
  }
  return buf;
}

// A chart of one ops/sec series against `x_label`, its points not yet added;
// the caller sets the x axis's scale and format.
svg::LineChart OpsPerSecChart(const std::string& title, const char* x_label) {
  svg::LineChart c;
  c.title = title;
  c.x_label = x_label;
  c.y_label = "ops/sec";
  c.format_y = CompactNumber;
  c.series.push_back(svg::LineSeries{"ops/sec", {}});
  return c;
}

// "10 ms" rather than "10.00 ms", for axis ticks.
std::string CompactDur(double ns) {
  if (ns == 0) return "0";
  std::string s = FormatDuration(ns);
  size_t space = s.find(' ');
  size_t dot = s.find('.');
  if (dot != std::string::npos && dot < space &&
      s.find_first_not_of('0', dot + 1) == space) {
    s.erase(dot, space - dot);
  }
  return s;
}

// ---------------------------------------------------------------- generic JSON

std::string JsonHtml(const json& v, std::string_view key, int depth);

std::string ArrayOfObjectsHtml(const json& arr, int depth) {
  std::vector<std::string> cols;
  std::set<std::string> seen;
  for (const auto& e : arr) {
    for (const auto& k : DisplayKeys(e)) {
      if (seen.insert(k).second) cols.push_back(k);
    }
  }
  std::string out = "<table><tr>";
  for (const auto& c : cols) out += Th(c);
  out += "</tr>\n";
  for (const auto& e : arr) {
    out += "<tr>";
    for (const auto& c : cols) {
      out += "<td>" + (e.contains(c) ? JsonHtml(e[c], c, depth + 1) : "") +
             "</td>";
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

// Objects as key/value tables, arrays of objects as tables, values through
// their key's unit: what the tuner writes is shown without knowing its shape.
std::string JsonHtml(const json& v, std::string_view key, int depth) {
  if (depth > 8) return H(v.dump());
  if (v.is_object()) {
    if (v.empty()) return "";
    std::string out = "<table class=\"kv\">\n";
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (it->is_structured() && it->empty()) continue;
      out += "<tr>" + Th(FieldLabel(it.key(), *it)) + "<td>" +
             JsonHtml(it.value(), it.key(), depth + 1) + "</td></tr>\n";
    }
    return out + "</table>\n";
  }
  if (v.is_array()) {
    bool all_objects =
        !v.empty() && std::all_of(v.begin(), v.end(),
                                  [](const json& e) { return e.is_object(); });
    if (all_objects) return ArrayOfObjectsHtml(v, depth);
    bool all_scalars = std::all_of(v.begin(), v.end(), [](const json& e) {
      return !e.is_object() && !e.is_array();
    });
    // Lines laid out for a terminal (the tuner's explanation) as they are.
    if (IsPreformatted(v)) {
      std::string out = "<pre>";
      for (const auto& e : v) out += H(e.get<std::string>()) + "\n";
      return out + "</pre>";
    }
    // Sentences (an explanation, notes) one per line; short values inline.
    bool sentences =
        all_scalars && std::any_of(v.begin(), v.end(), [](const json& e) {
          return e.is_string() && e.get<std::string>().size() > 40;
        });
    if (sentences) {
      std::string out = "<ul>";
      for (const auto& e : v) out += "<li>" + H(JsonScalarText(e)) + "</li>";
      return out + "</ul>";
    }
    if (all_scalars) {
      std::string out;
      for (const auto& e : v)
        out += (out.empty() ? "" : ", ") + HumanValue(key, e);
      return H(out);
    }
    std::string out = "<ul>";
    for (const auto& e : v)
      out += "<li>" + JsonHtml(e, key, depth + 1) + "</li>";
    return out + "</ul>";
  }
  std::string text = HumanValue(key, v);
  std::string raw = JsonScalarText(v);
  // The exact figure beside a unit-formatted one ("64 MiB (67108864)"), for
  // integers, which are what a configuration file takes.
  if ((v.is_number_integer() || v.is_number_unsigned()) && text != raw) {
    text += " (" + raw + ")";
  }
  return H(text);
}

// ---------------------------------------------------------------- sections

void Header(const Report& r, std::string& out) {
  const Environment& e = r.environment;
  std::string dev =
      r.environment.device ? r.environment.device->disk : "no block device";
  out += "<h1>disktune report: " + H(e.system.hostname) + ", " + H(dev) +
         "</h1>\n";
  out +=
      "<p class=\"sub\">" + H(r.created_at) + " · disktune " +
      H(r.tool_version) + " " + H(r.command) +
      (r.completion != "complete" ? " · <b>" + H(r.completion) + "</b>" : "") +
      "</p>\n";
  if (const auto& t = e.throttle) {
    out += "<p class=\"throttle\"><b>" + H(ThrottleBanner(*t)) + "</b>";
    if (std::string esc = ThrottleEscapeLine(*t); !esc.empty())
      out += "<br>" + H(esc);
    // Each probe family's share (probes/throttle_meter.h), as text shows it.
    if (const auto& by = r.analyses.throttle_by_probe) {
      if (by->test_file_fill)
        out += "<br>" + H(FillAccountingLine(*by->test_file_fill));
      for (const ProbeAccounting& p : by->probes)
        out += "<br>" + H(ProbeAccountingLine(p));
    }
    out += "</p>\n";
  }
}

void Nav(const Report& r, std::string& out) {
  out += "<nav>";
  out += "<a href=\"#verdict\">Verdict</a>";
  out += "<a href=\"#setup\">Setup</a>";
  if (r.tune) out += "<a href=\"#recommendation\">Recommendation</a>";
  if (!r.benches.empty()) out += "<a href=\"#benchmarks\">Benchmarks</a>";
  if (!r.probes.empty()) out += "<a href=\"#disk\">The disk</a>";
  if (r.analyses.durability || r.analyses.checks) {
    out += "<a href=\"#durability\">Durability</a>";
  }
  out += "<a href=\"#environment\">Environment</a>";
  if (!r.probes.empty() || !r.benches.empty())
    out += "<a href=\"#figures\">All figures</a>";
  if (!r.warnings.empty()) out += "<a href=\"#warnings\">Warnings</a>";
  out += "</nav>\n";
}

void Setup(const Report& r, std::string& out) {
  const Environment& e = r.environment;
  out += "<section id=\"setup\"><h2>Setup</h2>\n<p>";
  out += "Measured on <b>" + H(e.system.hostname) + "</b>";
  if (!e.system.cpu_model.empty()) {
    out += ", " + std::to_string(e.system.cpu_count) + " × " +
           H(e.system.cpu_model);
  }
  out += " with " + H(FormatBytes(static_cast<double>(e.system.memory_bytes))) +
         " of memory";
  if (!e.system.os.empty()) out += ", " + H(e.system.os);
  out += ", kernel " + H(e.system.kernel) + ". ";
  out += "The scratch directory " + H(e.target_dir) + " is on " +
         H(e.filesystem.type);
  if (!e.filesystem.mount_options.empty())
    out += " (" + H(e.filesystem.mount_options) + ")";
  if (e.device) {
    const DeviceInfo& d = *e.device;
    out += " on <b>" + H(d.disk) + "</b>";
    if (!d.model.empty()) out += " (" + H(d.model) + ")";
    std::vector<std::string> facts;
    if (d.size_bytes)
      facts.push_back(FormatBytes(static_cast<double>(*d.size_bytes)));
    if (d.rotational)
      facts.push_back(*d.rotational ? "rotational" : "non-rotational");
    if (!d.scheduler.empty()) facts.push_back("scheduler " + d.scheduler);
    if (!d.write_cache.empty())
      facts.push_back("write cache: " + d.write_cache);
    std::string f;
    for (const auto& s : facts) f += (f.empty() ? "" : ", ") + s;
    if (!f.empty()) out += ", " + H(f);
  } else if (!e.device_note.empty()) {
    out += " (" + H(e.device_note) + ")";
  }
  out += ".</p>\n";
  if (!r.benches.empty()) {
    const auto& p = r.benches.front().params;
    out +=
        "<p>Benchmarks use db_bench's workload: " +
        std::to_string(p.key_size_bytes) + "-byte keys, " +
        std::to_string(p.value_size_bytes) + "-byte values compressible to " +
        H(Fixed(p.compression_ratio * 100, 0)) + "%, " +
        H(Thousands(static_cast<double>(p.num))) + " entries, " +
        std::to_string(p.threads) + " thread" + (p.threads == 1 ? "" : "s") +
        (p.sync ? ", synchronous writes" : ", asynchronous writes (no sync)") +
        ".";
    if (r.benches.front().repeats) {
      out += " Figures are the median of " +
             std::to_string(r.benches.front().repeats->count) +
             " runs; whiskers show the lowest and highest run.";
    }
    out += "</p>\n";
  }
  out += "</section>\n";
}

void EnvironmentTable(const Report& r, std::string& out) {
  const Environment& e = r.environment;
  out +=
      "<section id=\"environment\"><h2>Environment</h2>\n<table "
      "class=\"kv\">\n";
  auto row = [&](const std::string& k, const std::string& v) {
    if (!v.empty()) out += "<tr>" + Th(k) + Td(v) + "</tr>\n";
  };
  row("host", e.system.hostname);
  row("os", e.system.os);
  row("kernel", e.system.kernel);
  row("cpu", std::to_string(e.system.cpu_count) + " × " + e.system.cpu_model);
  row("memory", FormatBytes(static_cast<double>(e.system.memory_bytes)));
  row("build", e.build_type);
  row("scratch directory", e.target_dir);
  row("filesystem", e.filesystem.type + " on " + e.filesystem.source + " at " +
                        e.filesystem.mount_point);
  row("mount options", e.filesystem.mount_options);
  if (e.device) {
    const DeviceInfo& d = *e.device;
    std::string chain;
    for (const auto& c : d.chain) chain += (chain.empty() ? "" : " → ") + c;
    row("device path", chain);
    row("model", d.model);
    if (d.size_bytes)
      row("size", FormatBytes(static_cast<double>(*d.size_bytes)));
    if (d.rotational) row("rotational", *d.rotational ? "yes" : "no");
    row("scheduler", d.scheduler);
    row("write cache (kernel view)", d.write_cache);
    if (d.fua) row("FUA", *d.fua ? "yes" : "no");
    if (d.logical_block_size) {
      row("logical / physical block",
          std::to_string(*d.logical_block_size) + " / " +
              (d.physical_block_size ? std::to_string(*d.physical_block_size)
                                     : "-") +
              " B");
    }
  } else {
    row("device", e.device_note);
  }
  row("disktune",
      r.tool_version + " (" + r.command + ", " + r.completion + ")");
  row("written to scratch", FormatBytes(static_cast<double>(r.bytes_written)));
  out += "</table>\n";
  if (r.config.is_object() && !r.config.empty()) {
    out += "<details><summary>Effective configuration</summary>\n" +
           JsonHtml(r.config, "", 0) + "</details>\n";
  }
  out += "</section>\n";
}

void Recommendation(const Report& r, std::string& out) {
  if (!r.tune) return;
  const model::TuneSummary& tune = *r.tune;
  out += "<section id=\"recommendation\"><h2>Recommendation</h2>\n";
  // The recommendation as a table, then the tuner's evidence in sentences;
  // without evidence, the summary as it is written.
  std::vector<RecommendationRow> rows = RecommendationRows(tune);
  if (!rows.empty()) {
    out += "<p>" + H(RecommendationHeadline(tune)) + "</p>\n<table><tr>";
    for (const std::string& c : RecommendationColumns()) out += Th(c);
    out += "</tr>\n";
    for (const RecommendationRow& row : rows) {
      out += "<tr>";
      for (const std::string& cell : RecommendationCells(row)) {
        out += "<td>" + H(cell) + "</td>";
      }
      out += "</tr>\n";
    }
    out += "</table>\n";
    std::vector<std::string> why = TuneEvidenceSentences(tune);
    if (!why.empty()) out += "<h3>How the tuner got there</h3>\n<ul>\n";
    for (const std::string& line : why) out += "<li>" + H(line) + "</li>\n";
    if (!why.empty()) out += "</ul>\n";
  } else {
    out += JsonHtml(model::TuneSummaryToJson(tune), "", 0);
  }
  out += "</section>\n";
}

void Benchmarks(const Report& r, std::string& out) {
  if (r.benches.empty()) return;
  out += "<section id=\"benchmarks\"><h2>Benchmarks</h2>\n";
  out +=
      "<p class=\"note\">One chart per scenario set, every engine in it (a "
      "bar each, log scale: the scenarios span decades); a longer bar is "
      "better. A one-shot step (compact) is a duration in the tables, not a "
      "bar.</p>\n";
  // Per scenario set (first-seen order): its scenario keys, with their
  // occurrence, in run order, and the engines that ran them.
  std::vector<int> occ = BenchOccurrences(r.benches);
  std::vector<std::string> sets;
  std::map<std::string, std::vector<std::string>> keys_of;
  std::vector<std::string> engines;
  std::map<std::string, std::map<std::string, const bench::BenchResult*>>
      by_key;  // set + "\n" + key -> engine -> result
  for (size_t i = 0; i < r.benches.size(); i++) {
    const auto& b = r.benches[i];
    std::string set = b.set.empty() ? "scenarios" : b.set;
    if (!keys_of.count(set)) sets.push_back(set);
    std::string k = BenchKey(b, occ[i]);
    auto& keys = keys_of[set];
    if (b.metrics.ops > 1 || b.status != bench::RunStatus::kOk) {
      if (std::find(keys.begin(), keys.end(), k) == keys.end())
        keys.push_back(k);
    }
    if (std::find(engines.begin(), engines.end(), b.engine) == engines.end())
      engines.push_back(b.engine);
    by_key[set + "\n" + k][b.engine] = &b;
  }
  out += "<div class=\"charts\">\n";
  std::vector<std::string> notes;
  for (const auto& set : sets) {
    svg::BarChart chart;
    chart.categories = keys_of[set];
    if (chart.categories.empty()) continue;
    for (const auto& e : engines) {
      svg::BarSeries s;
      s.name = e;
      bool any = false;
      for (const auto& k : chart.categories) {
        auto& row = by_key[set + "\n" + k];
        auto it = row.find(e);
        const bench::BenchResult* b = it == row.end() ? nullptr : it->second;
        if (b && (b->status == bench::RunStatus::kOk ||
                  b->status == bench::RunStatus::kPartial)) {
          any = true;
          s.values.push_back(b->metrics.ops_per_sec);
          s.ranges.push_back(b->repeats ? std::optional<svg::Range>(svg::Range{
                                              b->repeats->ops_per_sec.min,
                                              b->repeats->ops_per_sec.max})
                                        : std::nullopt);
        } else {
          s.values.push_back(std::nullopt);
          s.ranges.push_back(std::nullopt);
          if (b) {
            notes.push_back(e + " " + k + ": " +
                            bench::RunStatusName(b->status) +
                            (b->error.empty() ? "" : " (" + b->error + ")"));
          }
        }
      }
      if (any) chart.series.push_back(std::move(s));
    }
    if (chart.series.empty()) continue;
    chart.title = set + ": ops/sec per scenario";
    chart.axis_label = "ops/sec (log scale)";
    chart.log_scale = true;
    chart.format = [](double v) { return Thousands(v); };
    chart.tick_format = CompactNumber;
    out += svg::RenderBarChart(chart);
  }
  out += "</div>\n";
  for (const auto& n : notes) out += "<p class=\"skipped\">" + H(n) + "</p>\n";

  // Scaling with threads and throughput over time, where measured.
  std::string series_charts;
  for (size_t i = 0; i < r.benches.size(); i++) {
    const auto& b = r.benches[i];
    std::string k = b.engine + " " + BenchKey(b, occ[i]);
    if (b.thread_series.size() > 1) {
      svg::LineChart c =
          OpsPerSecChart(k + ": throughput against threads", "threads");
      c.log2_x = true;
      c.format_x = [](double v) { return Thousands(v); };
      for (const auto& t : b.thread_series)
        c.series[0].points.emplace_back(t.threads, t.ops_per_sec);
      series_charts += svg::RenderLineChart(c);
    }
    if (b.interval_series.size() > 1) {
      svg::LineChart c = OpsPerSecChart(
          k + ": throughput as the database grows", "operations done");
      c.format_x = CompactNumber;
      for (const auto& t : b.interval_series) {
        c.series[0].points.emplace_back(static_cast<double>(t.ops_done),
                                        t.ops_per_sec);
      }
      series_charts += svg::RenderLineChart(c);
    }
  }
  if (!series_charts.empty())
    out += "<div class=\"charts\">\n" + series_charts + "</div>\n";

  bool any_pulses = std::any_of(
      r.benches.begin(), r.benches.end(),
      [](const bench::BenchResult& b) { return !b.pulses.empty(); });
  if (any_pulses) {
    out += "<h3>Block-validation pulses</h3>\n<table><tr>" + Th("engine") +
           Th("scenario") + Th("pulse", true) + Th("threads", true) +
           Th("reads", true) + Th("read time", true) + Th("writes", true) +
           Th("write time", true) + Th("peak RSS", true) + "</tr>\n";
    for (const auto& b : r.benches) {
      for (const auto& p : b.pulses) {
        out += "<tr>" + Td(b.engine) + Td(b.scenario) +
               Td(std::to_string(p.pulse), true) +
               Td(std::to_string(p.threads), true) +
               Td(Thousands(static_cast<double>(p.read_ops)), true) +
               Td(Dur(static_cast<double>(p.read_elapsed_ns)), true) +
               Td(Thousands(static_cast<double>(p.inserts + p.deletes)), true) +
               Td(Dur(static_cast<double>(p.write_elapsed_ns)), true) +
               Td(p.peak_rss_bytes
                      ? FormatBytes(static_cast<double>(*p.peak_rss_bytes))
                      : "-",
                  true) +
               "</tr>\n";
      }
    }
    out += "</table>\n";
  }
  if (const MemoryBudgetCheck* mem = MemoryBudgetOf(r.analyses)) {
    out += "<p class=\"note\">Memory: " + H(MemoryBudgetText(*mem)) + ".</p>\n";
  }
  out += "</section>\n";
}

std::vector<const ProbeResult*> ProbesOf(const Report& r,
                                         const std::string& probe) {
  std::vector<const ProbeResult*> v;
  for (const auto& p : r.probes) {
    if (p.probe == probe) v.push_back(&p);
  }
  return v;
}

void SkippedNotes(const std::vector<const ProbeResult*>& ps, std::string& out) {
  for (const ProbeResult* p : ps) {
    if (p->status == ProbeStatus::kOk) continue;
    out += "<p class=\"skipped\">" + H(p->name) + " " +
           ProbeStatusName(p->status) + ": " +
           H(p->status == ProbeStatus::kSkipped ? p->reason : p->error) +
           "</p>\n";
  }
}

// Bandwidth bars for the probes of one kind (sequential reads, writes).
std::string BandwidthChart(const std::string& title,
                           const std::vector<const ProbeResult*>& ps) {
  svg::BarChart c;
  c.title = title;
  c.axis_label = "MB/s";
  c.format = [](double v) { return Fixed(v / 1e6, v < 1e9 ? 1 : 0) + " MB/s"; };
  c.tick_format = [](double v) { return CompactNumber(v / 1e6); };
  svg::BarSeries s;
  for (const ProbeResult* p : ps) {
    if (p->status != ProbeStatus::kOk || !p->bytes_per_sec) continue;
    c.categories.push_back(ProbeLabel(*p));
    s.values.push_back(*p->bytes_per_sec);
  }
  if (c.categories.empty()) return "";
  c.series.push_back(std::move(s));
  c.width = 560;
  return svg::RenderBarChart(c);
}

void SeqReads(const Report& r, std::string& out) {
  auto ps = ProbesOf(r, "seq_read");
  if (ps.empty()) return;
  out += "<h3 id=\"seq-read\">Sequential reads: 4 KiB against 1 MiB</h3>\n";
  std::string chart = BandwidthChart("Sequential direct reads", ps);
  out += chart;
  const ProbeResult *small = nullptr, *large = nullptr;
  for (const ProbeResult* p : ps) {
    if (p->status != ProbeStatus::kOk || !p->bytes_per_sec ||
        !p->params.block_size_bytes)
      continue;
    if (!small || *p->params.block_size_bytes < *small->params.block_size_bytes)
      small = p;
    if (!large || *p->params.block_size_bytes > *large->params.block_size_bytes)
      large = p;
  }
  if (small && large && small != large && *small->bytes_per_sec > 0) {
    double ratio = *large->bytes_per_sec / *small->bytes_per_sec;
    out +=
        "<p class=\"note\">" +
        H(FormatBytes(static_cast<double>(*large->params.block_size_bytes))) +
        " reads move " + H(Fixed(ratio, 1)) + "× the bytes per second of " +
        H(FormatBytes(static_cast<double>(*small->params.block_size_bytes))) +
        " reads.";
    if (ratio >= 1.5) {
      out +=
          " An engine reading one block at a time from one thread gets the "
          "smaller figure: "
          "that sets the ceiling of a cold point-lookup path.";
    }
    out += "</p>\n";
  }
  SkippedNotes(ps, out);
}

void RandReads(const Report& r, std::string& out) {
  auto ps = ProbesOf(r, "rand_read");
  if (ps.empty()) return;
  out += "<h3 id=\"rand-read\">Random reads against queue depth</h3>\n";
  // One line per block size.
  std::map<uint64_t, std::vector<const ProbeResult*>> by_bs;
  for (const ProbeResult* p : ps) {
    if (p->status == ProbeStatus::kOk && p->params.queue_depth && p->iops) {
      by_bs[p->params.block_size_bytes.value_or(0)].push_back(p);
    }
  }
  if (!by_bs.empty()) {
    svg::LineChart iops;
    iops.title = "IOPS against queue depth";
    iops.x_label = "queue depth";
    iops.y_label = "IOPS";
    iops.log2_x = true;
    iops.format_x = [](double v) { return Thousands(v); };
    iops.format_y = CompactNumber;
    svg::LineChart lat;
    lat.title = "Latency against queue depth";
    lat.x_label = "queue depth";
    lat.y_label = "latency";
    lat.log2_x = true;
    lat.log_y = true;
    lat.format_x = iops.format_x;
    lat.format_y = CompactDur;
    for (auto& [bs, v] : by_bs) {
      std::sort(v.begin(), v.end(),
                [](const ProbeResult* a, const ProbeResult* b) {
                  return *a->params.queue_depth < *b->params.queue_depth;
                });
      std::string prefix =
          by_bs.size() > 1 ? FormatBytes(static_cast<double>(bs)) + " " : "";
      svg::LineSeries s{prefix + "IOPS", {}}, p50{prefix + "p50", {}},
          p99{prefix + "p99", {}};
      for (const ProbeResult* p : v) {
        double qd = *p->params.queue_depth;
        s.points.emplace_back(qd, *p->iops);
        if (p->latency_ns) {
          p50.points.emplace_back(qd, static_cast<double>(p->latency_ns->p50));
          p99.points.emplace_back(qd, static_cast<double>(p->latency_ns->p99));
        }
      }
      iops.series.push_back(std::move(s));
      lat.series.push_back(std::move(p50));
      lat.series.push_back(std::move(p99));
    }
    out += "<div class=\"charts\">\n" + svg::RenderLineChart(iops) +
           svg::RenderLineChart(lat) + "</div>\n";
  }
  if (const auto& s = r.analyses.rand_read_saturation) {
    out += "<p class=\"note\">" + H(SaturationText(*s)) + "</p>\n";
  }
  SkippedNotes(ps, out);
}

void Writes(const Report& r, std::string& out) {
  auto seq = ProbesOf(r, "seq_write");
  auto rnd = ProbesOf(r, "rand_write");
  if (seq.empty() && rnd.empty()) return;
  out += "<h3 id=\"writes\">Writes</h3>\n<div class=\"charts\">\n";
  if (!seq.empty()) out += BandwidthChart("Sequential direct writes", seq);
  if (!rnd.empty()) out += BandwidthChart("Random direct writes", rnd);
  out += "</div>\n";
  SkippedNotes(seq, out);
  SkippedNotes(rnd, out);
}

std::string LatencyFormat(double v) { return Dur(v); }

void LatencyAxis(svg::BarChart* c) {
  c->axis_label = "latency of one write + sync";
  c->log_scale = true;
  c->format = LatencyFormat;
  c->tick_format = CompactDur;
}

void Fsync(const Report& r, std::string& out) {
  std::vector<const ProbeResult*> ps;
  for (const auto& p : r.probes) {
    if (IsScratchFsync(p)) ps.push_back(&p);
  }
  if (ps.empty()) return;
  out +=
      "<h3 id=\"fsync\">Making a write durable: each method's p50 and "
      "p99</h3>\n";
  out +=
      "<p class=\"note\">One write then the sync, repeated; a shorter bar is "
      "better. "
      "\"append\" grows the file (the sync must also persist its size), "
      "\"overwrite\" "
      "rewrites preallocated blocks. The pg rows are PostgreSQL's "
      "pg_test_fsync cases.</p>\n";
  svg::BarChart c;
  c.title = "Sync latency in the scratch directory";
  LatencyAxis(&c);
  c.width = 1100;
  svg::BarSeries p50{"p50", {}, {}}, p99{"p99", {}, {}};
  for (const ProbeResult* p : ps) {
    if (p->status != ProbeStatus::kOk || !p->latency_ns) continue;
    std::string label = ProbeLabel(*p);
    if (p->ops_per_sec) label += " (" + Thousands(*p->ops_per_sec) + "/s)";
    c.categories.push_back(label);
    p50.values.push_back(static_cast<double>(p->latency_ns->p50));
    p99.values.push_back(static_cast<double>(p->latency_ns->p99));
  }
  c.series = {std::move(p50), std::move(p99)};
  if (!c.categories.empty()) out += svg::RenderBarChart(c);
  SkippedNotes(ps, out);
}

// A figure of write_cache_ab / fs_matrix: p50 or p99.
std::optional<double> Fig(const SyncFigures& f, bool p50) {
  const std::optional<uint64_t>& v = p50 ? f.p50_ns : f.p99_ns;
  return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
}

// A table section's heading, then how to measure it when it was not.
bool SectionHeading(bool measured, const char* heading, const char* how,
                    std::string& out) {
  out += heading;
  if (!measured) {
    out += "<p class=\"skipped\">Not measured: run the probe as root with ";
    out += how;
    out += "</p>\n";
  }
  return measured;
}

void WriteCacheAbSection(const Report& r, std::string& out) {
  const std::optional<WriteCacheAb>& ab = r.analyses.write_cache_ab;
  if (!SectionHeading(
          ab.has_value(),
          "<h3 id=\"write-cache\">Write cache on against off</h3>\n",
          "--write-cache-ab to time every sync method with the "
          "write cache switched.",
          out)) {
    return;
  }
  for (const WriteCacheAbRun& run : ab->runs) {
    if (run.status != "ok") {
      out += "<p class=\"skipped\">" + H(run.results) +
             ": skipped: " + H(run.reason) + "</p>\n";
      continue;
    }
    out += "<p class=\"note\">" + H(run.results) + ": switched with " +
           H(run.switch_used) + " (" + H(run.switch_kind) + "); found " +
           H(run.as_found) + ", measured again " + H(run.switched_to) + ".";
    if (run.switch_kind == "kernel_write_cache") {
      out +=
          " <b>Only the kernel's view was switched</b>: with it off the kernel "
          "sends no "
          "flushes, so syncs get fast without becoming durable.";
    }
    out += "</p>\n<div class=\"charts\">\n";
    for (const char* q : {"p50_ns", "p99_ns"}) {
      svg::BarChart c;
      c.title = std::string(q[1] == '5' ? "p50" : "p99") +
                " with the cache on and off";
      LatencyAxis(&c);
      svg::BarSeries on{"cache on", {}, {}}, off{"cache off", {}, {}};
      for (const WriteCacheAbPoint& p : run.points) {
        c.categories.push_back(p.point);
        on.values.push_back(Fig(p.cache_on, q[1] == '5'));
        off.values.push_back(Fig(p.cache_off, q[1] == '5'));
      }
      c.series = {std::move(on), std::move(off)};
      c.width = 560;
      if (!c.categories.empty()) out += svg::RenderBarChart(c);
    }
    out += "</div>\n";
  }
}

void FsMatrixSection(const Report& r, std::string& out) {
  const std::optional<FsMatrix>& m = r.analyses.fs_matrix;
  if (!SectionHeading(m.has_value(),
                      "<h3 id=\"fs-matrix\">Filesystems side by side</h3>\n",
                      "--fs-matrix ext3,ext4,xfs to time the sync methods on "
                      "each filesystem (on a loop device over an image in the "
                      "scratch directory).",
                      out)) {
    return;
  }
  std::vector<std::string> ok;
  out += "<table><tr>" + Th("filesystem") + Th("status") +
         Th("mount options / reason") + Th("device") + "</tr>\n";
  for (const FsMatrixFilesystem& f : m->filesystems) {
    bool is_ok = f.status == "ok";
    if (is_ok) ok.push_back(f.filesystem);
    out += "<tr>" + Td(f.filesystem) + Td(f.status) +
           Td(is_ok ? f.mount_options : f.reason) + Td(f.device) + "</tr>\n";
  }
  out += "</table>\n";
  if (ok.empty()) return;
  out += "<div class=\"charts\">\n";
  for (const char* q : {"p50_ns", "p99_ns"}) {
    svg::BarChart c;
    c.title = std::string(q[1] == '5' ? "p50" : "p99") + " by filesystem";
    LatencyAxis(&c);
    c.width = 560;
    for (const auto& fs : ok) c.series.push_back(svg::BarSeries{fs, {}, {}});
    for (const FsMatrixPoint& p : m->points) {
      c.categories.push_back(p.point);
      for (size_t i = 0; i < ok.size(); i++) {
        auto f = p.by_filesystem.find(ok[i]);
        c.series[i].values.push_back(f == p.by_filesystem.end()
                                         ? std::nullopt
                                         : Fig(f->second, q[1] == '5'));
      }
    }
    if (!c.categories.empty()) out += svg::RenderBarChart(c);
  }
  out += "</div>\n";
}

// The analyses said at the end of the disk section, by kind
// (reports/analysis_registry.h); the other kinds are said inside their own
// sections.
void PageCacheNote(const Report& r, std::string& out) {
  const PageCacheCheck& pc = *r.analyses.page_cache;
  out += "<p class=\"note\">Page cache bypassed by the direct-I/O probes: " +
         std::string(pc.bypassed ? "yes" : "<b>no</b>") + " (" +
         H(FormatBytes(static_cast<double>(pc.resident_bytes))) +
         " of the test file resident afterwards).</p>\n";
}

using HtmlHook = void (*)(const Report&, std::string&);
// By AnalysisId; nullptr for a kind said in its own section.
constexpr HtmlHook kHtmlHooks[] = {
    nullptr,         // throttle_by_probe: Header
    nullptr,         // memory_budget: Benchmarks
    nullptr,         // rand_read_saturation: RandReads, under its charts
    &PageCacheNote,  // page_cache
    nullptr,         // leveldb_2011: as written, OtherFindings
    nullptr,         // durability: Durability
    nullptr,         // write_cache: Durability
    nullptr,         // checks: Durability
    nullptr,         // write_cache_ab: WriteCacheAbSection
    nullptr,         // fs_matrix: FsMatrixSection
    nullptr,         // bytes_written: not said in HTML
};
static_assert(std::size(kHtmlHooks) == kAnalysisKinds,
              "one HTML hook per kind in reports/analysis_registry.h");

void AfterProbes(const Report& r, std::string& out) {
  for (const AnalysisKind& k : AnalysisKinds()) {
    HtmlHook hook = kHtmlHooks[static_cast<size_t>(k.id)];
    if (k.place == AnalysisPlace::kAfterProbes && hook != nullptr &&
        k.present(r.analyses)) {
      hook(r, out);
    }
  }
}

void Disk(const Report& r, std::string& out) {
  if (r.probes.empty()) return;
  out += "<section id=\"disk\"><h2>The disk</h2>\n";
  SeqReads(r, out);
  RandReads(r, out);
  Writes(r, out);
  Fsync(r, out);
  bool any_fsync =
      std::any_of(r.probes.begin(), r.probes.end(),
                  [](const ProbeResult& p) { return p.probe == "fsync"; });
  if (any_fsync) {
    WriteCacheAbSection(r, out);
    FsMatrixSection(r, out);
  }
  AfterProbes(r, out);
  out += "</section>\n";
}

void Durability(const Report& r, std::string& out) {
  DurabilityAnalyses a = DurabilityAnalysesOf(r.analyses);
  if (!a.findings && a.checks.empty() && !a.write_cache) return;
  out += "<section id=\"durability\"><h2>Durability</h2>\n";
  for (const auto& [name, e] : a.checks) {
    out += "<p><span class=\"" + std::string(e.pass ? "pass" : "fail") + "\">" +
           H(CheckVerdictText(e)) + "</span> <b>" + H(name) +
           "</b>: " + H(CheckMeasurementText(e.measurement)) + " " +
           H(DurationOrDash(e.value_ns)) + ", limit " +
           H(DurationOrDash(e.threshold_ns)) + ".<br><span class=\"note\">" +
           H(e.rule) + "</span></p>\n";
  }
  if (a.findings) {
    for (const ScopeVerdict& v : a.findings->verdicts) {
      out += "<div class=\"verdict" + std::string(v.good() ? "" : " warn") +
             "\"><b>" + H(v.scope) + " (" + H(v.disk) +
             "): " + H(DurabilityTitle(v.verdict.id)) + "</b><br>" +
             H(v.verdict.rule) + "<br><span class=\"note\">";
      std::string evs;
      if (v.evidence) {
        const DurabilityEvidence& ev = *v.evidence;
        auto f = ev.flushes_per_sync();
        evs = f ? "The disk completed " + Fixed(*f, 2) + " flushes per sync"
                : std::string("Flushes were not counted");
        evs += "; the fastest sync point (" + ev.fastest_point +
               ") had a p50 of " + DurationOrDash(ev.fastest_sync_p50_ns);
        if (!ev.kernel_write_cache.empty())
          evs += "; the kernel's view of the cache was '" +
                 ev.kernel_write_cache + "'";
        evs += ".";
      }
      out += H(evs) + "</span></div>\n";
    }
  }
  if (a.write_cache) {
    out += "<h3>Write cache</h3>\n<ul>\n";
    for (const WriteCacheView& d : a.write_cache->devices) {
      std::string line = d.disk + ": the kernel's view '" + d.kernel_view + "'";
      if (d.fua) line += ", FUA " + std::string(*d.fua ? "yes" : "no");
      line += "; the drive's cache: ";
      if (d.drive.enabled) {
        line += std::string(*d.drive.enabled ? "enabled" : "disabled") + " (" +
                d.drive.source + ")";
      } else {
        line += "unknown";
      }
      line += d.drive.switchable ? ", switchable" : ", not switchable";
      out += "<li>" + H(line);
      if (!d.drive.note.empty()) {
        out += "<br><span class=\"note\">" + H(d.drive.note) + "</span>";
      }
      out += "</li>\n";
    }
    out += "</ul>\n";
  }
  out += "</section>\n";
}

// "fio", "native", or "native: fio is not installed ..." (escaped).
std::string MeasuredByText(const ProbeResult& p) {
  if (!p.measured_by) return "-";
  std::string text = MeasuredByName(*p.measured_by);
  if (!p.measured_by_reason.empty()) text += ": " + p.measured_by_reason;
  return text;
}

void ProbeTable(const Report& r, std::string& out) {
  // Which loop measured each point; reports written before the field have
  // none, and no column then.
  bool by = std::any_of(
      r.probes.begin(), r.probes.end(),
      [](const ProbeResult& p) { return p.measured_by.has_value(); });
  out += "<h3>Probes</h3>\n<table><tr>" + Th("probe") +
         Th("IOPS / ops/s", true) + Th("MB/s", true) + Th("p50", true) +
         Th("p99", true) + Th("p99.9", true) + Th("max", true) +
         Th("samples", true) + Th("flushes/sync", true) +
         (by ? Th("measured by") : "") + "</tr>\n";
  bool few = false;
  for (const auto& p : r.probes) {
    if (p.status != ProbeStatus::kOk) {
      out += "<tr>" + Td(p.name) + "<td colspan=\"8\" class=\"skipped\">" +
             H(std::string(ProbeStatusName(p.status)) + ": " +
               (p.status == ProbeStatus::kSkipped ? p.reason : p.error)) +
             "</td>" + (by ? Td(MeasuredByText(p)) : "") + "</tr>\n";
      continue;
    }
    std::optional<double> rate = p.iops ? p.iops : p.ops_per_sec;
    const json* fps = JsonNum(p.metrics, "flushes_per_sync");
    out +=
        "<tr>" + Td(p.name) + Td(rate ? Thousands(*rate) : "-", true) +
        Td(p.bytes_per_sec ? Fixed(*p.bytes_per_sec / 1e6, 1) : "-", true) +
        Td(p.latency_ns ? Dur(static_cast<double>(p.latency_ns->p50)) : "-",
           true) +
        Td(p.latency_ns ? Dur(static_cast<double>(p.latency_ns->p99)) +
                              FewSamplesMark(p.latency_ns->samples, 0.99, &few)
                        : "-",
           true) +
        Td(p.latency_ns ? Dur(static_cast<double>(p.latency_ns->p999)) +
                              FewSamplesMark(p.latency_ns->samples, 0.999, &few)
                        : "-",
           true) +
        Td(p.latency_ns ? Dur(static_cast<double>(p.latency_ns->max)) : "-",
           true) +
        Td(p.samples ? Thousands(static_cast<double>(*p.samples)) : "-", true) +
        Td(fps ? Fixed(fps->get<double>(), 2) : "-", true) +
        (by ? Td(MeasuredByText(p)) : "") + "</tr>\n";
  }
  out += "</table>\n";
  if (few) out += "<p class=\"note\">" + H(kFewSamplesNote) + "</p>\n";
}

void BenchTable(const Report& r, std::string& out) {
  out += "<h3>Benchmarks</h3>\n<table><tr>" + Th("engine") + Th("scenario") +
         Th("micros/op", true) + Th("ops/sec", true) + Th("MiB/s", true) +
         Th("p50", true) + Th("p99", true) + Th("spread of repeats", true) +
         Th("write amp.", true) + Th("note") + "</tr>\n";
  std::vector<int> occ = BenchOccurrences(r.benches);
  bool few = false;
  for (size_t i = 0; i < r.benches.size(); i++) {
    const auto& b = r.benches[i];
    const auto& m = b.metrics;
    std::string spread = "-";
    if (b.repeats) {
      const auto& s = b.repeats->ops_per_sec;
      spread = Thousands(s.min) + " – " + Thousands(s.max) +
               " (n=" + std::to_string(b.repeats->count) + ")";
    }
    std::string note = b.metrics.message;
    if (b.status != bench::RunStatus::kOk) {
      note = std::string(bench::RunStatusName(b.status)) +
             (b.error.empty() ? "" : ": " + b.error);
    }
    bool has = b.status == bench::RunStatus::kOk ||
               b.status == bench::RunStatus::kPartial;
    out += "<tr>" + Td(b.engine) + Td(BenchKey(b, occ[i])) +
           Td(has ? Fixed(m.micros_per_op, 3) : "-", true) +
           Td(!has         ? "-"
              : m.ops <= 1 ? "took " + Dur(static_cast<double>(m.elapsed_ns))
                           : Thousands(m.ops_per_sec),
              true) +
           Td(has && m.bytes_per_sec ? Fixed(*m.bytes_per_sec / 1048576.0, 1)
                                     : "-",
              true) +
           Td(has && m.latency_ns ? Dur(static_cast<double>(m.latency_ns->p50))
                                  : "-",
              true) +
           Td(has && m.latency_ns
                  ? Dur(static_cast<double>(m.latency_ns->p99)) +
                        FewSamplesMark(m.latency_ns->samples, 0.99, &few)
                  : "-",
              true) +
           Td(spread, true) +
           Td(m.write_amplification ? Fixed(*m.write_amplification, 2) : "-",
              true) +
           Td(note) + "</tr>\n";
  }
  out +=
      "</table>\n<p class=\"note\">micros/op is summed per-thread time over "
      "operations and "
      "MiB/s (2<sup>20</sup> bytes a second) over wall time, as db_bench "
      "prints them (db_bench labels them MB/s); the device tables' MB/s are "
      "10<sup>6</sup> bytes a second, as fio prints them.</p>\n";
  if (few) out += "<p class=\"note\">" + H(kFewSamplesNote) + "</p>\n";
}

void Figures(const Report& r, std::string& out) {
  if (r.probes.empty() && r.benches.empty()) return;
  out += "<section id=\"figures\"><h2>All figures</h2>\n";
  if (!r.benches.empty()) {
    BenchTable(r, out);
    out += RenderPredictionsHtml(r.benches);
  }
  if (!r.probes.empty()) ProbeTable(r, out);
  out += "</section>\n";
}

// Per engine: the library build and every setting in force.
void EngineConfiguration(const Report& r, std::string& out) {
  for (const EngineConfig& c : EngineConfigs(r)) {
    if (c.library == nullptr && c.settings.empty()) continue;
    out += "<section class=\"engine-config\"><h3>Engine " + H(c.engine) +
           "</h3>\n<table><tr>" + Th("setting") + Th("value") + "</tr>\n";
    if (c.library) {
      out += "<tr>" + Td("library") + Td(LibraryText(*c.library)) + "</tr>\n";
    }
    for (const auto& [name, value] : c.settings) {
      out += "<tr>" + Td(name) + Td(value) + "</tr>\n";
    }
    out += "</table></section>\n";
  }
}

// Analyses no kind describes (a probe of a later version) and kinds without
// words of their own yet (reports/analysis_registry.h), as written.
void OtherFindings(const Report& r, std::string& out) {
  nlohmann::json analyses = model::AnalysesToJson(r.analyses);
  for (auto it = analyses.begin(); it != analyses.end(); ++it) {
    if (!SaidAsWritten(it.key())) continue;
    out += "<section><h2>" + H(it.key()) + "</h2>\n" +
           JsonHtml(it.value(), it.key(), 0) + "</section>\n";
  }
}

void Warnings(const Report& r, std::string& out) {
  if (r.warnings.empty()) return;
  out +=
      "<section id=\"warnings\"><h2>Warnings</h2>\n<ul class=\"warnings\">\n";
  for (const auto& w : r.warnings) out += "<li>" + H(w) + "</li>\n";
  out += "</ul></section>\n";
}

}  // namespace

std::string RenderHtml(const Report& r) {
  std::string out;
  out +=
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out +=
      "<meta name=\"viewport\" content=\"width=device-width, "
      "initial-scale=1\">\n";
  std::string dev = r.environment.device ? r.environment.device->disk : "";
  out += "<title>disktune report: " + H(r.environment.system.hostname) +
         (dev.empty() ? "" : " " + H(dev)) + " " + H(r.created_at) +
         "</title>\n";
  out += "<style>" + std::string(kPageFrameCss) + kStyle +
         "</style>\n</head>\n<body>\n<main>\n";
  Header(r, out);
  out += SummaryHtml(SummaryOf(r));
  Nav(r, out);
  Setup(r, out);
  Recommendation(r, out);
  Benchmarks(r, out);
  EngineConfiguration(r, out);
  Disk(r, out);
  Durability(r, out);
  OtherFindings(r, out);
  EnvironmentTable(r, out);
  Figures(r, out);
  Warnings(r, out);
  out += "<footer>Generated by disktune " + H(r.tool_version) +
         ". Figures carry their sample counts in the JSON result; the charts "
         "are drawn "
         "from it, with no scripts or external files.</footer>\n";
  out += "</main>\n</body>\n</html>\n";
  return out;
}

}  // namespace disktune
