// `disktune fleet` predicting each host's LevelDB figures from its probes
// alone, over copies of the stored probe result in src/predict/testdata: one
// as stored, one whose fdatasync is 10x slower, one without the fsync
// points. Every format shows the figures and their bounds, the host without
// sync points says what it lacks, the JSON matches its schema, and the
// figures are `disktune predict`'s.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "reports/schema_validator.h"
#include "tests/binary_runner.h"
#include "tests/test_support.h"

namespace disktune::testing {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

// Small enough that the one in-memory calibration takes about a second.
constexpr const char* kNum = "20000";

class FleetPredictCliTest : public WorkDirTest {
 protected:
  FleetPredictCliTest() : WorkDirTest("fleet_predict_") {}
  void SetUp() override {
    WorkDirTest::SetUp();
    json stored = json::parse(
        ReadFile(SourceDir() + "/src/predict/testdata/probe_native.json"));
    fs::create_directory(work_ + "/results");
    for (const char* h : {"db-a", "db-slowsync", "db-nosync"}) {
      json j = stored;
      j["environment"]["hostname"] = h;
      json kept = json::array();
      for (json& p : j["probes"]) {
        bool fsync = p["probe"] == "fsync";
        if (fsync && std::string(h) == "db-nosync") continue;
        if (fsync && std::string(h) == "db-slowsync") {
          for (auto& [k, v] : p["latency_ns"].items()) {
            if (k != "samples" && v.is_number()) v = v.get<double>() * 10;
          }
          if (p.contains("ops_per_sec")) {
            p["ops_per_sec"] = p["ops_per_sec"].get<double>() / 10;
          }
        }
        kept.push_back(p);
      }
      j["probes"] = kept;
      std::ofstream(work_ + "/results/" + h + ".json") << j.dump();
    }
  }

  static const json& HostOf(const json& fleet, const std::string& host) {
    for (const json& h : fleet["hosts"]) {
      if (h["host"] == host) return h;
    }
    ADD_FAILURE() << "no host " << host;
    static const json none;
    return none;
  }
};

TEST_F(FleetPredictCliTest, EveryHostPredictedOrToldWhatItLacks) {
  RunOutput r =
      RunDisktune({"fleet", "results", "--num", kNum, "--json", "fleet.json",
                   "--html", "fleet.html", "--prometheus", "fleet.prom"},
                  work_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(ReadFile(work_ + "/fleet.json"));
  json schema = json::parse(
      ReadFile(SourceDir() + "/reports/schema/fleet.v1.schema.json"));
  auto errors = ValidateAgainstSchema(schema, j);
  EXPECT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
  EXPECT_EQ(j["schema_version"], "1.1");
  ASSERT_TRUE(j.contains("prediction"));
  EXPECT_EQ(j["prediction"]["engines"], json::array({"leveldb"}));
  EXPECT_EQ(j["prediction"]["num"], 20000);
  EXPECT_FALSE(j["prediction"]["cpu_calibrated_on"].get<std::string>().empty());

  // The stored disk: fillsync bound by its 105 us fdatasync, below the
  // disk's own sync rate; every figure of the three present with a bound.
  const json& a = HostOf(j, "db-a")["predictions"][0];
  ASSERT_TRUE(a.contains("figures")) << a;
  for (const char* s : {"fillsync", "fillrandom", "readrandom-cold"}) {
    ASSERT_TRUE(a["figures"].contains(s)) << s << " " << a;
    EXPECT_GT(a["figures"][s]["ops_per_sec"].get<double>(), 0) << s;
    EXPECT_TRUE(a["figures"][s]["bound"].is_string()) << s;
  }
  double sync_a = a["figures"]["fillsync"]["ops_per_sec"];
  EXPECT_EQ(a["figures"]["fillsync"]["bound"], "sync_latency");
  EXPECT_LT(sync_a, 1e9 / 105277.46);
  // Ten times the fdatasync time: a tenth of the commits, same bound.
  const json& slow = HostOf(j, "db-slowsync")["predictions"][0];
  ASSERT_TRUE(slow.contains("figures")) << slow;
  double sync_slow = slow["figures"]["fillsync"]["ops_per_sec"];
  EXPECT_EQ(slow["figures"]["fillsync"]["bound"], "sync_latency");
  EXPECT_NEAR(sync_a / sync_slow, 10, 1.5);
  // No sync points: named, not dropped.
  const json& nosync = HostOf(j, "db-nosync")["predictions"][0];
  EXPECT_FALSE(nosync.contains("figures")) << nosync;
  EXPECT_EQ(nosync["missing_probe_figures"],
            json::array({"an fsync fdatasync append point"}));

  EXPECT_NE(r.out.find("leveldb fillsync"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("/s sync_latency"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("db-nosync: not predicted: missing an fsync fdatasync "
                       "append point"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("is this machine's"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("disktune probe --quick"), std::string::npos);
  std::string html = ReadFile(work_ + "/fleet.html");
  EXPECT_NE(html.find("Predicted engine figures"), std::string::npos);
  EXPECT_NE(html.find("<small>sync_latency</small>"), std::string::npos);
  EXPECT_NE(html.find("not predicted: missing an fsync"), std::string::npos);
  std::string prom = ReadFile(work_ + "/fleet.prom");
  EXPECT_NE(prom.find("disktune_fleet_predicted_ops_per_sec{host=\"db-a\""),
            std::string::npos)
      << prom;
  // Predictions are shown, not judged: none is a figure of the rule.
  for (const json& f : j["figures"]) {
    EXPECT_EQ(f["id"].get<std::string>().find("fillsync"), std::string::npos);
  }

  // The same model as `disktune predict` on the same file (the CPU part is
  // timed afresh, so within a margin).
  RunOutput p = RunDisktune(
      {"predict", "--probe-result", work_ + "/results/db-a.json", "--num", kNum,
       "--scenario", "fillsync", "--json", "-", "--quiet"},
      work_);
  ASSERT_EQ(p.exit_code, 0) << p.err;
  json pj = json::parse(p.out);
  ASSERT_EQ(pj["predictions"].size(), 1u);
  double predicted = pj["predictions"][0]["prediction"]["ops_per_sec"];
  EXPECT_NEAR(sync_a / predicted, 1, 0.15);
}

TEST_F(FleetPredictCliTest, NoPredictAndBadEngine) {
  RunOutput r =
      RunDisktune({"fleet", "results", "--no-predict", "--json", "-"}, work_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_FALSE(j.contains("prediction"));
  EXPECT_FALSE(j["hosts"][0].contains("predictions"));
  RunOutput bad = RunDisktune({"fleet", "results", "--engine", "lmdb"}, work_);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(CountLines(bad.err), 1) << bad.err;
  EXPECT_NE(bad.err.find("no model"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace disktune::testing
