// A small inline-SVG chart builder for the HTML report: horizontal bar charts
// (grouped, optionally log-scaled, with min..max whiskers) and line charts
// (log2 x for queue depths, log y for latencies). Output is a standalone
// <svg> element with explicit width/height and a viewBox, no scripts, no
// external references; every piece of text is escaped.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace disktune::svg {

// Escapes & < > " ' for use in XML/HTML text and attribute values.
std::string Escape(std::string_view text);

// The colour of series `i` (a palette that stays readable in print).
std::string SeriesColor(size_t i);

struct Range {
  double low = 0;
  double high = 0;
};

struct BarSeries {
  std::string name;
  // One per category; nullopt draws "not measured".
  std::vector<std::optional<double>> values;
  // Optional whiskers (the spread of repeats), one per category or empty.
  std::vector<std::optional<Range>> ranges;
};

struct BarChart {
  std::string title;
  std::string axis_label;               // under the value axis: "ops/sec"
  std::vector<std::string> categories;  // one group of bars per category
  std::vector<BarSeries> series;  // bars within a group; a legend when > 1
  bool log_scale = false;  // for latencies spanning decades (2 us .. 10 ms)
  // Value labels at the bar ends (and the ticks, without tick_format).
  std::function<std::string(double)> format;
  // Axis ticks: shorter, the unit is in axis_label ("200", "1 ms").
  std::function<std::string(double)> tick_format;
  int width = 720;
};
std::string RenderBarChart(const BarChart& chart);

struct LineSeries {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y), in x order
};

struct LineChart {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::vector<LineSeries> series;
  bool log2_x = false;  // queue depths 1, 2, 4 ... 128
  bool log_y = false;
  std::function<std::string(double)> format_x;
  std::function<std::string(double)> format_y;
  int width = 560;
  int height = 320;
};
std::string RenderLineChart(const LineChart& chart);

}  // namespace disktune::svg
