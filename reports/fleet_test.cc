#include "reports/fleet.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "reports/fleet_render.h"
#include "reports/schema_validator.h"
#include "reports/test_util.h"

namespace disktune {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

// The crafted report as host `name` with device `model`: every latency of
// the fdatasync append point scaled by `fsync_factor`, and the 4 KiB QD1
// read p50 by `read_factor` (a host's ordinary spread).
FleetInput Host(const std::string& name, const std::string& model,
                double fsync_factor = 1, double read_factor = 1) {
  json j = ReportToJson(testing::CraftedReport());
  j["environment"]["hostname"] = name;
  j["environment"]["device"]["model"] = model;
  for (json& p : j["probes"]) {
    double f = p["name"] == "fsync.fdatasync.2300.append" ? fsync_factor
               : p["name"] == "rand_read.4k.qd1"          ? read_factor
                                                          : 1;
    if (f == 1 || !p.contains("latency_ns")) continue;
    for (auto& [k, v] : p["latency_ns"].items()) {
      if (k != "samples" && v.is_number()) v = v.get<double>() * f;
    }
  }
  Result<Report> r = ReportFromJson(j);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return {"results/" + name + ".json", r.ok() ? *r : Report{}};
}

size_t FigureIndex(const FleetReport& f, const std::string& id) {
  for (size_t i = 0; i < f.figures.size(); i++) {
    if (f.figures[i].id == id) return i;
  }
  ADD_FAILURE() << "no figure " << id;
  return 0;
}

TEST(FleetTest, MedianOfOddAndEvenCounts) {
  EXPECT_EQ(*Median({3, 1, 2}), 2);
  EXPECT_EQ(*Median({4, 1, 3, 2}), 2.5);
  EXPECT_FALSE(Median({}).has_value());
}

TEST(FleetTest, FlagsExactlyTheSlowHostWithMadsAndRatio) {
  std::vector<FleetInput> in = {
      Host("a", "M", 1.00, 1.00), Host("b", "M", 1.05, 0.97),
      Host("c", "M", 0.96, 1.04), Host("slow", "M", 10.0, 1.02),
      Host("e", "M", 1.02, 0.99)};
  FleetReport f = BuildFleet(in, FleetRule());
  ASSERT_EQ(f.outliers.size(), 1u);
  EXPECT_EQ(f.outliers[0].host, "slow");
  EXPECT_EQ(f.outliers[0].figure, "fdatasync_2300_p99_ns");
  EXPECT_EQ(f.outliers[0].direction, "worse");
  EXPECT_THAT(f.outliers[0].text, HasSubstr("above the group median"));
  size_t fi = FigureIndex(f, "fdatasync_2300_p99_ns");
  const FleetCell& c = f.hosts[3].cells[fi];
  EXPECT_TRUE(c.outlier);
  EXPECT_NEAR(*c.ratio, 10.0 / 1.02, 0.01);
  EXPECT_GT(*c.mads, 3.5);
  // The others are judged too, and within the rule.
  EXPECT_FALSE(f.hosts[0].cells[fi].outlier);
  EXPECT_LT(*f.hosts[0].cells[fi].mads, 3.5);
  EXPECT_NEAR(*f.groups[0].stats[fi].median, 36e6 * 1.02, 1);
}

TEST(FleetTest, ManyMadsButASmallRatioIsNotAnOutlier) {
  // Near-identical disks: 1.3x is far out in MADs but under the 1.5x ratio.
  std::vector<FleetInput> in = {Host("a", "M", 1.000), Host("b", "M", 1.001),
                                Host("c", "M", 0.999), Host("d", "M", 1.3)};
  FleetReport f = BuildFleet(in, FleetRule());
  EXPECT_TRUE(f.outliers.empty());
  size_t fi = FigureIndex(f, "fdatasync_2300_p99_ns");
  EXPECT_GT(*f.hosts[3].cells[fi].mads, 3.5);
  FleetRule loose;
  loose.min_ratio = 1.2;
  loose.noise_floors = false;
  EXPECT_EQ(BuildFleet(in, loose).outliers.size(), 1u);
}

// Three identical loop devices on one disk (the playbook test): a host 1.8x
// quicker at 4 KiB QD1 p50 than its two peers, far out in MADs because the
// peers agree, is within what one host's back-to-back runs differ by
// (the block read p50 noise floor), so not an outlier; 4x is.
TEST(FleetTest, ADifferenceInsideTheNoiseFloorIsNotAnOutlier) {
  FleetReport f = BuildFleet({Host("fast1", "M", 1, 0.557),
                              Host("fast2", "M", 1, 1.029), Host("slow", "M")},
                             FleetRule());
  size_t fi = FigureIndex(f, "read_4k_qd1_p50_ns");
  EXPECT_GT(*f.hosts[0].cells[fi].mads, 3.5);
  EXPECT_FALSE(f.hosts[0].cells[fi].outlier);
  EXPECT_GE(f.figures[fi].min_ratio, 2.0);
  FleetReport g = BuildFleet({Host("fast1", "M", 1, 0.25),
                              Host("fast2", "M", 1, 1.029), Host("slow", "M")},
                             FleetRule());
  EXPECT_TRUE(g.hosts[0].cells[fi].outlier);
}

TEST(FleetTest, AHostFarOffFromTwoNoisyPeersIsFlagged) {
  // Two normal hosts 1.6x apart and one at 1/175: on a linear scale the odd
  // one would be 1.1 MADs out (a value cannot fall further than the median
  // below it); on the log scale it is far out.
  std::vector<FleetInput> in = {Host("a", "M", 1.0), Host("b", "M", 1.6),
                                Host("odd", "M", 1.0 / 175)};
  FleetReport f = BuildFleet(in, FleetRule());
  ASSERT_EQ(f.outliers.size(), 1u);
  EXPECT_EQ(f.outliers[0].host, "odd");
  size_t fi = FigureIndex(f, "fdatasync_2300_p99_ns");
  EXPECT_NEAR(*f.hosts[2].cells[fi].ratio, 175, 0.01);
  EXPECT_LT(*f.hosts[1].cells[fi].mads, 1.0);
}

TEST(FleetTest, AFasterHostIsFlaggedAsBetter) {
  std::vector<FleetInput> in = {Host("a", "M"), Host("b", "M", 1.1),
                                Host("c", "M", 0.9), Host("cache", "M", 0.05)};
  FleetReport f = BuildFleet(in, FleetRule());
  ASSERT_EQ(f.outliers.size(), 1u);
  EXPECT_EQ(f.outliers[0].host, "cache");
  EXPECT_EQ(f.outliers[0].direction, "better");
}

TEST(FleetTest, HostsAreComparedWithinTheirDeviceModel) {
  // Three SATA disks and three 10x slower rotating ones: two groups, no
  // outlier. Put together with one odd rotating disk, it is flagged.
  std::vector<FleetInput> in = {Host("s1", "SSD"),      Host("s2", "SSD", 1.1),
                                Host("s3", "SSD", 0.9), Host("h1", "HDD", 10),
                                Host("h2", "HDD", 11),  Host("h3", "HDD", 9)};
  FleetReport f = BuildFleet(in, FleetRule());
  EXPECT_EQ(f.groups.size(), 2u);
  EXPECT_TRUE(f.outliers.empty());
  std::vector<FleetInput> mixed = {
      Host("s1", "SSD"), Host("s2", "SSD", 1.1), Host("s3", "SSD", 0.9),
      Host("s4", "SSD", 1.05), Host("h1", "HDD", 10)};
  FleetRule none;
  none.group_by_model = false;
  FleetReport all = BuildFleet(mixed, none);
  ASSERT_EQ(all.outliers.size(), 1u);
  EXPECT_EQ(all.outliers[0].host, "h1");
  EXPECT_TRUE(BuildFleet(mixed, FleetRule()).outliers.empty());
}

TEST(FleetTest, TwoHostsAreNotJudged) {
  FleetReport f = BuildFleet({Host("a", "M"), Host("b", "M", 20)}, FleetRule());
  EXPECT_FALSE(f.groups[0].judged);
  EXPECT_TRUE(f.outliers.empty());
  EXPECT_THAT(FleetText(f), HasSubstr("medians only"));
}

TEST(FleetTest, AWriteCacheUnlikeTheRestIsFlagged) {
  std::vector<FleetInput> in = {Host("a", "M"), Host("b", "M"), Host("c", "M")};
  in[2].report.environment.device->write_cache = "write through";
  FleetReport f = BuildFleet(in, FleetRule());
  ASSERT_EQ(f.outliers.size(), 1u);
  EXPECT_EQ(f.outliers[0].host, "c");
  EXPECT_EQ(f.outliers[0].figure, "write_cache");
  EXPECT_EQ(f.outliers[0].direction, "differs");
}

TEST(FleetTest, SameHostnameIsToldApartByFileName) {
  std::vector<FleetInput> in = {Host("x", "M"), Host("x", "M"), Host("y", "M")};
  in[0].file = "results/one.json";
  in[1].file = "results/two.json";
  FleetReport f = BuildFleet(in, FleetRule());
  EXPECT_EQ(f.hosts[0].host, "x/one");
  EXPECT_EQ(f.hosts[1].host, "x/two");
  EXPECT_EQ(f.hosts[2].host, "y");
}

TEST(FleetTest, EngineFiguresAndProfileComeFromTheResult) {
  FleetReport f = BuildFleet({Host("a", "M")}, FleetRule());
  size_t fi = FigureIndex(f, "leveldb_fillrandom_ops_per_sec");
  EXPECT_TRUE(f.hosts[0].cells[fi].value.has_value());
  FigureIndex(f, "sqlite3_readrandom_ops_per_sec");
  EXPECT_EQ(f.hosts[0].flush_verdict, "flushes_reach_device");
  EXPECT_EQ(f.hosts[0].recommended,
            "baseline-2011-leveldb: write_buffer_bytes, bloom_bits_per_key");
}

TEST(FleetTest, JsonMatchesTheSchemaAndRenderersNameTheOutlier) {
  std::vector<FleetInput> in = {Host("a", "M"), Host("b", "M", 1.1),
                                Host("c", "M", 0.9), Host("slow", "M", 12),
                                Host("lone", "Other")};
  FleetReport f = BuildFleet(in, FleetRule());
  f.skipped.push_back({"results/bad.json", "not JSON"});
  std::ifstream s(std::string(DISKTUNE_TEST_SOURCE_DIR) +
                  "/reports/schema/fleet.v1.schema.json");
  json schema = json::parse(s);
  json j = FleetToJson(f);
  auto errors = ValidateAgainstSchema(schema, j);
  EXPECT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
  json broken = j;
  broken["hosts"][0]["figures"]["read_4k_qd1_p50_ns"]["ratio"] = 0.5;
  EXPECT_FALSE(ValidateAgainstSchema(schema, broken).empty());

  std::string prom = FleetPrometheus(f);
  EXPECT_THAT(prom, HasSubstr("disktune_fleet_fdatasync_2300_p99_seconds{host="
                              "\"slow\",group=\"ATA M\"} 0.43"));
  EXPECT_THAT(prom,
              HasSubstr("disktune_fleet_outlier{host=\"slow\",group=\"ATA M\","
                        "figure=\"fdatasync_2300_p99_ns\"} 1"));
  EXPECT_THAT(prom, HasSubstr("disktune_fleet_outliers 1\n"));
  std::string html = FleetHtml(f);
  EXPECT_THAT(html, HasSubstr("class=\"outlier-label\""));
  EXPECT_THAT(html, HasSubstr(">slow</text>"));
  EXPECT_THAT(html, Not(HasSubstr(">a</text>")));
  std::string text = FleetText(f);
  EXPECT_THAT(text, HasSubstr("slow: fdatasync p99"));
  EXPECT_THAT(text, HasSubstr("skipped results/bad.json: not JSON"));
}

// Hand-made predictions as fleet_predictions.cc makes them: a predicted
// host, one that lacks the sync point, and a basis calibrated on "cpu X".
TEST(FleetTest, PredictionsInEveryFormatAndNotJudged) {
  FleetBuilder b{FleetRule()};
  FleetInput a = Host("a", "M"), bb = Host("b", "M"), c = Host("c", "M");
  a.report.environment.system.cpu_model = "cpu X";
  bb.report.environment.system.cpu_model = "cpu Y";
  FleetPrediction fast;
  fast.engine = "leveldb";
  fast.figures = {{"fillsync",
                   9120,
                   "sync_latency",
                   {{"cpu", 210000}, {"sync_latency", 9500}}},
                  {"fillrandom", 181000, "cpu", {{"cpu", 181000}}}};
  FleetPrediction slow = fast;
  slow.figures[0].ops_per_sec = 91;  // 100x: shown, never an outlier
  FleetPrediction lacking;
  lacking.engine = "leveldb";
  lacking.missing_probe_figures = {"an fsync fdatasync append point"};
  lacking.not_predicted = "the probe result lacks what the model needs";
  b.Add(a.file, a.report, {fast});
  b.Add(bb.file, bb.report, {slow});
  b.Add(c.file, c.report, {lacking});
  b.Add("results/d.json", Host("d", "M").report, {fast});
  FleetPredictionBasis basis;
  basis.engines = {"leveldb"};
  basis.scenarios = {"fillsync", "fillrandom"};
  basis.num = 1000000;
  basis.cpu_calibrated_on = "cpu X";
  basis.probe_command = "disktune probe --quick";
  b.SetPredictionBasis(basis);
  FleetReport f = b.Finish();
  EXPECT_TRUE(f.outliers.empty());

  std::string text = FleetText(f);
  EXPECT_THAT(text, HasSubstr("leveldb fillsync"));
  EXPECT_THAT(text, HasSubstr("9,120/s sync_latency"));
  EXPECT_THAT(text, HasSubstr("181,000/s cpu"));
  EXPECT_THAT(text, HasSubstr("91/s sync_latency"));
  EXPECT_THAT(text, HasSubstr("c: not predicted: missing an fsync fdatasync "
                              "append point"));
  EXPECT_THAT(text, HasSubstr("the CPU cost per op is this machine's (cpu X"));
  EXPECT_THAT(text, HasSubstr("3 of 4 hosts have another CPU"));
  EXPECT_THAT(text, HasSubstr("measure the model's points on it: disktune "
                              "probe --quick"));
  std::string html = FleetHtml(f);
  EXPECT_THAT(html, HasSubstr("<th>leveldb fillsync</th>"));
  EXPECT_THAT(html, HasSubstr("9,120/s<br><small>sync_latency</small>"));
  EXPECT_THAT(html, HasSubstr("not predicted: missing an fsync"));
  EXPECT_THAT(FleetPrometheus(f),
              HasSubstr("disktune_fleet_predicted_ops_per_sec{host=\"a\","
                        "group=\"ATA M\",engine=\"leveldb\",scenario="
                        "\"fillsync\",bound=\"sync_latency\"} 9120\n"));

  std::ifstream s(std::string(DISKTUNE_TEST_SOURCE_DIR) +
                  "/reports/schema/fleet.v1.schema.json");
  json schema = json::parse(s);
  json j = FleetToJson(f);
  auto errors = ValidateAgainstSchema(schema, j);
  EXPECT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
  EXPECT_EQ(j["schema_version"], "1.1");
  EXPECT_EQ(j["prediction"]["cpu_calibrated_on"], "cpu X");
  const json& pa = j["hosts"][0]["predictions"][0];
  EXPECT_EQ(pa["figures"]["fillsync"]["ops_per_sec"], 9120);
  EXPECT_EQ(pa["figures"]["fillsync"]["ceilings_ops_per_sec"]["cpu"], 210000);
  EXPECT_EQ(j["hosts"][2]["predictions"][0]["missing_probe_figures"][0],
            "an fsync fdatasync append point");
  json broken = j;
  broken["hosts"][0]["predictions"][0]["figures"]["fillsync"]["bound"] = "disk";
  EXPECT_FALSE(ValidateAgainstSchema(schema, broken).empty());
  broken = j;
  broken["hosts"][0]["predictions"][0].erase("figures");
  EXPECT_FALSE(ValidateAgainstSchema(schema, broken).empty());
}

TEST(FleetTest, NoBasisNoPredictionsAnywhere) {
  FleetReport f = BuildFleet({Host("a", "M")}, FleetRule());
  EXPECT_FALSE(FleetToJson(f).contains("prediction"));
  EXPECT_FALSE(FleetToJson(f)["hosts"][0].contains("predictions"));
  EXPECT_THAT(FleetText(f), Not(HasSubstr("predicted")));
  EXPECT_THAT(FleetPrometheus(f), Not(HasSubstr("predicted")));
}

}  // namespace
}  // namespace disktune
