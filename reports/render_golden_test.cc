// Golden files for the text, Markdown and Prometheus renderings of the
// crafted report (reports/testdata/crafted_report.json), and the properties
// each format must keep whatever the figures.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>

#include "reports/markdown_report.h"
#include "reports/prometheus_report.h"
#include "reports/schema_validator.h"
#include "reports/test_util.h"
#include "reports/text_report.h"

namespace disktune {
namespace {

using testing::CraftedReport;
using testing::ExpectGolden;
using testing::ExpectHasAll;
using testing::ExpectHasNone;
using testing::ReadFileOrEmpty;
using testing::TestdataPath;

TEST(CraftedReportTest, ValidatesAgainstTheSchemaAndRoundTrips) {
  nlohmann::json schema = nlohmann::json::parse(
      ReadFileOrEmpty(std::string(DISKTUNE_TEST_SOURCE_DIR) +
                      "/reports/schema/report.v1.schema.json"));
  nlohmann::json doc = nlohmann::json::parse(
      ReadFileOrEmpty(TestdataPath("crafted_report.json")));
  std::vector<std::string> errors = ValidateAgainstSchema(schema, doc);
  EXPECT_TRUE(errors.empty()) << errors.front();
  Report r = CraftedReport();
  // The crafted file is what ReportToJson writes, so the golden outputs are
  // those of a real report.
  nlohmann::json patch = nlohmann::json::diff(doc, ReportToJson(r));
  EXPECT_TRUE(patch.empty()) << patch.dump().substr(0, 2000);
  EXPECT_TRUE(r.tune.has_value());
}

TEST(TextReportTest, Golden) {
  ExpectGolden("crafted_report.txt", RenderText(CraftedReport()));
}

TEST(TextReportTest, DbBenchLinesAndTables) {
  std::string t = RenderText(CraftedReport());
  ExpectHasAll(t, {"fillseq      :       1.284 micros/op;   86.2 MB/s",
                   "readrandom#2", "sync point", "recommendation:"});
}

TEST(TextReportTest, WithoutOptionalSectionsPrintsNoneOfThem) {
  Report r = CraftedReport();
  r.benches.clear();
  r.tune.reset();
  r.probes.clear();
  r.analyses = model::Analyses{};
  std::string t = RenderText(r);
  ExpectHasNone(
      t, {"benchmarks", "recommendation", "sync point", "\ndurability:\n"});
}

TEST(TextReportTest, UnknownAnalysesAreShown) {
  Report r = CraftedReport();
  r.analyses.unknown["new_probe_finding"] = {{"answer_bytes", 4096}};
  std::string t = RenderText(r);
  EXPECT_NE(t.find("new_probe_finding:\n  answer: 4 KiB"), std::string::npos)
      << t;
}

TEST(MarkdownReportTest, Golden) {
  ExpectGolden("crafted_report.md", RenderMarkdown(CraftedReport()));
}

TEST(MarkdownReportTest, CellsCannotBreakTables) {
  Report r = CraftedReport();
  r.probes[0].status = ProbeStatus::kSkipped;
  r.probes[0].reason = "a | pipe\nand a <b>tag</b>";
  std::string md = RenderMarkdown(r);
  EXPECT_NE(md.find("a \\| pipe and a &lt;b&gt;tag&lt;/b&gt;"),
            std::string::npos)
      << md;
  // Every table row has as many cells as its header.
  std::istringstream in(md);
  std::string line;
  int cols = -1;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] != '|') {
      cols = -1;
      continue;
    }
    int n = 0;
    for (size_t i = 0; i < line.size(); i++)
      n += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
    if (cols < 0) cols = n;
    EXPECT_EQ(n, cols) << line;
  }
}

TEST(PrometheusReportTest, Golden) {
  ExpectGolden("crafted_report.prom", RenderPrometheus(CraftedReport()));
}

// The text exposition format as node_exporter's textfile collector parses
// it: HELP and TYPE once per family before its samples, samples of one
// family together, valid names, escaped label values, no duplicate series.
void ExpectValidExposition(const std::string& text) {
  static const std::regex kSample(
      R"re(^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\["\\n])*")(,[a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\["\\n])*")*\})? ([-+]?([0-9.]+([eE][-+]?[0-9]+)?|Inf|NaN))$)re");
  static const std::regex kHelp(
      R"re(^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) .+$)re");
  static const std::regex kType(
      R"re(^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (gauge|counter|summary|histogram|untyped)$)re");
  std::istringstream in(text);
  std::string line, family, type;
  std::set<std::string> families_seen, series_seen;
  int n = 0;
  while (std::getline(in, line)) {
    n++;
    std::smatch m;
    if (std::regex_match(line, m, kHelp)) {
      ASSERT_TRUE(families_seen.insert(m[1]).second)
          << "family twice: " << line;
      family = m[1];
      continue;
    }
    if (std::regex_match(line, m, kType)) {
      ASSERT_EQ(m[1], family) << "TYPE without its HELP: " << line;
      type = m[2];
      continue;
    }
    ASSERT_TRUE(std::regex_match(line, m, kSample))
        << "line " << n << ": " << line;
    std::string name = m[1];
    bool ok = name == family ||
              (type == "summary" &&
               (name == family + "_sum" || name == family + "_count"));
    EXPECT_TRUE(ok) << "sample outside its family " << family << ": " << line;
    std::string series = line.substr(0, line.rfind(' '));
    EXPECT_TRUE(series_seen.insert(series).second)
        << "duplicate series: " << series;
    EXPECT_EQ(name.find("disktune_"), 0u) << line;
  }
  EXPECT_GT(n, 10);
  EXPECT_EQ(text.back(), '\n');
}

TEST(PrometheusReportTest, IsValidExposition) {
  ExpectValidExposition(RenderPrometheus(CraftedReport()));
}

TEST(PrometheusReportTest, EscapesLabelValues) {
  EXPECT_EQ(PrometheusLabelValue("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
  Report r = CraftedReport();
  r.environment.system.hostname = "evil\"host\\\nname";
  std::string text = RenderPrometheus(r);
  EXPECT_NE(text.find("host=\"evil\\\"host\\\\\\nname\""), std::string::npos);
  ExpectValidExposition(text);
}

TEST(PrometheusReportTest, NamesCarryUnitsAndTheAskedLabels) {
  std::string text = RenderPrometheus(CraftedReport());
  EXPECT_NE(text.find("disktune_probe_iops{device=\"sda\",probe=\"rand_read\","
                      "name=\"rand_read.4k.qd32\"} 395"),
            std::string::npos);
  EXPECT_NE(
      text.find(
          "disktune_probe_latency_seconds{device=\"sda\",probe=\"fsync\",name="
          "\"fsync.fdatasync.2300.append\",quantile=\"0.99\"} 0.036"),
      std::string::npos);
  EXPECT_NE(text.find("disktune_bench_ops_per_second{device=\"sda\",engine="
                      "\"leveldb\",scenario=\"fillseq\",step=\"1\"} 779000"),
            std::string::npos);
  EXPECT_NE(text.find("disktune_check_pass{device=\"sda\",check=\"etcd\"} 0"),
            std::string::npos);
}

}  // namespace
}  // namespace disktune
