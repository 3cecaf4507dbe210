// The report's tune member: typed at the boundary (ReportFromJson reads the
// tuner's object into model::TuneSummary), results written by earlier 1.x
// versions still read, and a tune object without the tuner's shape is
// Corruption in one line naming the member.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "src/model/report.h"

namespace disktune {
namespace {

nlohmann::json ParseFile(const std::string& path_in_source) {
  std::ifstream in(std::string(DISKTUNE_TEST_SOURCE_DIR) + path_in_source);
  return nlohmann::json::parse(in);
}

nlohmann::json Crafted() {
  return ParseFile("/reports/testdata/crafted_report.json");
}

TEST(ReportTuneTest, ReadsTheTunersObjectAsTheStructAndWritesItBack) {
  const nlohmann::json doc = Crafted();
  Result<Report> r = ReportFromJson(doc);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->tune.has_value());
  EXPECT_EQ(r->tune->engine, doc["tune"]["engine"]);
  EXPECT_EQ(r->tune->recommendation.options.size(),
            doc["tune"]["recommendation"]["options"].size());
  EXPECT_EQ(ReportToJson(*r)["tune"], doc["tune"]);
}

// tests/readme/run-quick.json is a `run --quick` result of schema 1.2.
TEST(ReportTuneTest, AResultOfSchema1_2StillReads) {
  const nlohmann::json doc = ParseFile("/tests/readme/run-quick.json");
  ASSERT_EQ(doc["schema_version"], "1.2");
  Result<Report> r = ReportFromJson(doc);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->tune.has_value());
  EXPECT_FALSE(r->tune->verdict.empty());
  EXPECT_EQ(ReportToJson(*r)["tune"], doc["tune"]);
}

TEST(ReportTuneTest, NoTuneObjectOrNullIsUnset) {
  nlohmann::json doc = Crafted();
  doc.erase("tune");
  Result<Report> r = ReportFromJson(doc);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FALSE(r->tune.has_value());
  EXPECT_FALSE(ReportToJson(*r).contains("tune"));
  doc["tune"] = nullptr;
  r = ReportFromJson(doc);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FALSE(r->tune.has_value());
}

TEST(ReportTuneTest, AMalformedTuneObjectIsCorruptionNamingTheMember) {
  struct Case {
    const char* pointer;
    nlohmann::json value;
    const char* names;
  };
  const Case cases[] = {
      {"/tune", "a string", "tune is not an object"},
      {"/tune/verdict", 3, "tune.verdict is not a string"},
      {"/tune/recommendation/options/0/verdict", "wonn",
       "tune.recommendation.options[0].verdict names no outcome: wonn"},
      {"/tune/memory_budget_bytes", -1,
       "tune.memory_budget_bytes is not a non-negative integer"},
  };
  for (const Case& c : cases) {
    nlohmann::json doc = Crafted();
    doc[nlohmann::json::json_pointer(c.pointer)] = c.value;
    Result<Report> r = ReportFromJson(doc);
    ASSERT_FALSE(r.ok()) << c.pointer;
    EXPECT_EQ(r.status().code(), Status::Code::kCorruption) << c.pointer;
    const std::string m = r.status().message();
    EXPECT_NE(m.find(c.names), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
  nlohmann::json doc = Crafted();
  doc["tune"].erase("engine");
  Result<Report> r = ReportFromJson(doc);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("tune.engine is missing"),
            std::string::npos)
      << r.status().message();
}

}  // namespace
}  // namespace disktune
