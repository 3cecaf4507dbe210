// `probe --repeat` and `compare` end to end: two real short probes of the
// same disk, each point measured in interleaved rounds, compare as noise
// (inside the rounds' spreads), not as regressions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "reports/schema_validator.h"
#include "tests/binary_runner.h"
#include "tests/test_support.h"

namespace disktune::testing {
namespace {
namespace fs = std::filesystem;

nlohmann::json ReadJson(const std::string& path) {
  return nlohmann::json::parse(ReadFile(path), nullptr, false);
}

class CompareRepeatCliTest : public WorkDirTest {
 protected:
  CompareRepeatCliTest() : WorkDirTest("cmp_repeat_") {}
  // Short points; five rounds each, so a point's spread holds what a busy
  // machine does to it from one second to the next.
  RunOutput Probe(const std::string& json) {
    return RunDisktune(
        {"probe", "--dir", "d", "--probes", "seq_read,rand_read",
         "--queue-depths", "1,8", "--duration", "150ms", "--warmup", "50ms",
         "--file-size", "32MiB", "--repeat", "5", "--json", json},
        work_);
  }
};

TEST_F(CompareRepeatCliTest, TwoIdenticalProbesWithRepeatsCompareAsNoise) {
  RunOutput a = Probe("a.json");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  RunOutput b = Probe("b.json");
  ASSERT_EQ(b.exit_code, 0) << b.err;

  nlohmann::json ja = ReadJson(work_ + "/a.json");
  ASSERT_FALSE(ja.is_discarded());
  auto errors = ValidateAgainstSchema(
      ReadJson(SourceDir() + "/reports/schema/report.v1.schema.json"), ja);
  EXPECT_TRUE(errors.empty()) << errors.front();
  EXPECT_EQ(ja["config"]["probe"]["repeat"], 5);
  ASSERT_EQ(ja["probes"].size(), 4u) << "one result per point, not per round";
  for (const auto& p : ja["probes"]) {
    ASSERT_EQ(p["status"], "ok") << p.dump();
    const auto& rep = p["repeats"];
    EXPECT_EQ(rep["count"], 5) << p["name"];
    for (const char* k :
         {"iops", "bytes_per_sec", "latency_p50_ns", "latency_p99_ns"}) {
      ASSERT_TRUE(rep.contains(k)) << p["name"] << " lacks " << k;
      EXPECT_EQ(rep[k]["values"].size(), 5u);
      EXPECT_LE(rep[k]["min"], rep[k]["median"]);
      EXPECT_LE(rep[k]["median"], rep[k]["max"]);
    }
    // The headline is one real round: its IOPS is among the round values.
    bool found = false;
    for (const auto& v : rep["iops"]["values"]) found |= v == p["iops"];
    EXPECT_TRUE(found) << p.dump();
  }

  RunOutput c = RunDisktune({"compare", "a.json", "b.json",
                             "--fail-on-regression", "10", "--json", "c.json"},
                            work_);
  nlohmann::json jc = ReadJson(work_ + "/c.json");
  ASSERT_FALSE(jc.is_discarded()) << c.err;
  EXPECT_EQ(c.exit_code, jc["regressions"] > 0 ? 1 : 0) << c.out << c.err;
  ASSERT_EQ(jc["rows"].size(), 4u * 3u) << c.out;
  int quiet = 0;
  for (const auto& row : jc["rows"]) {
    ASSERT_TRUE(row.contains("a_spread") && row.contains("b_spread"))
        << row.dump();
    const auto& sa = row["a_spread"];
    const auto& sb = row["b_spread"];
    bool overlap = sa["low"] <= sb["high"] && sb["low"] <= sa["high"];
    // The floor of the figure's kind, where it has one, applies beside the
    // spreads.
    bool floored = row.contains("noise_floor");
    double lo = std::min(std::fabs(row["a"].get<double>()),
                         std::fabs(row["b"].get<double>()));
    double hi = std::max(std::fabs(row["a"].get<double>()),
                         std::fabs(row["b"].get<double>()));
    bool in_floor =
        floored &&
        (lo > 0 ? hi / lo <= row["noise_floor"]["ratio"].get<double>()
                : hi == 0);
    if (row["verdict"] == "same") {
      EXPECT_EQ(row["rule"], "threshold") << row.dump();
    } else if (overlap || in_floor) {
      EXPECT_EQ(row["verdict"], "noise") << row.dump();
      EXPECT_EQ(row["rule"], overlap ? "spread" : "noise_floor") << row.dump();
    } else {
      EXPECT_NE(row["verdict"], "noise") << row.dump();
      EXPECT_EQ(row["rule"],
                floored ? "beyond_spread_and_floor" : "beyond_spread")
          << row.dump();
    }
    quiet += row["verdict"] == "noise" || row["verdict"] == "same";
  }
  // Two runs of the same probe on the same disk: their rounds overlap. Not
  // every figure always does: on a shared machine a whole run can land in a
  // busier minute than the other (seen: rand_read.4k.qd8 3x apart with five
  // rounds each while another job used the disk).
  EXPECT_GE(quiet, 8) << c.out;
}

TEST_F(CompareRepeatCliTest, RepeatOutOfRangeIsBadInput) {
  RunOutput r = RunDisktune({"probe", "--dir", "d", "--repeat", "0"}, work_);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--repeat"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(work_ + "/d")) << "nothing measured";
}

}  // namespace
}  // namespace disktune::testing
