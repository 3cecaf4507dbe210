#include "reports/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "reports/char_escape.h"

namespace disktune::svg {
namespace {

// An average glyph of a 12 px sans-serif is 6.6 px (Liberation Sans) to 7.6
// px (DejaVu Sans, Debian's default sans-serif, whose '#' and 'm' are wider
// still); 7.6 keeps a label inside its chart in either.
constexpr double kCharWidth = 7.6;
constexpr int kFont = 12;

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f", v);
  std::string s = buf;
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0)
    s.resize(s.size() - 2);
  return s;
}

double TextWidth(const std::string& s) {
  // Count UTF-8 code points, not bytes.
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return static_cast<double>(n) * kCharWidth;
}

std::string DefaultFormat(double v) {
  char buf[32];
  if (std::fabs(v) >= 100 || v == std::floor(v)) {
    std::snprintf(buf, sizeof(buf), "%.0f", v);
  } else {
    std::snprintf(buf, sizeof(buf), "%.3g", v);
  }
  return buf;
}

// A step of 1, 2 or 5 x 10^k giving about `target` ticks over [0, span].
double NiceStep(double span, int target) {
  if (span <= 0) return 1;
  double raw = span / target;
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double norm = raw / mag;
  double step = norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10;
  return step * mag;
}

struct Scale {
  bool log = false;
  double lo = 0, hi = 1;        // domain
  double px_lo = 0, px_hi = 1;  // range
  double operator()(double v) const {
    double t;
    if (log) {
      double lv = std::log10(std::max(v, lo));
      t = (lv - std::log10(lo)) / (std::log10(hi) - std::log10(lo));
    } else {
      t = (v - lo) / (hi - lo);
    }
    t = std::clamp(t, 0.0, 1.0);
    return px_lo + t * (px_hi - px_lo);
  }
  std::vector<double> Ticks(int target = 5) const {
    std::vector<double> t;
    if (log) {
      // Every decade, or every other one when a decade is too narrow.
      double factor = target >= 5 ? 10 : 100;
      for (double p = lo; p <= hi * 1.0001; p *= factor) t.push_back(p);
    } else {
      double step = NiceStep(hi - lo, target);
      for (double v = lo; v <= hi + step * 1e-6; v += step) t.push_back(v);
    }
    return t;
  }
};

// Ticks whose labels fit side by side along a horizontal axis.
std::vector<double> FittingTicks(
    const Scale& s, const std::function<std::string(double)>& fmt) {
  std::vector<double> ticks;
  for (int target : {5, 4, 3, 2}) {
    ticks = s.Ticks(target);
    double widest = 0;
    for (double t : ticks) widest = std::max(widest, TextWidth(fmt(t)));
    double spacing =
        ticks.size() > 1 ? std::fabs(s(ticks[1]) - s(ticks[0])) : 1e9;
    if (spacing >= widest + 12) break;
  }
  return ticks;
}

// A domain for values in [min_pos, max]: powers of ten for a log scale, a
// nice round maximum from zero for a linear one.
void FitDomain(Scale* s, double min_pos, double max) {
  if (s->log) {
    if (!(min_pos > 0) || !std::isfinite(min_pos)) min_pos = max > 0 ? max : 1;
    if (!(max > 0)) max = 1;
    s->lo = std::pow(10.0, std::floor(std::log10(min_pos)));
    // The smallest value gets a visible bar: at least a third of a decade.
    if (min_pos / s->lo < 2) s->lo /= 10;
    s->hi = std::pow(10.0, std::ceil(std::log10(max)));
    if (s->hi <= s->lo) s->hi = s->lo * 10;
  } else {
    s->lo = 0;
    if (!(max > 0)) max = 1;
    double step = NiceStep(max, 5);
    s->hi = std::ceil(max / step - 1e-9) * step;
    if (s->hi < max) s->hi += step;
  }
}

std::string Text(double x, double y, const std::string& s, const char* anchor,
                 const char* extra = "") {
  return "<text x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" text-anchor=\"" +
         anchor + "\"" + extra + ">" + Escape(s) + "</text>\n";
}

