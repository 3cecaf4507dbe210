#include "reports/compare.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "reports/noise_floor.h"
#include "reports/test_util.h"

namespace disktune {
namespace {

using testing::CraftedReport;

const CompareRow* Find(const Comparison& c, const std::string& item,
                       const std::string& metric) {
  for (const auto& r : c.rows) {
    if (r.item == item && r.metric == metric) return &r;
  }
  return nullptr;
}

ProbeResult* Probe(Report& r, const std::string& name) {
  for (auto& p : r.probes) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

TEST(CompareTest, IdenticalResultsAreTheSame) {
  Report a = CraftedReport();
  CompareOptions o;
  o.fail_on_regression_pct = 1;
  Comparison c = CompareReports(a, a, "a", "b", o);
  EXPECT_FALSE(c.rows.empty());
  for (const auto& r : c.rows) {
    EXPECT_EQ(r.verdict, CompareVerdict::kSame) << r.item << " " << r.metric;
  }
  EXPECT_EQ(c.regressions, 0);
  EXPECT_TRUE(c.environment_differences.empty());
  EXPECT_TRUE(c.only_in_a.empty());
  EXPECT_TRUE(c.only_in_b.empty());
}

TEST(CompareTest, PlainPercentWithAThresholdWithoutRepeats) {
  Report a = CraftedReport();
  Report b = a;
  Probe(b, "rand_read.4k.qd32")->iops = 395 * 0.80;  // 20% fewer IOPS: worse
  Probe(b, "seq_read.4k.qd1")->iops = 29300 * 1.03;  // +3%: same
  Probe(b, "fsync.fdatasync.2300.append")->latency_ns->p99 =
      18000000;  // p99 halved: better
  CompareOptions o;
  o.noise_floors = false;  // the plain percent rule alone
  Comparison c = CompareReports(a, b, "a", "b", o);
  const CompareRow* iops = Find(c, "rand_read.4k.qd32", "iops");
  ASSERT_NE(iops, nullptr);
  EXPECT_NEAR(*iops->change_pct, -20, 1e-9);
  EXPECT_EQ(iops->verdict, CompareVerdict::kWorse);
  EXPECT_EQ(Find(c, "seq_read.4k.qd1", "iops")->verdict, CompareVerdict::kSame);
  const CompareRow* p99 = Find(c, "fsync.fdatasync.2300.append", "p99");
  ASSERT_NE(p99, nullptr);
  EXPECT_FALSE(p99->higher_is_better);
  EXPECT_EQ(p99->verdict, CompareVerdict::kBetter);
  EXPECT_EQ(p99->rule, "threshold");
  EXPECT_FALSE(p99->noise_floor_ratio);
  EXPECT_EQ(c.regressions, 0) << "no gate, no regressions";

  o.fail_on_regression_pct = 10;
  c = CompareReports(a, b, "a", "b", o);
  EXPECT_EQ(Find(c, "rand_read.4k.qd32", "iops")->verdict,
            CompareVerdict::kRegression);
  EXPECT_EQ(c.regressions, 1);
  o.fail_on_regression_pct = 25;
  EXPECT_EQ(CompareReports(a, b, "a", "b", o).regressions, 0);
}

TEST(CompareTest, AChangeInsideTheSpreadOfRepeatsIsNoise) {
  Report a = CraftedReport();
  Report b = a;
  // leveldb fillseq: A median 779,000 with a 95% interval of +-10%. B 8% lower
  // with its own interval overlapping A's: noise, even under a 5% gate.
  auto& rb = b.benches[0];
  rb.metrics.ops_per_sec = 716680;
  rb.repeats->ops_per_sec.median = 716680;
  rb.repeats->ops_per_sec.ci95_low = 700000;
  rb.repeats->ops_per_sec.ci95_high = 730000;
  // leveldb fillrandom: 30% lower and far outside both intervals.
  auto& rf = b.benches[1];
  rf.metrics.ops_per_sec = 114800;
  rf.repeats->ops_per_sec.median = 114800;
  rf.repeats->ops_per_sec.ci95_low = 110000;
  rf.repeats->ops_per_sec.ci95_high = 118000;
  CompareOptions o;
  o.fail_on_regression_pct = 5;
  Comparison c = CompareReports(a, b, "a", "b", o);
  const CompareRow* seq = Find(c, "bench.leveldb.fillseq", "ops_per_sec");
  ASSERT_NE(seq, nullptr);
  ASSERT_TRUE(seq->a_spread && seq->b_spread);
  EXPECT_EQ(seq->a_spread->kind, "ci95");
  EXPECT_NEAR(*seq->change_pct, -8, 1e-9);
  EXPECT_EQ(seq->verdict, CompareVerdict::kNoise);
  const CompareRow* rnd = Find(c, "bench.leveldb.fillrandom", "ops_per_sec");
  EXPECT_EQ(rnd->verdict, CompareVerdict::kRegression);
  EXPECT_EQ(c.regressions, 1);
  std::string text = RenderCompareText(c);
  EXPECT_NE(text.find("within noise"), std::string::npos) << text;
  EXPECT_NE(text.find("REGRESSION"), std::string::npos) << text;
  EXPECT_NE(text.find("1 regression beyond 5.0%: FAIL"), std::string::npos)
      << text;
}

TEST(CompareTest, WithoutRepeatsAChangeInsideTheNoiseFloorIsNoise) {
  Report a = CraftedReport();
  Report b = a;
  const double iops = *Probe(a, "rand_read.4k.qd32")->iops;
  const double floor =
      NoiseFloorFor("probe", "rand_read.4k.qd32", "iops")->ratio;
  ASSERT_GT(floor, 1.25);
  Probe(b, "rand_read.4k.qd32")->iops = iops * 0.8;  // -20%, inside the floor
  Probe(b, "seq_read.4k.qd1")->iops =
      *Probe(a, "seq_read.4k.qd1")->iops / (floor * 1.5);  // far beyond it
  auto& fsync_p99 = Probe(b, "fsync.fdatasync.2300.append")->latency_ns->p99;
  const double sync_floor =
      NoiseFloorFor("probe", "fsync.fdatasync.2300.append", "p99")->ratio;
  fsync_p99 =
      static_cast<uint64_t>(static_cast<double>(fsync_p99) * sync_floor * 2);
  CompareOptions o;
  o.fail_on_regression_pct = 10;
  Comparison c = CompareReports(a, b, "a", "b", o);

  const CompareRow* inside = Find(c, "rand_read.4k.qd32", "iops");
  EXPECT_EQ(inside->verdict, CompareVerdict::kNoise);
  EXPECT_EQ(inside->rule, "noise_floor");
  EXPECT_EQ(inside->noise_kind, "block_read_rate");
  EXPECT_DOUBLE_EQ(*inside->noise_floor_ratio, floor);
  const CompareRow* beyond = Find(c, "seq_read.4k.qd1", "iops");
  EXPECT_EQ(beyond->verdict, CompareVerdict::kRegression);
  EXPECT_EQ(beyond->rule, "beyond_noise_floor");
  const CompareRow* sync = Find(c, "fsync.fdatasync.2300.append", "p99");
  EXPECT_EQ(sync->verdict, CompareVerdict::kRegression);
  EXPECT_EQ(sync->noise_kind, "sync_latency_p99");
  EXPECT_EQ(c.regressions, 2);
  // Benches have no measured floor: their figures keep the percent rule.
  EXPECT_FALSE(Find(c, "bench.leveldb.fillseq", "p99")->noise_floor_ratio);

  std::string text = RenderCompareText(c);
  EXPECT_NE(text.find("within noise (floor"), std::string::npos) << text;
  EXPECT_NE(text.find("REGRESSION (beyond floor"), std::string::npos) << text;
  nlohmann::json j = ComparisonToJson(c);
  bool found = false;
  for (const auto& row : j["rows"]) {
    if (row["item"] == "rand_read.4k.qd32" && row["metric"] == "iops") {
      found = true;
      EXPECT_EQ(row["rule"], "noise_floor");
      EXPECT_EQ(row["noise_floor"]["kind"], "block_read_rate");
      EXPECT_EQ(row["noise_floor"]["ratio"], floor);
    }
  }
  EXPECT_TRUE(found);

  o.noise_floors = false;
  c = CompareReports(a, b, "a", "b", o);
  EXPECT_EQ(Find(c, "rand_read.4k.qd32", "iops")->verdict,
            CompareVerdict::kRegression)
      << "without floors, -20% is beyond a 10% gate";
}

// Rounds of probe --repeat as a RoundStat with the given values.
RoundStat Rounds(std::vector<double> values) { return SummarizeRounds(values); }

// Three rounds of a point with the given IOPS.
ProbeRepeats ThreeRounds(std::vector<double> iops) {
  ProbeRepeats r;
  r.count = 3;
  r.iops = Rounds(std::move(iops));
  return r;
}

TEST(CompareTest, ProbeRepeatsJudgeByTheirSpreadAndTheFloor) {
  Report a = CraftedReport();
  Report b = a;
  // rand_read.4k.qd32: the rounds overlap; the medians are 2x apart, far
  // beyond a 10% gate, but inside what the rounds themselves spread over.
  Probe(a, "rand_read.4k.qd32")->repeats = ThreeRounds({380, 395, 900});
  Probe(b, "rand_read.4k.qd32")->repeats = ThreeRounds({190, 198, 400});
  // seq_read.4k.qd1: tight rounds 30% apart, outside both spreads but
  // inside the block read floor: two runs drift more than one run's rounds.
  ProbeRepeats sa = ThreeRounds({29000, 29300, 29500});
  ProbeRepeats sb = ThreeRounds({20300, 20500, 20600});
  sa.latency_p99_ns = Rounds({100000, 101000, 102000});
  sb.latency_p99_ns = Rounds({100500, 101500, 150000});
  Probe(a, "seq_read.4k.qd1")->repeats = sa;
  Probe(b, "seq_read.4k.qd1")->repeats = sb;
  // seq_read.1m.qd1: tight rounds 5x apart, beyond both spreads and the
  // floor: a regression.
  Probe(a, "seq_read.1m.qd1")->repeats = ThreeRounds({1000, 1010, 1020});
  Probe(b, "seq_read.1m.qd1")->repeats = ThreeRounds({198, 200, 202});
  CompareOptions o;
  o.fail_on_regression_pct = 10;
  Comparison c = CompareReports(a, b, "a", "b", o);

  const CompareRow* noisy = Find(c, "rand_read.4k.qd32", "iops");
  ASSERT_TRUE(noisy->a_spread && noisy->b_spread);
  EXPECT_EQ(noisy->a, 395);
  EXPECT_EQ(noisy->b, 198);
  EXPECT_EQ(noisy->a_spread->low, 380);
  EXPECT_EQ(noisy->b_spread->high, 400);
  EXPECT_EQ(noisy->verdict, CompareVerdict::kNoise);
  EXPECT_EQ(noisy->rule, "spread");
  const CompareRow* drift = Find(c, "seq_read.4k.qd1", "iops");
  EXPECT_EQ(drift->b, 20500);
  ASSERT_TRUE(drift->a_spread && drift->b_spread);
  EXPECT_GT(drift->b_spread->high, 0);
  EXPECT_LT(drift->b_spread->high, drift->a_spread->low) << "apart";
  EXPECT_EQ(drift->verdict, CompareVerdict::kNoise);
  EXPECT_EQ(drift->rule, "noise_floor");
  ASSERT_TRUE(drift->noise_floor_ratio.has_value());
  const CompareRow* slow = Find(c, "seq_read.1m.qd1", "iops");
  EXPECT_EQ(slow->verdict, CompareVerdict::kRegression);
  EXPECT_EQ(slow->rule, "beyond_spread_and_floor");
  const CompareRow* p99 = Find(c, "seq_read.4k.qd1", "p99");
  EXPECT_EQ(p99->verdict, CompareVerdict::kSame) << "medians 0.5% apart";
  EXPECT_EQ(c.regressions, 1);
  std::string text = RenderCompareText(c);
  EXPECT_NE(text.find("within noise (spreads overlap)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("REGRESSION (beyond the spread and floor"),
            std::string::npos)
      << text;

  // Without floors, the spreads alone judge: the drift is a regression.
  o.noise_floors = false;
  c = CompareReports(a, b, "a", "b", o);
  EXPECT_EQ(Find(c, "seq_read.4k.qd1", "iops")->verdict,
            CompareVerdict::kRegression);
  EXPECT_EQ(Find(c, "seq_read.4k.qd1", "iops")->rule, "beyond_spread");
  EXPECT_EQ(Find(c, "rand_read.4k.qd32", "iops")->verdict,
            CompareVerdict::kNoise);
}

TEST(CompareTest, MinMaxSpreadWhenThereIsNoInterval) {
  Report a = CraftedReport();
  a.benches[0].repeats->ops_per_sec.ci95_low.reset();
  a.benches[0].repeats->ops_per_sec.ci95_high.reset();
  Report b = a;
  b.benches[0].repeats.reset();
  b.benches[0].metrics.ops_per_sec =
      765000;  // -1.8%: inside A's min..max (760k..801k)
  CompareOptions o;
  o.threshold_pct = 1;
  Comparison c = CompareReports(a, b, "a", "b", o);
  const CompareRow* seq = Find(c, "bench.leveldb.fillseq", "ops_per_sec");
  ASSERT_TRUE(seq->a_spread);
  EXPECT_EQ(seq->a_spread->kind, "min-max");
  EXPECT_FALSE(seq->b_spread);
  EXPECT_EQ(seq->verdict, CompareVerdict::kNoise);
}

TEST(CompareTest, MatchesByNameAndOccurrenceAndListsTheRest) {
  Report a = CraftedReport();
  Report b = a;
  b.probes.erase(b.probes.begin());  // seq_read.4k.qd1 only in A
  ProbeResult extra = b.probes.front();
  extra.name = "rand_read.4k.qd64";
  b.probes.push_back(extra);
  b.benches.erase(b.benches.begin() + 3);  // the second readrandom only in A
  b.benches[0].status = bench::RunStatus::kFailed;
  b.benches[0].error = "IO error: disk full";
  b.environment.system.kernel = "6.12.0";
  CompareOptions o;
  o.fail_on_regression_pct = 10;
  Comparison c = CompareReports(a, b, "a", "b", o);
  EXPECT_EQ(c.only_in_a, (std::vector<std::string>{
                             "seq_read.4k.qd1", "bench.leveldb.readrandom#2"}));
  EXPECT_EQ(c.only_in_b, (std::vector<std::string>{"rand_read.4k.qd64"}));
  ASSERT_EQ(c.failed_in_b.size(), 1u);
  EXPECT_EQ(c.failed_in_b[0], "bench.leveldb.fillseq: IO error: disk full");
  EXPECT_EQ(c.regressions, 1)
      << "an ok result that failed counts against the gate";
  EXPECT_EQ(c.environment_differences,
            (std::vector<std::string>{"kernel: 6.1.0-18-amd64 vs 6.12.0"}));
  // Skipped in both: nothing to compare, nothing to report.
  EXPECT_EQ(Find(c, "rand_write.4k.qd32", "iops"), nullptr);
}

// A run started on a busy machine (load above two per CPU) is named: its
// figures move beyond floors measured on an idle machine. An idle one is not.
TEST(CompareTest, NamesABusyMachine) {
  Report a = CraftedReport();
  a.environment.system.cpu_count = 2;
  a.environment.system.load_average_1m = 1.7;
  Report b = a;
  Comparison quiet = CompareReports(a, b, "a", "b", CompareOptions{});
  EXPECT_TRUE(quiet.environment_differences.empty());
  b.environment.system.load_average_1m = 7.6;
  Comparison busy = CompareReports(a, b, "a", "b", CompareOptions{});
  ASSERT_EQ(busy.environment_differences.size(), 1u);
  EXPECT_EQ(busy.environment_differences[0].rfind(
                "machine load: 1.7 vs 7.6 on 2 CPUs (a busy machine", 0),
            0u)
      << busy.environment_differences[0];
}

// Other processes' I/O on a run's disk makes it busy as the load does: the
// note names it, for the run it happened in.
TEST(CompareTest, NamesOtherIoOnTheDisk) {
  Report a = CraftedReport();
  a.environment.system.cpu_count = 2;
  a.environment.system.load_average_1m = 0.3;
  Report b = a;
  ForeignIo io;
  io.disk = "vda";
  io.busy = true;
  io.reason = "other I/O on vda: 812.0 MiB of 901.2 MiB";
  b.environment.foreign_io = io;
  Comparison c = CompareReports(a, b, "a", "b", CompareOptions{});
  ASSERT_EQ(c.environment_differences.size(), 1u);
  const std::string& note = c.environment_differences[0];
  EXPECT_NE(note.find("the second run: other I/O on vda: 812.0 MiB"),
            std::string::npos)
      << note;
  EXPECT_EQ(note.find("the first run"), std::string::npos) << note;
  io.busy = false;  // measured, and quiet
  b.environment.foreign_io = io;
  EXPECT_TRUE(CompareReports(a, b, "a", "b", CompareOptions{})
                  .environment_differences.empty());
}

// A run on an emulated device class against one on the disk itself: the
// comparison names the class, as it names another device.
TEST(CompareTest, NamesAThrottleThatDiffers) {
  Report a = CraftedReport();
  Report b = a;
  ThrottleRecord t;
  t.spec = *ParseThrottle("hdd");
  b.environment.throttle = t;
  Comparison c = CompareReports(a, b, "a", "b", CompareOptions{});
  ASSERT_EQ(c.environment_differences.size(), 1u);
  EXPECT_EQ(
      c.environment_differences[0].rfind(
          "throttle: none (the disk itself) vs the hdd class (150 IOPS", 0),
      0u)
      << c.environment_differences[0];
  a.environment.throttle = t;
  EXPECT_TRUE(CompareReports(a, b, "a", "b", CompareOptions{})
                  .environment_differences.empty());
}

TEST(CompareTest, NotesParametersThatDiffer) {
  Report a = CraftedReport();
  Report b = a;
  b.benches[1].params.num = 100000;
  Probe(b, "rand_read.4k.qd1")->params.file_size_bytes = 268435456;
  Comparison c = CompareReports(a, b, "a", "b", CompareOptions{});
  // Figures measured alike are compared; the others are left out and listed.
  EXPECT_EQ(Find(c, "bench.leveldb.fillrandom", "ops_per_sec"), nullptr);
  EXPECT_EQ(Find(c, "rand_read.4k.qd1", "iops"), nullptr);
  EXPECT_NE(Find(c, "rand_read.4k.qd32", "iops"), nullptr);
  EXPECT_GT(c.params_differ_rows, 0);
  auto listed = [&](const std::string& line) {
    return std::find(c.not_comparable.begin(), c.not_comparable.end(), line) !=
           c.not_comparable.end();
  };
  EXPECT_TRUE(
      listed("bench.leveldb.fillrandom: params differ: num 1000000 vs 100000"));
  EXPECT_TRUE(
      listed("rand_read.4k.qd1: params differ: file_size_bytes "
             "1073741824 vs 268435456"));
}

TEST(CompareTest, JsonCarriesEveryRow) {
  Report a = CraftedReport();
  Comparison c = CompareReports(a, a, "a.json", "b.json", CompareOptions{});
  nlohmann::json j = ComparisonToJson(c);
  EXPECT_EQ(j["schema"], "disktune.compare");
  EXPECT_EQ(j["rows"].size(), c.rows.size());
  EXPECT_EQ(j["regressions"], 0);
  EXPECT_EQ(j["rows"][0]["verdict"], "same");
  EXPECT_TRUE(j["rows"][0].contains("change_pct"));
}

}  // namespace
}  // namespace disktune
