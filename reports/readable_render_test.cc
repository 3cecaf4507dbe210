// What a person reads, in every format (text, Markdown, HTML), whatever the
// figures: the verdict first and short, no flattened JSON ("key value, key
// value" lists), no internal names (durability rule ids, "evidence:" key
// lists), and no section printed twice.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>

#include "reports/html_report.h"
#include "reports/markdown_report.h"
#include "reports/summarize.h"
#include "reports/test_util.h"
#include "reports/text_report.h"
#include "src/model/durability_rules.h"

namespace disktune {
namespace {

using testing::CraftedReport;

void CollectKeys(const nlohmann::json& j, std::set<std::string>* keys) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      keys->insert(it.key());
      CollectKeys(*it, keys);
    }
  } else if (j.is_array()) {
    for (const auto& e : j) CollectKeys(e, keys);
  }
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

// A line is a flattened object when three ", "-separated pieces in a row
// each start with a key of the report's JSON followed by a space and a value:
// "name block cache, knob cache_bytes, changed true".
void ExpectNoKeyValueLists(const std::string& format, const std::string& text,
                           const std::set<std::string>& keys) {
  for (const std::string& line : Lines(text)) {
    size_t run = 0;
    size_t pos = 0;
    while (pos <= line.size()) {
      size_t end = line.find(", ", pos);
      std::string piece = line.substr(
          pos, end == std::string::npos ? std::string::npos : end - pos);
      // The first piece may follow a list dash or indentation.
      size_t lead = piece.find_first_not_of(" -");
      if (lead != std::string::npos) piece = piece.substr(lead);
      std::string word = piece.substr(0, piece.find(' '));
      bool kv = piece.find(' ') != std::string::npos && keys.count(word) &&
                word.size() > 2;
      run = kv ? run + 1 : 0;
      EXPECT_LT(run, 3u) << format << ": a key value list: " << line;
      if (run >= 3) return;
      if (end == std::string::npos) break;
      pos = end + 2;
    }
  }
}

TEST(ReadableRenderTest, NoFlattenedJsonInAnyFormat) {
  Report r = CraftedReport();
  std::set<std::string> keys;
  CollectKeys(ReportToJson(r), &keys);
  ExpectNoKeyValueLists("text", RenderText(r), keys);
  ExpectNoKeyValueLists("markdown", RenderMarkdown(r), keys);
  ExpectNoKeyValueLists("html", RenderHtml(r), keys);
}

// The detector itself: the line the issue quoted is caught.
TEST(ReadableRenderTest, TheDetectorCatchesAFlattenedObject) {
  std::set<std::string> keys = {"name", "knob", "changed", "default"};
  EXPECT_NONFATAL_FAILURE(
      ExpectNoKeyValueLists("text",
                            "  - name block cache, knob cache_bytes, changed "
                            "true, default 8388608\n",
                            keys),
      "a key value list");
}

TEST(ReadableRenderTest, NoInternalNamesWhereAPersonReads) {
  Report r = CraftedReport();
  for (const auto& [format, text] :
       std::vector<std::pair<std::string, std::string>>{
           {"text", RenderText(r)},
           {"markdown", RenderMarkdown(r)},
           {"html", RenderHtml(r)}}) {
    for (const DurabilityRule& rule : DurabilityRules()) {
      EXPECT_EQ(text.find(rule.id), std::string::npos)
          << format << " shows the rule id " << rule.id;
    }
    EXPECT_EQ(text.find("evidence:"), std::string::npos) << format;
    EXPECT_EQ(text.find("metrics.sync_latency_ns"), std::string::npos)
        << format;
  }
}

// Headings: text sections are lines "name:" at column 0; Markdown "### ";
// HTML <h2> and section ids. None twice.
TEST(ReadableRenderTest, NoSectionPrintedTwice) {
  Report r = CraftedReport();
  std::set<std::string> seen;
  for (const std::string& line : Lines(RenderText(r))) {
    if (line.empty() || line[0] == ' ' || line.back() != ':') continue;
    EXPECT_TRUE(seen.insert(line).second) << "text section twice: " << line;
  }
  seen.clear();
  for (const std::string& line : Lines(RenderMarkdown(r))) {
    if (line.rfind("##", 0) != 0) continue;
    EXPECT_TRUE(seen.insert(line).second) << "markdown heading twice: " << line;
  }
  seen.clear();
  std::string html = RenderHtml(r);
  std::regex heading("<h2>([^<]*)</h2>|id=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), heading);
       it != std::sregex_iterator(); ++it) {
    EXPECT_TRUE(seen.insert((*it)[0]).second)
        << "html heading twice: " << (*it)[0];
  }
  // The db_bench lines and the tuner's explanation, once each.
  std::string text = RenderText(r);
  for (const std::string& line : Lines(text)) {
    if (line.find("micros/op;") == std::string::npos) continue;
    EXPECT_EQ(text.find(line), text.rfind(line)) << "twice: " << line;
  }
}

TEST(ReadableRenderTest, EveryFormatOpensWithTheVerdict) {
  Report r = CraftedReport();
  std::string text = RenderText(r);
  EXPECT_EQ(text.rfind("verdict:", 0), 0u) << text.substr(0, 200);
  std::string summary = SummaryText(SummaryOf(r));
  EXPECT_LE(Lines(summary).size(), 8u) << summary;
  EXPECT_EQ(text.find(summary), 0u);
  std::string md = RenderMarkdown(r);
  EXPECT_LT(md.find("### Verdict"), md.find("### Environment"));
  std::string html = RenderHtml(r);
  EXPECT_LT(html.find("id=\"verdict\""), html.find("id=\"setup\""));
  // The three formats carry the same headline.
  Summary s = SummaryOf(r);
  EXPECT_NE(md.find(s.headline), std::string::npos);
  EXPECT_NE(html.find(s.headline), std::string::npos);
}

}  // namespace
}  // namespace disktune
