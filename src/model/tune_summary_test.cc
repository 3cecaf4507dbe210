#include "src/model/tune_summary.h"

#include <gtest/gtest.h>

#include <fstream>

namespace disktune::model {
namespace {

using json = nlohmann::json;

json CraftedTune() {
  std::ifstream in(std::string(DISKTUNE_TEST_SOURCE_DIR) +
                   "/reports/testdata/crafted_report.json");
  return json::parse(in)["tune"];
}

TEST(TuneSummaryTest, ReadsTheCraftedReportsTuneObject) {
  Result<TuneSummary> t = TuneSummaryFromJson(CraftedTune());
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->engine, "leveldb");
  EXPECT_EQ(t->memory_budget_bytes, 134217728u);
  ASSERT_EQ(t->recommendation.options.size(), 7u);
  EXPECT_EQ(t->recommendation.options[0].outcome, KnobOutcome::kBudget);
  EXPECT_EQ(t->recommendation.options[1].outcome, KnobOutcome::kWon);
  ASSERT_TRUE(t->recommendation.options[1].gain.has_value());
  EXPECT_DOUBLE_EQ(t->recommendation.options[1].gain->ci95_high, 2.4);
  ASSERT_TRUE(t->evidence.has_value());
  ASSERT_EQ(t->evidence->knobs.size(), 7u);
  EXPECT_EQ(t->evidence->knobs[2].outcome, KnobOutcome::kNoGain);
  EXPECT_EQ(t->evidence->knobs[2].searched, "none");
  ASSERT_TRUE(t->evidence->verification.has_value());
  EXPECT_TRUE(t->evidence->verification->significant);
  EXPECT_EQ(t->evidence->verification->gain.repeats, 3);
  ASSERT_TRUE(t->evidence->search.has_value());
  EXPECT_EQ(t->evidence->search->trials, 21);
  EXPECT_EQ(t->evidence->search->method, "successive_halving");
  EXPECT_FALSE(t->evidence->other.contains("search"));
  EXPECT_TRUE(t->evidence->other.contains("baseline"));
  EXPECT_FALSE(t->evidence->other.contains("knobs"));
}

TEST(TuneSummaryTest, WritesWhatItReads) {
  json in = CraftedTune();
  // The crafted file states an empty reason; the writer leaves it out.
  for (json& o : in["recommendation"]["options"]) {
    if (o.value("reason", "x").empty()) o.erase("reason");
  }
  for (json& k : in["evidence"]["knobs"]) {
    if (k.value("reason", "x").empty()) k.erase("reason");
  }
  Result<TuneSummary> t = TuneSummaryFromJson(in);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  // Equal as JSON values: the crafted file writes some ops/s as integers.
  EXPECT_EQ(TuneSummaryToJson(*t), in);
}

TEST(TuneSummaryTest, ReadsAnOlderTunersWonJointlyAsWon) {
  json in = CraftedTune();
  in["evidence"]["knobs"][0]["status"] = "won_jointly";
  in["recommendation"]["options"][1]["verdict"] = "won_jointly";
  Result<TuneSummary> t = TuneSummaryFromJson(in);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->evidence->knobs[0].outcome, KnobOutcome::kWon);
  EXPECT_EQ(t->recommendation.options[1].outcome, KnobOutcome::kWon);
  // Written back, it is the one name this version writes.
  EXPECT_EQ(TuneSummaryToJson(*t)["evidence"]["knobs"][0]["status"], "won");
}

TEST(TuneSummaryTest, ABadMemberIsNamed) {
  json in = CraftedTune();
  in["evidence"]["knobs"][3]["status"] = "great";
  Result<TuneSummary> t = TuneSummaryFromJson(in);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), Status::Code::kCorruption)
      << t.status().ToString();
  EXPECT_NE(t.status().message().find("tune.evidence.knobs[3].status"),
            std::string::npos)
      << t.status().message();

  in = CraftedTune();
  in["recommendation"].erase("memory");
  t = TuneSummaryFromJson(in);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("tune.recommendation.memory is missing"),
            std::string::npos)
      << t.status().message();

  in = CraftedTune();
  in["memory_budget_bytes"] = "128 MiB";
  t = TuneSummaryFromJson(in);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("tune.memory_budget_bytes"),
            std::string::npos)
      << t.status().message();
}

TEST(KnobOutcomeTest, EveryOutcomeParsesBackFromItsName) {
  for (const auto& n : kKnobOutcomeNames) {
    EXPECT_EQ(ParseKnobOutcome(KnobOutcomeName(n.value)), n.value) << n.name;
  }
  for (const auto& n : kKnobProofNames) {
    EXPECT_EQ(ParseKnobProof(KnobProofName(n.value)), n.value) << n.name;
  }
  EXPECT_EQ(ParseKnobOutcome("won_with_others"), std::nullopt);
}

}  // namespace
}  // namespace disktune::model
