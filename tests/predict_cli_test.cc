// `disktune predict` from a stored probe result, and the prediction's JSON
// against the schemas (predict.v1 and report.v1's bench prediction).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "reports/schema_validator.h"
#include "src/model/report.h"
#include "tests/binary_runner.h"

namespace disktune {
namespace {

using testing::RunDisktune;
using testing::SourceDir;

nlohmann::json Schema(const std::string& name) {
  std::ifstream in(SourceDir() + "/reports/schema/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return nlohmann::json::parse(ss.str());
}

std::string ProbeFile() {
  return SourceDir() + "/src/predict/testdata/probe_native.json";
}

TEST(PredictCli, FromAStoredProbeResultMatchesItsSchema) {
  auto r = RunDisktune({"predict", "--probe-result", ProbeFile(), "--engine",
                        "leveldb", "--num", "30000", "--json", "-", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  auto errors = ValidateAgainstSchema(Schema("predict.v1.schema.json"), j);
  EXPECT_TRUE(errors.empty()) << errors.front();
  // The disk figures come from the stored points, not from this machine.
  EXPECT_EQ(j["disk"]["probe_points"]["sync_ns"], "fsync.fdatasync.512.append");
  EXPECT_NEAR(j["disk"]["sync_latency_ns"].get<double>(), 105277.46, 0.01);
  bool fillsync = false;
  for (const auto& p : j["predictions"]) {
    if (p["scenario"] != "fillsync") continue;
    fillsync = true;
    // 1 / (sync + CPU): below the disk's own sync rate, bound by it.
    EXPECT_LT(p["prediction"]["ops_per_sec"].get<double>(), 1e9 / 105277.46);
    EXPECT_EQ(p["prediction"]["bound"], "sync_latency");
  }
  EXPECT_TRUE(fillsync);
}

TEST(PredictCli, RefusesMissingOrIncompleteInput) {
  auto none = RunDisktune({"predict", "--engine", "leveldb"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("--probe-result"), std::string::npos) << none.err;
  auto lmdb = RunDisktune(
      {"predict", "--probe-result", ProbeFile(), "--engine", "lmdb"});
  EXPECT_EQ(lmdb.exit_code, 2);
  EXPECT_NE(lmdb.err.find("no model"), std::string::npos) << lmdb.err;
  // A probe result without the sync point: refused, naming what to run.
  std::ifstream in(ProbeFile());
  auto j = nlohmann::json::parse(in);
  nlohmann::json kept = nlohmann::json::array();
  for (const auto& p : j["probes"]) {
    if (p["probe"] != "fsync") kept.push_back(p);
  }
  j["probes"] = kept;
  std::string path = ::testing::TempDir() + "/predict_no_sync.json";
  std::ofstream(path) << j.dump();
  auto lacking = RunDisktune({"predict", "--probe-result", path});
  EXPECT_EQ(lacking.exit_code, 2);
  EXPECT_NE(lacking.err.find("lacks what the model needs"), std::string::npos)
      << lacking.err;
  EXPECT_NE(lacking.err.find("disktune probe"), std::string::npos);
}

TEST(PredictJson, BenchPredictionMatchesTheReportSchema) {
  // A real result (the stored probe result) with one predicted figure added.
  auto stored = ReadReportFile(ProbeFile());
  ASSERT_TRUE(stored.ok()) << stored.status().ToString();
  Report r = *stored;
  bench::BenchResult b;
  b.engine = "leveldb";
  b.scenario = "fillsync";
  b.step = 1;
  b.metrics.ops = 1000;
  b.metrics.ops_per_sec = 9000;
  bench::Prediction p;
  p.ops_per_sec = 9300;
  p.bound = "sync_latency";
  p.ceilings_ops_per_sec = {{"cpu", 200000}, {"sync_latency", 9500}};
  p.inputs = {
      {"disk",
       {{"sync_latency_ns", 105000},
        {"read_latency_ns", 29000},
        {"seq_read_bytes_per_sec", 1e9},
        {"seq_write_bytes_per_sec", 2e9},
        {"probe_points", {{"sync_ns", "fsync.fdatasync.512.append"}}}}},
      {"engine", {{"cpu_ns_per_op", 5000}, {"cpu_calibrated_on", "cpu"}}},
      {"workload", nlohmann::json::object()},
      {"derived", nlohmann::json::object()}};
  p.measured_over_predicted = 9000.0 / 9300;
  b.prediction = p;
  r.benches.push_back(b);
  nlohmann::json j = ReportToJson(r);
  auto errors = ValidateAgainstSchema(Schema("report.v1.schema.json"), j);
  EXPECT_TRUE(errors.empty()) << errors.front();
  // Round trip.
  auto back = ReportFromJson(j);
  ASSERT_TRUE(back.ok());
  ASSERT_TRUE(back->benches[0].prediction);
  EXPECT_EQ(back->benches[0].prediction->bound, "sync_latency");
  EXPECT_EQ(back->benches[0].prediction->ceilings_ops_per_sec.size(), 2u);
  // A bound outside the six is refused by the schema.
  j["benches"][0]["prediction"]["bound"] = "disk";
  EXPECT_FALSE(
      ValidateAgainstSchema(Schema("report.v1.schema.json"), j).empty());
}

}  // namespace
}  // namespace disktune
