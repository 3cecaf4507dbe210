// The registry of analyses against the schema's analyses section, and each
// kind's typed read against the crafted report.
#include "reports/analysis_registry.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "reports/findings_2011.h"
#include "reports/html_report.h"
#include "reports/markdown_report.h"
#include "reports/test_util.h"
#include "reports/text_report.h"

namespace disktune {
namespace {

using testing::ReadFileOrEmpty;
using testing::TestdataPath;

std::set<std::string> SchemaKeys() {
  nlohmann::json schema = nlohmann::json::parse(
      ReadFileOrEmpty(std::string(DISKTUNE_TEST_SOURCE_DIR) +
                      "/reports/schema/report.v1.schema.json"));
  std::set<std::string> keys;
  for (const auto& [key, v] :
       schema["definitions"]["analyses"]["properties"].items()) {
    keys.insert(key);
  }
  return keys;
}

std::set<std::string> RegistryKeys() {
  std::set<std::string> keys;
  for (const AnalysisKind& k : AnalysisKinds()) keys.insert(k.key);
  return keys;
}

TEST(AnalysisRegistryTest, EverySchemaKeyIsAKindAndEveryKindIsInTheSchema) {
  const std::set<std::string> schema = SchemaKeys();
  const std::set<std::string> registry = RegistryKeys();
  ASSERT_FALSE(schema.empty());
  for (const std::string& k : schema) {
    EXPECT_TRUE(registry.count(k))
        << "schema key '" << k << "' has no row in analysis_registry.cc";
  }
  for (const std::string& k : registry) {
    EXPECT_TRUE(schema.count(k))
        << "kind '" << k << "' is not in the schema's analyses section";
  }
}

TEST(AnalysisRegistryTest, KeysAreUniqueAndFoundByKeyAndId) {
  EXPECT_EQ(RegistryKeys().size(), AnalysisKinds().size());
  for (const AnalysisKind& k : AnalysisKinds()) {
    EXPECT_EQ(FindAnalysisKind(k.key), &k);
    EXPECT_EQ(&KindOf(k.id), &k);
    EXPECT_NE(std::string(k.header), "");
    EXPECT_NE(std::string(k.writer), "");
  }
  EXPECT_EQ(FindAnalysisKind("new_probe_finding"), nullptr);
}

// Each kind the crafted report carries reads as its struct and is present;
// the same key holding another shape is an error naming it.
TEST(AnalysisRegistryTest, EachKindReadsItsOwnShapeOnly) {
  Result<Report> r = ReadReportFile(TestdataPath("crafted_report.json"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  int carried = 0;
  const nlohmann::json written = model::AnalysesToJson(r->analyses);
  for (const AnalysisKind& k : AnalysisKinds()) {
    const bool in_report = written.contains(k.key);
    EXPECT_EQ(k.present(r->analyses), in_report) << k.key;
    if (!in_report) continue;
    carried++;
    nlohmann::json wrong = written;
    wrong[k.key] = "not an analysis";
    Result<model::Analyses> read = model::AnalysesFromJson(wrong);
    ASSERT_FALSE(read.ok()) << k.key;
    EXPECT_NE(read.status().message().find(std::string("analyses.") + k.key),
              std::string::npos)
        << read.status().message();
  }
  EXPECT_GE(carried, 7);
  EXPECT_FALSE(KindOf(AnalysisId::kBytesWritten).present(r->analyses));
}

// A key no kind describes, and a kind marked as_written (the 2011
// findings), are shown as written by the text, Markdown and HTML reports; a
// kind with words of its own is not shown as written.
TEST(AnalysisRegistryTest, EveryHumanFormatShowsWhatNoKindDescribes) {
  EXPECT_TRUE(SaidAsWritten("new_probe_finding"));
  EXPECT_TRUE(SaidAsWritten(Findings2011Check::kKey));
  EXPECT_FALSE(SaidAsWritten("rand_read_saturation"));
  Result<Report> r = ReadReportFile(TestdataPath("crafted_report.json"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  Findings2011Check c;
  c.source = "the 2011 page";
  c.summary = "1 of 1 measured findings still hold";
  c.findings.push_back({"a is faster", "a / b", 1.5, 2.0, "still holds"});
  r->analyses.leveldb_2011 = c;
  r->analyses.unknown["new_probe_finding"] = {{"answer_bytes", 4096}};
  const std::string text = RenderText(*r);
  const std::string md = RenderMarkdown(*r);
  const std::string html = RenderHtml(*r);
  for (const std::string* out : {&text, &md, &html}) {
    EXPECT_NE(out->find("new_probe_finding"), std::string::npos) << *out;
    EXPECT_NE(out->find("leveldb_2011"), std::string::npos) << *out;
    EXPECT_NE(out->find("1 of 1 measured findings still hold"),
              std::string::npos)
        << *out;
    EXPECT_EQ(out->find("rand_read_saturation"), std::string::npos) << *out;
  }
}

}  // namespace
}  // namespace disktune
