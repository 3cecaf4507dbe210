// FleetHtml (fleet_render.h): a self-contained page, no scripts. One strip
// chart per figure: a row per device-model group, each host a point on the
// figure's axis, the group median a vertical bar, outliers in orange with
// the host's name beside them. Hovering a point shows host and value.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "reports/fleet_predicted.h"
#include "reports/fleet_render.h"
#include "reports/page_style.h"
#include "reports/render_util.h"
#include "reports/svg_chart.h"

namespace disktune {
namespace {

std::string H(std::string_view s) { return svg::Escape(s); }

// This page's own rules, after kPageFrameCss in its <style>.
constexpr const char* kStyle =
    R"css(h2 { font-size: 20px; border-bottom: 2px solid #0072B2; padding-bottom: 4px; margin-top: 32px; }
.sub { color: #555; margin: 0 0 12px; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0 16px; }
th, td { border-bottom: 1px solid #e4e4e4; padding: 3px 10px 3px 0; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.out { color: #D55E00; font-weight: 600; }
.chart { display: block; margin: 4px 0 18px; }
li.out { color: #8a3b00; }
)css";

std::string Num(double v) { return Fixed(v, 1); }

std::string StripChart(const FleetReport& fleet, size_t f) {
  const FleetFigure& fig = fleet.figures[f];
  std::vector<double> all;
  for (const FleetHost& h : fleet.hosts) {
    if (h.cells[f].value) all.push_back(*h.cells[f].value);
  }
  if (all.empty()) return "";
  double lo = *std::min_element(all.begin(), all.end());
  double hi = *std::max_element(all.begin(), all.end());
  // A log axis once the fleet spans a decade: one slow disk at 40x would
  // otherwise squash every other host into one pixel.
  bool log = lo > 0 && hi / lo > 10;
  double a = log ? std::log10(lo) : lo, b = log ? std::log10(hi) : hi;
  if (b - a < 1e-12) {
    double pad = log ? 0.1 : std::max(std::fabs(a) * 0.1, 1.0);
    a -= pad;
    b += pad;
  } else {
    double pad = (b - a) * 0.05;
    a -= pad;
    b += pad;
  }
  if (!log) a = std::max(a, std::min(0.0, lo));
  const int width = 880, left = 220, right = 150, row_h = 44, top = 30;
  const int plot_w = width - left - right;
  const int height = top + row_h * static_cast<int>(fleet.groups.size()) + 34;
  auto x_of = [&](double v) {
    double t = log ? std::log10(std::max(v, 1e-300)) : v;
    return left + (t - a) / (b - a) * plot_w;
  };
  std::ostringstream s;
  s << "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\""
    << width << "\" height=\"" << height << "\" viewBox=\"0 0 " << width << " "
    << height << "\" role=\"img\" aria-label=\"" << H(fig.label) << "\">";
  s << "<text x=\"0\" y=\"16\" font-size=\"14\" font-weight=\"600\">"
    << H(fig.label) << " (" << (fig.higher_is_better ? "higher" : "lower")
    << " is better" << (log ? ", log scale" : "") << ")</text>";
  int axis_y = top + row_h * static_cast<int>(fleet.groups.size());
  s << "<line x1=\"" << left << "\" y1=\"" << axis_y << "\" x2=\""
    << left + plot_w << "\" y2=\"" << axis_y << "\" stroke=\"#888\"/>";
  for (int i = 0; i <= 4; i++) {
    double t = a + (b - a) * i / 4;
    double v = log ? std::pow(10, t) : t;
    double x = left + plot_w * i / 4.0;
    s << "<line x1=\"" << Num(x) << "\" y1=\"" << top << "\" x2=\"" << Num(x)
      << "\" y2=\"" << axis_y + 4 << "\" stroke=\"#eee\"/>";
    s << "<text x=\"" << Num(x) << "\" y=\"" << axis_y + 18
      << "\" font-size=\"11\" text-anchor=\"middle\" fill=\"#555\">"
      << H(FormatFigure(v, fig.dimension, fig.metric)) << "</text>";
  }
  for (size_t gi = 0; gi < fleet.groups.size(); gi++) {
    const FleetGroup& g = fleet.groups[gi];
    int cy = top + row_h * static_cast<int>(gi) + row_h / 2;
    std::string key = g.key.size() > 30 ? g.key.substr(0, 29) + "…" : g.key;
    s << "<text x=\"" << left - 8 << "\" y=\"" << cy + 4
      << "\" font-size=\"12\" text-anchor=\"end\">" << H(key) << "</text>";
    if (g.stats[f].median) {
      double mx = x_of(*g.stats[f].median);
      s << "<line x1=\"" << Num(mx) << "\" y1=\"" << cy - 16 << "\" x2=\""
        << Num(mx) << "\" y2=\"" << cy + 16
        << "\" stroke=\"#009E73\" stroke-width=\"2\"><title>median "
        << H(FormatFigure(*g.stats[f].median, fig.dimension, fig.metric))
        << "</title></line>";
    }
    int k = 0;
    for (size_t h : g.hosts) {
      const FleetCell& c = fleet.hosts[h].cells[f];
      if (!c.value) continue;
      // Spread points over the row so equal values stay visible.
      double y = cy + ((k++ % 5) - 2) * 5;
      double x = x_of(*c.value);
      std::string tip = fleet.hosts[h].host + ": " +
                        FormatFigure(*c.value, fig.dimension, fig.metric);
      if (c.ratio) tip += ", " + Fixed(*c.ratio, 2) + "x the median";
      if (c.mads) tip += ", " + Fixed(*c.mads, 1) + " MADs";
      s << "<circle class=\"" << (c.outlier ? "outlier" : "host") << "\" cx=\""
        << Num(x) << "\" cy=\"" << Num(y) << "\" r=\"" << (c.outlier ? 6 : 4)
        << "\" fill=\"" << (c.outlier ? "#D55E00" : "#0072B2")
        << "\" fill-opacity=\"" << (c.outlier ? "1" : "0.6") << "\"><title>"
        << H(tip) << "</title></circle>";
      if (c.outlier) {
        s << "<text class=\"outlier-label\" x=\"" << Num(x + 9) << "\" y=\""
          << Num(y + 4) << "\" font-size=\"12\" fill=\"#D55E00\">"
          << H(fleet.hosts[h].host) << "</text>";
      }
    }
  }
  s << "</svg>";
  return s.str();
}

// A row per host, a column per engine and scenario: the predicted ops/s
// and, below it, the bound; a host the model cannot predict gets its reason
// across the row.
std::string PredictionsHtml(const FleetReport& fleet) {
  if (!fleet.prediction) return "";
  std::ostringstream os;
  os << "<h2>Predicted engine figures</h2><p class=\"sub\">"
     << H(FleetPredictionNote(fleet)) << "</p>";
  std::vector<FleetPredictedColumn> cols =
      FleetPredictedColumns(*fleet.prediction);
  os << "<table class=\"predicted\"><tr><th>host</th>";
  for (const FleetPredictedColumn& c : cols)
    os << "<th>" << H(c.label) << "</th>";
  os << "</tr>";
  for (const FleetGroup& g : fleet.groups) {
    for (size_t h : g.hosts) {
      const FleetHost& host = fleet.hosts[h];
      os << "<tr><td>" << H(host.host) << "</td>";
      std::string why;
      for (const FleetPrediction& p : host.predictions) {
        if (why.empty()) why = FleetNotPredictedText(p);
      }
      if (!why.empty()) {
        os << "<td colspan=\"" << cols.size() << "\">" << H(why)
           << "</td></tr>";
        continue;
      }
      for (const FleetPredictedColumn& c : cols) {
        const FleetPrediction* p = c.engine < host.predictions.size()
                                       ? &host.predictions[c.engine]
                                       : nullptr;
        const FleetPredicted* f = nullptr;
        for (size_t i = 0; p && i < p->figures.size(); i++) {
          if (p->figures[i].scenario == c.scenario) f = &p->figures[i];
        }
        if (!f) {
          os << "<td class=\"num\">-</td>";
          continue;
        }
        os << "<td class=\"num\">" << H(Thousands(f->ops_per_sec))
           << "/s<br><small>" << H(f->bound) << "</small></td>";
      }
      os << "</tr>";
    }
  }
  os << "</table>";
  return os.str();
}

}  // namespace

std::string FleetHtml(const FleetReport& fleet) {
  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<title>disktune fleet: "
     << fleet.hosts.size() << " hosts</title><style>" << kPageFrameCss << kStyle
     << "</style></head><body><main>";
  os << "<h1>disktune fleet</h1><p class=\"sub\">" << fleet.hosts.size()
     << " results, " << fleet.groups.size() << " device-model group"
     << (fleet.groups.size() == 1 ? "" : "s") << ", " << fleet.outliers.size()
     << " outlier" << (fleet.outliers.size() == 1 ? "" : "s") << "; "
     << H(fleet.created_at) << "</p>";
  const FleetRule& r = fleet.rule;
  os << "<h2>Outliers</h2><p class=\"sub\">A figure is an outlier when it is "
        "more than "
     << Fixed(r.max_mads, 1)
     << " MADs (median absolute deviations of the figure's logarithm, scaled "
        "by 1.4826) and "
     << H(RatioRuleText(r))
     << " away from the median of its device-model group; groups of fewer "
        "than "
     << r.min_hosts << " hosts are not judged.</p><ul>";
  if (fleet.outliers.empty()) os << "<li>none</li>";
  for (const FleetOutlier& o : fleet.outliers) {
    os << "<li class=\"out\"><b>" << H(o.host) << "</b>: " << H(o.text)
       << "</li>";
  }
  os << "</ul>";
  os << "<h2>Figures</h2>";
  for (size_t f = 0; f < fleet.figures.size(); f++) {
    os << StripChart(fleet, f);
  }
  os << "<h2>Hosts</h2>";
  for (const FleetGroup& g : fleet.groups) {
    os << "<h3>" << H(g.key) << "</h3><table><tr><th>host</th>";
    for (const FleetFigure& fig : fleet.figures)
      os << "<th>" << H(fig.label) << "</th>";
    os << "<th>write cache</th><th>flush "
          "verdict</th><th>profile</th><th>file</th></tr>";
    for (size_t h : g.hosts) {
      const FleetHost& host = fleet.hosts[h];
      os << "<tr><td>" << H(host.host) << "</td>";
      for (size_t f = 0; f < fleet.figures.size(); f++) {
        const FleetCell& c = host.cells[f];
        const FleetFigure& fig = fleet.figures[f];
        os << "<td class=\"num" << (c.outlier ? " out" : "") << "\">"
           << (c.value ? H(FormatFigure(*c.value, fig.dimension, fig.metric))
                       : "-")
           << "</td>";
      }
      os << "<td>" << H(host.write_cache) << "</td><td>"
         << H(host.flush_verdict) << "</td><td>" << H(host.recommended)
         << "</td><td>" << H(host.file) << "</td></tr>";
    }
    os << "<tr><th>median</th>";
    for (size_t f = 0; f < fleet.figures.size(); f++) {
      const FleetFigure& fig = fleet.figures[f];
      const auto& m = g.stats[f].median;
      os << "<td class=\"num\">"
         << (m ? H(FormatFigure(*m, fig.dimension, fig.metric)) : "-")
         << "</td>";
    }
    os << "<td>" << H(g.write_cache_majority) << "</td><td>"
       << H(g.flush_verdict_majority) << "</td><td></td><td></td></tr></table>";
  }
  os << PredictionsHtml(fleet);
  if (!fleet.skipped.empty()) {
    os << "<h2>Skipped files</h2><ul>";
    for (const FleetSkipped& s : fleet.skipped) {
      os << "<li>" << H(s.file) << ": " << H(s.error) << "</li>";
    }
    os << "</ul>";
  }
  os << "</main></body></html>\n";
  return os.str();
}

}  // namespace disktune
