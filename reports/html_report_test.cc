// The HTML report and its SVG charts as text: self-contained, escaped,
// every picture present. (tests/html_render_test.cc opens it in Chromium.)
#include "reports/html_report.h"

#include <gtest/gtest.h>

#include <regex>

#include "reports/svg_chart.h"
#include "reports/test_util.h"

namespace disktune {
namespace {

using testing::CraftedReport;
using testing::ExpectHasAll;
using testing::ExpectHasNone;

int Count(const std::string& s, const std::string& needle) {
  int n = 0;
  for (size_t p = s.find(needle); p != std::string::npos;
       p = s.find(needle, p + 1))
    n++;
  return n;
}

TEST(SvgChartTest, EscapesText) {
  EXPECT_EQ(svg::Escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  svg::BarChart c;
  c.title = "<script>alert(1)</script>";
  c.categories = {"a&b"};
  c.series = {{"s\"1", {1.0}, {}}};
  std::string out = svg::RenderBarChart(c);
  EXPECT_EQ(out.find("<script>"), std::string::npos);
  EXPECT_NE(out.find("&lt;script&gt;"), std::string::npos);
  EXPECT_NE(out.find("a&amp;b"), std::string::npos);
}

// Every number in the output is finite and every size positive, whatever the
// data: empty charts, zeros, a single point, missing values.
void ExpectSaneSvg(const std::string& svg) {
  EXPECT_EQ(svg.find("nan"), std::string::npos) << svg;
  EXPECT_EQ(svg.find("inf"), std::string::npos) << svg;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      svg, m, std::regex(R"re(<svg[^>]* width="(\d+)" height="(\d+)")re")));
  EXPECT_GT(std::stoi(m[1]), 0);
  EXPECT_GT(std::stoi(m[2]), 0);
  static const std::regex kWidth(R"re(width="(-?[0-9.]+)")re");
  for (std::sregex_iterator it(svg.begin(), svg.end(), kWidth), end; it != end;
       ++it) {
    EXPECT_GT(std::stod((*it)[1]), 0) << svg;
  }
}

TEST(SvgChartTest, BarChartsStaySaneOnOddData) {
  svg::BarChart c;
  c.title = "odd";
  ExpectSaneSvg(svg::RenderBarChart(c));  // no categories
  c.categories = {"zero", "missing", "one"};
  c.series = {{"a", {0.0, std::nullopt, 1.0}, {}}};
  ExpectSaneSvg(svg::RenderBarChart(c));
  c.log_scale = true;
  ExpectSaneSvg(svg::RenderBarChart(c));
  c.series = {{"a", {std::nullopt, std::nullopt, std::nullopt}, {}}};
  ExpectSaneSvg(svg::RenderBarChart(c));
}

TEST(SvgChartTest, LineChartsStaySaneOnOddData) {
  svg::LineChart c;
  ExpectSaneSvg(svg::RenderLineChart(c));
  c.series = {{"one point", {{4, 0}}}};
  ExpectSaneSvg(svg::RenderLineChart(c));
  c.log2_x = true;
  c.log_y = true;
  ExpectSaneSvg(svg::RenderLineChart(c));
  c.series = {{"a", {{1, 10}, {2, 20}, {128, 2000}}},
              {"b", {{1, 5}, {64, 1e7}}}};
  std::string out = svg::RenderLineChart(c);
  ExpectSaneSvg(out);
  EXPECT_EQ(Count(out, "<circle"), 5);
  EXPECT_EQ(Count(out, "<polyline"), 2);
}

TEST(SvgChartTest, LogBarsFallBackToLinearOverANarrowRange) {
  svg::BarChart c;
  c.categories = {"a", "b"};
  c.series = {{"s", {10e6, 16e6}, {}}};
  c.log_scale = true;
  c.axis_label = "latency";
  EXPECT_EQ(svg::RenderBarChart(c).find("log scale"), std::string::npos);
  c.series = {{"s", {3e3, 16e6}, {}}};
  EXPECT_NE(svg::RenderBarChart(c).find("log scale"), std::string::npos);
}

TEST(HtmlReportTest, IsSelfContained) {
  std::string html = RenderHtml(CraftedReport());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  ExpectHasNone(html, {"<script", "<link", " src=", "url(", "@import"});
  // The only URL is the SVG namespace, which is a name, not a fetch.
  std::string stripped = std::regex_replace(
      html, std::regex("xmlns=\"http://www.w3.org/2000/svg\""), "");
  ExpectHasNone(stripped, {"http:", "https:"});
}

TEST(HtmlReportTest, HasEveryPicture) {
  std::string html = RenderHtml(CraftedReport());
  // One chart for the scenario set (every engine in it), 2 series charts,
  // seq reads, 2 rand read, 2 writes, fsync, 2 cache A/B, 2 filesystem.
  EXPECT_EQ(Count(html, "<svg "), 13);
  ExpectHasAll(
      html,
      {"id=\"setup\"", "id=\"recommendation\"", "id=\"benchmarks\"",
       "id=\"seq-read\"", "id=\"rand-read\"", "id=\"fsync\"",
       "id=\"write-cache\"", "id=\"fs-matrix\"", "id=\"durability\"",
       "id=\"environment\"", "id=\"figures\"", "id=\"warnings\"",
       "<td>write buffer</td><td>64 MiB</td>", ">FAIL</span> <b>etcd</b>"});
}

TEST(HtmlReportTest, EscapesEverythingFromTheReport) {
  Report r = CraftedReport();
  r.environment.system.hostname = "<img src=x onerror=alert(1)>";
  r.benches[0].engine = "lev<el>db";
  r.tune->verdict = "<b>\"x\" & 'y'";
  std::string html = RenderHtml(r);
  ExpectHasNone(html, {"<img", "lev<el>db", "<b>\""});
  ExpectHasAll(html, {"&lt;img src=x onerror=alert(1)&gt;",
                      "&lt;b&gt;&quot;x&quot; &amp; &#39;y&#39;"});
}

TEST(HtmlReportTest, AProbeOnlyReportSaysWhatWasNotMeasured) {
  Report r = CraftedReport();
  r.benches.clear();
  r.tune.reset();
  r.analyses.write_cache_ab.reset();
  r.analyses.fs_matrix.reset();
  std::string html = RenderHtml(r);
  ExpectHasNone(html, {"id=\"benchmarks\"", "id=\"recommendation\""});
  ExpectHasAll(html, {"--write-cache-ab", "--fs-matrix"});
}

TEST(HtmlReportTest, AnEmptyReportStillRenders) {
  Report r;
  std::string html = RenderHtml(r);
  EXPECT_NE(html.find("</html>"), std::string::npos);
  EXPECT_EQ(Count(html, "<svg "), 0);
}

}  // namespace
}  // namespace disktune