std::string Line(double x1, double y1, double x2, double y2, const char* stroke,
                 const char* extra = "") {
  return "<line x1=\"" + Num(x1) + "\" y1=\"" + Num(y1) + "\" x2=\"" + Num(x2) +
         "\" y2=\"" + Num(y2) + "\" stroke=\"" + stroke + "\"" + extra + "/>\n";
}

std::string Open(int width, int height, const std::string& title) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"" +
         std::to_string(width) + "\" height=\"" + std::to_string(height) +
         "\" viewBox=\"0 0 " + std::to_string(width) + " " +
         std::to_string(height) + "\" role=\"img\" aria-label=\"" +
         Escape(title) +
         "\" font-family=\"sans-serif\" "
         "font-size=\"" +
         std::to_string(kFont) + "\">\n<title>" + Escape(title) + "</title>\n";
}

std::string Legend(const std::vector<std::string>& names, double x, double y) {
  std::string out;
  for (size_t i = 0; i < names.size(); i++) {
    out += "<rect x=\"" + Num(x) + "\" y=\"" + Num(y - 9) +
           "\" width=\"10\" height=\"10\" fill=\"" + SeriesColor(i) + "\"/>\n";
    out += Text(x + 14, y, names[i], "start");
    x += 14 + TextWidth(names[i]) + 16;
  }
  return out;
}

// The <svg> opening and the chart's title in bold, with a legend at (x, y)
// when there is more than one series to tell apart.
template <typename Series>
std::string OpenTitled(int width, int height, const std::string& title,
                       const std::vector<Series>& series, double legend_x,
                       double legend_y) {
  std::string out = Open(width, height, title);
  out += Text(4, 17, title, "start", " font-weight=\"bold\" font-size=\"14\"");
  if (series.size() > 1) {
    std::vector<std::string> names;
    for (const auto& s : series) names.push_back(s.name);
    out += Legend(names, legend_x, legend_y);
  }
  return out;
}

}  // namespace

std::string Escape(std::string_view text) {
  return EscapeChars(text, {{'&', "&amp;"},
                            {'<', "&lt;"},
                            {'>', "&gt;"},
                            {'"', "&quot;"},
                            {'\'', "&#39;"}});
}

std::string SeriesColor(size_t i) {
  // Okabe-Ito, distinguishable with the common colour-vision deficiencies.
  static const char* kPalette[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                   "#56B4E9", "#D55E00", "#F0E442", "#000000"};
  return kPalette[i % (sizeof(kPalette) / sizeof(kPalette[0]))];
}

