// The report-side analyses survive to_json / from_json, and the durability
// text renders from the typed analyses.
#include <gtest/gtest.h>

#include <sstream>

#include "reports/durability_text.h"
#include "reports/findings_2011.h"
#include "src/model/analysis_bytes_written.h"
#include "src/model/durability_evidence_for_test.h"

namespace disktune {
namespace {

TEST(AnalysesRenderTest, BytesWrittenRoundTrip) {
  BytesWritten b;
  b.process_bytes = 1 << 20;
  b.disk = "sda";
  b.disk_bytes = 3 << 20;
  nlohmann::json j = b;
  EXPECT_EQ(nlohmann::json(j.get<BytesWritten>()), j);
  // Without the disk's count, neither disk nor disk_bytes is written.
  BytesWritten p;
  p.process_bytes = 5;
  nlohmann::json pj = p;
  EXPECT_FALSE(pj.contains("disk"));
  EXPECT_EQ(pj["rule"], BytesWritten::kRule);
  auto back = model::AnalysesFromJson({{"bytes_written", pj}})->bytes_written;
  ASSERT_TRUE(back);
  EXPECT_EQ(back->process_bytes, 5u);
  EXPECT_FALSE(back->disk_bytes);
}

TEST(AnalysesRenderTest, Findings2011RoundTrip) {
  Findings2011Check c;
  c.source = "the page";
  c.rule = "same side of 1";
  c.summary = "1 of 1 measured findings still hold";
  c.findings.push_back({"a is faster", "a / b", 1.5, 2.0, "still holds"});
  c.findings.push_back({"c is faster", "c / d", 0.5, {}, "not measured"});
  nlohmann::json j = c;
  EXPECT_EQ(nlohmann::json(j.get<Findings2011Check>()), j);
  EXPECT_FALSE(j["findings"][1].contains("ratio_measured"));
  auto back = model::AnalysesFromJson({{"leveldb_2011", j}})->leveldb_2011;
  ASSERT_TRUE(back);
  EXPECT_EQ(back->findings.size(), 2u);
}

TEST(AnalysesRenderTest, DurabilityTextFromTypedAnalyses) {
  DurabilityAnalyses a;
  std::ostringstream none;
  RenderDurabilityText(a, none);
  EXPECT_EQ(none.str(), "");

  DurabilityEvidence e = testing::Evidence(std::nullopt, "", 100, 100, 2000000);
  a.findings = DurabilityFindings{
      {}, {{e.scope, e.disk, {"flushes_reach_device", "rule text"}, e}}};
  NamedCheck etcd;
  etcd.value_ns = 3000000;
  etcd.threshold_ns = 10000000;
  etcd.verdict = "pass";
  etcd.pass = true;
  a.checks["etcd"] = etcd;
  std::ostringstream os;
  RenderDurabilityText(a, os);
  const std::string out = os.str();
  // Sentences for a person: no internal verdict ids.
  EXPECT_NE(out.find("scratch directory (sda): flushes reach stable storage"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("flushes_reach_device"), std::string::npos) << out;
  EXPECT_NE(out.find("completed 1.00 flushes per sync"), std::string::npos)
      << out;
  EXPECT_NE(out.find("etcd check: PASS"), std::string::npos) << out;
  EXPECT_NE(out.find("(limit 10.00 ms)"), std::string::npos) << out;
  EXPECT_NE(out.find("PASS"), std::string::npos) << out;

  // The same from a report's analyses.
  model::Analyses typed;
  typed.durability = *a.findings;
  typed.PutCheck("etcd", etcd);
  std::ostringstream from_report;
  RenderDurabilityText(typed, from_report);
  EXPECT_EQ(from_report.str(), out);
}

}  // namespace
}  // namespace disktune
