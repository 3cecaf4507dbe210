#include "reports/prediction_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "reports/render_util.h"
#include "reports/svg_chart.h"

namespace disktune {
namespace {

bool Any(const std::vector<bench::BenchResult>& rs) {
  return std::any_of(rs.begin(), rs.end(),
                     [](const auto& b) { return b.prediction.has_value(); });
}

std::string Measured(const bench::BenchResult& b) {
  return b.metrics.ops_per_sec > 0 ? Thousands(b.metrics.ops_per_sec) : "-";
}

std::string Ratio(const bench::Prediction& p) {
  return p.measured_over_predicted ? Fixed(*p.measured_over_predicted, 2) : "-";
}

// The ceilings a reader compares: every resource, in one order.
const char* const kCeilings[] = {"cpu", "sync_latency", "read_iops",
                                 "read_bandwidth", "write_bandwidth"};

constexpr const char* kRule =
    "predicted = the lowest ceiling where resources overlap, or 1 / (CPU "
    "time + device time) per op where one thread waits for the device; "
    "ceilings from the probe figures and the engine's CPU cost measured in "
    "memory on this CPU (src/predict/model.h states the formulas)";

}  // namespace

std::string PredictionSummary(const bench::BenchResult& b) {
  if (!b.prediction) return "";
  const bench::Prediction& p = *b.prediction;
  std::string s = "measured " + Thousands(b.metrics.ops_per_sec) +
                  "/s, predicted " + Thousands(p.ops_per_sec) + "/s";
  if (p.measured_over_predicted) s += " (" + Ratio(p) + ")";
  s += ", bound " + p.bound;
  if (!p.miss_cause.empty()) s += "; off by more than 25%: " + p.miss_cause;
  return s;
}

std::string RenderPredictionsText(const std::vector<bench::BenchResult>& rs) {
  if (!Any(rs)) return "";
  std::string out = "\npredictions (" + std::string(kRule) + "):\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-9s %-16s %12s %12s %6s  %-15s %s\n",
                "engine", "scenario", "measured/s", "predicted/s", "m/p",
                "bound", "cause of a miss > 25%");
  out += line;
  std::vector<int> occ = BenchOccurrences(rs);
  for (size_t i = 0; i < rs.size(); i++) {
    const auto& b = rs[i];
    if (!b.prediction) continue;
    const bench::Prediction& p = *b.prediction;
    std::snprintf(line, sizeof line, "%-9s %-16s %12s %12s %6s  %-15s %s\n",
                  b.engine.c_str(), BenchKey(b, occ[i]).c_str(),
                  Measured(b).c_str(), Thousands(p.ops_per_sec).c_str(),
                  Ratio(p).c_str(), p.bound.c_str(), p.miss_cause.c_str());
    out += line;
  }
  return out;
}

std::string RenderPredictionsMarkdown(
    const std::vector<bench::BenchResult>& rs) {
  if (!Any(rs)) return "";
  std::string out =
      "\n### Predicted vs measured\n\n" + std::string(kRule) +
      ".\n\n| engine | scenario | measured ops/s | predicted ops/s | m/p | "
      "bound | cause of a miss > 25% |\n|---|---|--:|--:|--:|---|---|\n";
  std::vector<int> occ = BenchOccurrences(rs);
  for (size_t i = 0; i < rs.size(); i++) {
    const auto& b = rs[i];
    if (!b.prediction) continue;
    const bench::Prediction& p = *b.prediction;
    std::string cause = p.miss_cause;
    std::replace(cause.begin(), cause.end(), '|', '/');
    out += "| " + b.engine + " | " + BenchKey(b, occ[i]) + " | " + Measured(b) +
           " | " + Thousands(p.ops_per_sec) + " | " + Ratio(p) + " | " +
           p.bound + " | " + cause + " |\n";
  }
  return out;
}

std::string RenderPredictionsHtml(const std::vector<bench::BenchResult>& rs) {
  if (!Any(rs)) return "";
  std::string out =
      "<h3 id=\"predictions\">Predicted vs measured</h3>\n<p class=\"note\">" +
      svg::Escape(kRule) +
      ".</p>\n<table><tr><th>engine</th><th>scenario</th><th>measured "
      "ops/s</th><th>predicted ops/s</th><th>m/p</th><th>bound</th><th>cause "
      "of a miss &gt; 25%</th></tr>\n";
  std::vector<int> occ = BenchOccurrences(rs);
  std::vector<std::string> engines;
  for (size_t i = 0; i < rs.size(); i++) {
    const auto& b = rs[i];
    if (!b.prediction) continue;
    if (std::find(engines.begin(), engines.end(), b.engine) == engines.end())
      engines.push_back(b.engine);
    const bench::Prediction& p = *b.prediction;
    out += "<tr><td>" + svg::Escape(b.engine) + "</td><td>" +
           svg::Escape(BenchKey(b, occ[i])) + "</td><td class=\"num\">" +
           Measured(b) + "</td><td class=\"num\">" + Thousands(p.ops_per_sec) +
           "</td><td class=\"num\">" + Ratio(p) + "</td><td>" +
           svg::Escape(p.bound) + "</td><td>" + svg::Escape(p.miss_cause) +
           "</td></tr>\n";
  }
  out += "</table>\n";
  for (const std::string& e : engines) {
    svg::BarChart chart;
    chart.title = e + ": each scenario's ceilings, measured and predicted";
    chart.axis_label = "ops/sec (log scale)";
    chart.log_scale = true;
    chart.format = [](double v) { return Thousands(v); };
    svg::BarSeries measured{"measured", {}, {}};
    svg::BarSeries predicted{"predicted", {}, {}};
    std::map<std::string, svg::BarSeries> ceilings;
    for (const char* c : kCeilings) {
      ceilings[c] = svg::BarSeries{std::string(c) + " ceiling", {}, {}};
    }
    for (size_t i = 0; i < rs.size(); i++) {
      const auto& b = rs[i];
      if (b.engine != e || !b.prediction) continue;
      chart.categories.push_back(BenchKey(b, occ[i]));
      measured.values.push_back(b.metrics.ops_per_sec > 0
                                    ? std::optional(b.metrics.ops_per_sec)
                                    : std::nullopt);
      predicted.values.push_back(b.prediction->ops_per_sec);
      for (const char* c : kCeilings) {
        std::optional<double> v;
        for (const auto& [name, ops] : b.prediction->ceilings_ops_per_sec) {
          if (name == c && std::isfinite(ops)) v = ops;
        }
        ceilings[c].values.push_back(v);
      }
    }
    chart.series = {measured, predicted};
    for (const char* c : kCeilings) {
      const auto& s = ceilings[c];
      if (std::any_of(s.values.begin(), s.values.end(),
                      [](const auto& v) { return v.has_value(); })) {
        chart.series.push_back(s);
      }
    }
    out += svg::RenderBarChart(chart) + "\n";
  }
  return out;
}

}  // namespace disktune