std::string RenderBarChart(const BarChart& c) {
  auto fmt = c.format ? c.format : DefaultFormat;
  auto tick_fmt = c.tick_format ? c.tick_format : fmt;
  const size_t n_series = std::max<size_t>(c.series.size(), 1);
  const double bar_h = 14, bar_gap = 2, group_gap = 10;
  const double title_h = 26;
  const double legend_h = c.series.size() > 1 ? 20 : 0;
  const double axis_h = 40;

  double max_label = 0;
  for (const auto& cat : c.categories)
    max_label = std::max(max_label, TextWidth(cat));
  const double label_w =
      std::min(std::max(max_label + 12, 60.0), c.width * 0.4);

  double vmax = 0, vmin_pos = std::numeric_limits<double>::infinity();
  double max_value_text = 0;
  for (const auto& s : c.series) {
    for (size_t i = 0; i < s.values.size(); i++) {
      if (!s.values[i]) continue;
      double v = *s.values[i];
      vmax = std::max(vmax, v);
      if (v > 0) vmin_pos = std::min(vmin_pos, v);
      max_value_text = std::max(max_value_text, TextWidth(fmt(v)));
      if (i < s.ranges.size() && s.ranges[i]) {
        vmax = std::max(vmax, s.ranges[i]->high);
        if (s.ranges[i]->low > 0)
          vmin_pos = std::min(vmin_pos, s.ranges[i]->low);
      }
    }
  }
  const double value_w = std::max(max_value_text + 10, 50.0);
  Scale x;
  // Bars on a log axis start at its lower bound, so within less than a
  // decade and a half they exaggerate differences: use a linear axis there.
  x.log = c.log_scale && std::isfinite(vmin_pos) && vmax / vmin_pos >= 30;
  FitDomain(&x, vmin_pos, vmax);
  x.px_lo = label_w;
  x.px_hi = std::max(label_w + 100, c.width - value_w);

  const double group_h =
      static_cast<double>(n_series) * (bar_h + bar_gap) - bar_gap;
  const double plot_top = title_h + legend_h + 4;
  const double plot_h =
      static_cast<double>(c.categories.size()) * (group_h + group_gap) +
      group_gap;
  const int height = static_cast<int>(std::ceil(plot_top + plot_h + axis_h));

  std::string out =
      OpenTitled(c.width, height, c.title, c.series, label_w, title_h + 12);
  const double plot_bottom = plot_top + plot_h;
  // Grid and ticks.
  for (double t : FittingTicks(x, tick_fmt)) {
    double px = x(t);
    out += Line(px, plot_top, px, plot_bottom, "#ddd");
    out += Text(px, plot_bottom + 15, tick_fmt(t), "middle", " fill=\"#555\"");
  }
  out += Line(x.px_lo, plot_bottom, x.px_hi, plot_bottom, "#888");
  std::string axis = c.axis_label + (x.log ? " (log scale)" : "");
  out += Text((x.px_lo + x.px_hi) / 2, plot_bottom + 32, axis, "middle",
              " fill=\"#555\"");

  for (size_t ci = 0; ci < c.categories.size(); ci++) {
    double gy =
        plot_top + group_gap + static_cast<double>(ci) * (group_h + group_gap);
    out += Text(label_w - 8, gy + group_h / 2 + 4, c.categories[ci], "end");
    for (size_t si = 0; si < c.series.size(); si++) {
      const BarSeries& s = c.series[si];
      double y = gy + static_cast<double>(si) * (bar_h + bar_gap);
      std::optional<double> v =
          ci < s.values.size() ? s.values[ci] : std::nullopt;
      if (!v) {
        out += Text(x.px_lo + 4, y + bar_h - 3, "not measured", "start",
                    " fill=\"#999\" font-style=\"italic\"");
        continue;
      }
      double w = std::max(x(*v) - x.px_lo, 1.0);
      std::string label = fmt(*v);
      std::string tip = c.categories[ci] +
                        (s.name.empty() ? "" : " — " + s.name) + ": " + label;
      out += "<rect class=\"bar\" x=\"" + Num(x.px_lo) + "\" y=\"" + Num(y) +
             "\" width=\"" + Num(w) + "\" height=\"" + Num(bar_h) +
             "\" fill=\"" + SeriesColor(si) + "\"><title>" + Escape(tip) +
             "</title></rect>\n";
      double text_x = x.px_lo + w + 4;
      if (ci < s.ranges.size() && s.ranges[ci]) {
        double lo = x(s.ranges[ci]->low), hi = x(s.ranges[ci]->high);
        double cy = y + bar_h / 2;
        out += Line(lo, cy, hi, cy, "#333");
        out += Line(lo, cy - 4, lo, cy + 4, "#333");
        out += Line(hi, cy - 4, hi, cy + 4, "#333");
        text_x = std::max(text_x, hi + 4);
      }
      out += Text(text_x, y + bar_h - 3, label, "start");
    }
  }
  out += "</svg>\n";
  return out;
}

std::string RenderLineChart(const LineChart& c) {
  auto fx = c.format_x ? c.format_x : DefaultFormat;
  auto fy = c.format_y ? c.format_y : DefaultFormat;
  double xmin = std::numeric_limits<double>::infinity(), xmax = -xmin;
  double ymin_pos = std::numeric_limits<double>::infinity(), ymax = 0;
  for (const auto& s : c.series) {
    for (const auto& [x, y] : s.points) {
      xmin = std::min(xmin, x);
      xmax = std::max(xmax, x);
      ymax = std::max(ymax, y);
      if (y > 0) ymin_pos = std::min(ymin_pos, y);
    }
  }
  if (!std::isfinite(xmin)) {
    xmin = 0;
    xmax = 1;
  }
  Scale ys;
  ys.log = c.log_y;
  FitDomain(&ys, ymin_pos, ymax);
  double max_tick = 0;
  for (double t : ys.Ticks()) max_tick = std::max(max_tick, TextWidth(fy(t)));

  const double left = std::max(56.0, max_tick + 26), top = 30;
  double right = 16;  // widened below so the last x tick label fits
  const double legend_h = c.series.size() > 1 ? 18 : 0;
  const double bottom = 46;
  ys.px_lo = c.height - bottom;
  ys.px_hi = top + legend_h + 6;

  // x: log2 for queue depths, else linear from the smallest x.
  std::vector<double> xticks;
  double x_lo = xmin, x_hi = xmax;
  auto xpos = [&](double v) {
    double t;
    if (c.log2_x) {
      double span = std::log2(x_hi) - std::log2(x_lo);
      t = span > 0 ? (std::log2(std::max(v, x_lo)) - std::log2(x_lo)) / span
                   : 0.5;
    } else {
      t = x_hi > x_lo ? (v - x_lo) / (x_hi - x_lo) : 0.5;
    }
    return left + t * (c.width - left - right);
  };
  if (c.log2_x) {
    if (x_lo <= 0) x_lo = 1;
    x_lo = std::pow(2.0, std::floor(std::log2(x_lo)));
    x_hi = std::pow(2.0, std::ceil(std::log2(std::max(x_hi, x_lo))));
    for (double t = x_lo; t <= x_hi * 1.0001; t *= 2) xticks.push_back(t);
  } else {
    x_lo = std::min(0.0, xmin);
    double step = NiceStep(xmax - x_lo, 6);
    x_hi = std::ceil(xmax / step - 1e-9) * step;
    if (x_hi <= x_lo) x_hi = x_lo + step;
    for (double t = x_lo; t <= x_hi + step * 1e-6; t += step)
      xticks.push_back(t);
  }
  if (!xticks.empty())
    right = std::max(right, TextWidth(fx(xticks.back())) / 2 + 6);

  std::string out =
      OpenTitled(c.width, c.height, c.title, c.series, left, top + 10);
  const double plot_bottom = ys.px_lo;
  for (double t : ys.Ticks()) {
    double py = ys(t);
    out += Line(left, py, c.width - right, py, "#ddd");
    out += Text(left - 6, py + 4, fy(t), "end", " fill=\"#555\"");
  }
  for (double t : xticks) {
    double px = xpos(t);
    out += Line(px, ys.px_hi, px, plot_bottom, "#eee");
    out += Text(px, plot_bottom + 15, fx(t), "middle", " fill=\"#555\"");
  }
  out += Line(left, plot_bottom, c.width - right, plot_bottom, "#888");
  out += Line(left, ys.px_hi, left, plot_bottom, "#888");
  out += Text((left + c.width - right) / 2, c.height - 8,
              c.x_label + (c.log2_x ? " (log2 scale)" : ""), "middle",
              " fill=\"#555\"");
  std::string ylab = c.y_label + (c.log_y ? " (log scale)" : "");
  out += "<text transform=\"translate(12 " + Num((ys.px_hi + plot_bottom) / 2) +
         ") rotate(-90)\" text-anchor=\"middle\" fill=\"#555\">" +
         Escape(ylab) + "</text>\n";

  for (size_t si = 0; si < c.series.size(); si++) {
    const LineSeries& s = c.series[si];
    std::string pts;
    for (const auto& [x, y] : s.points) {
      pts += (pts.empty() ? "" : " ") + Num(xpos(x)) + "," + Num(ys(y));
    }
    std::string color = SeriesColor(si);
    if (s.points.size() > 1) {
      out += "<polyline class=\"series\" fill=\"none\" stroke=\"" + color +
             "\" stroke-width=\"2\" points=\"" + pts + "\"/>\n";
    }
    for (const auto& [x, y] : s.points) {
      std::string tip =
          (s.name.empty() ? "" : s.name + ": ") + fx(x) + " → " + fy(y);
      out += "<circle cx=\"" + Num(xpos(x)) + "\" cy=\"" + Num(ys(y)) +
             "\" r=\"3.5\" fill=\"" + color + "\"><title>" + Escape(tip) +
             "</title></circle>\n";
    }
  }
  out += "</svg>\n";
  return out;
}

}  // namespace disktune::svg
