#include "reports/check.h"

#include <gtest/gtest.h>

#include "reports/test_util.h"
#include "src/model/analysis_checks.h"
#include "src/model/named_figures.h"

namespace disktune {
namespace {

using testing::CraftedReport;
using testing::ExpectHasAll;

Requirement Parse(const std::string& text) {
  Result<Requirement> r = ParseRequirement(text);
  EXPECT_TRUE(r.ok()) << text << ": " << r.status().ToString();
  return r.ok() ? *r : Requirement{};
}

std::string ParseError(const std::string& text) {
  Result<Requirement> r = ParseRequirement(text);
  EXPECT_FALSE(r.ok()) << text << " parsed";
  return r.ok() ? "" : r.status().message();
}

TEST(ParseRequirementTest, ReadsPathOperatorValueAndUnit) {
  Requirement r = Parse("fsync.fdatasync.2300.p99 < 10ms");
  EXPECT_EQ(r.path, "fsync.fdatasync.2300.p99");
  EXPECT_EQ(r.op, CompareOp::kLt);
  EXPECT_DOUBLE_EQ(r.threshold, 10e6);
  EXPECT_EQ(r.unit_dimension, Dimension::kTime);

  EXPECT_DOUBLE_EQ(Parse("  a.p50<=250us ").threshold, 250e3);
  EXPECT_DOUBLE_EQ(Parse("a.p50 <= 1.5 s").threshold, 1.5e9);
  EXPECT_DOUBLE_EQ(Parse("a.iops >= 2e4").threshold, 20000);
  EXPECT_DOUBLE_EQ(Parse("a.iops > 5000/s").threshold, 5000);
  EXPECT_DOUBLE_EQ(Parse("a.ops_per_sec != 100 ops/s").threshold, 100);
  EXPECT_DOUBLE_EQ(Parse("a.bytes_per_sec > 100MB/s").threshold, 100e6);
  EXPECT_DOUBLE_EQ(Parse("a.bytes_per_sec > 1GiB/s").threshold, 1073741824.0);
  EXPECT_DOUBLE_EQ(Parse("a.bytes == 4KiB").threshold, 4096);
  EXPECT_EQ(Parse("a.samples > 100").unit_dimension, std::nullopt);
  EXPECT_DOUBLE_EQ(Parse("bench.leveldb.fillseq.micros_per_op < 2us").threshold,
                   2000);
  // The command line's units (core/units.h): minutes, µs, T.
  EXPECT_DOUBLE_EQ(Parse("a.p50 < 2m").threshold, 120e9);
  EXPECT_DOUBLE_EQ(Parse("a.p99 < 5\xC2\xB5s").threshold, 5000);
  EXPECT_DOUBLE_EQ(Parse("a.size_bytes < 1T").threshold, 1099511627776.0);
  Requirement b = Parse("analyses.checks.etcd.pass == true");
  EXPECT_TRUE(b.bool_literal);
  EXPECT_EQ(b.threshold, 1);
}

TEST(ParseRequirementTest, MalformedExpressionsNameTheColumn) {
  EXPECT_EQ(
      ParseError("fsync.fdatasync.2300.p99 < 10 !"),
      "column 31: expected a unit or end of expression after '10', found '!'");
  EXPECT_EQ(
      ParseError("fsync.fdatasync.2300.p99 < 10xs"),
      "column 30: unknown unit 'xs' after '10' (time: ns, us, ms, s, m, h; "
      "size: B, KiB, MiB, GiB, KB, MB, GB; bandwidth: a size and /s "
      "(100MB/s); rate: /s or ops/s)");
  EXPECT_EQ(ParseError("fsync.fdatasync.2300.p99 10ms"),
            "column 26: expected an operator (<, <=, >, >=, ==, !=) after "
            "'fsync.fdatasync.2300.p99', found '10ms'");
  EXPECT_EQ(ParseError("fsync.fdatasync.2300.p99 <"),
            "column 27: expected a number after '<'");
  EXPECT_EQ(ParseError("fsync.fdatasync.2300.p99 < fast"),
            "column 28: expected a number after '<', found 'fast'");
  EXPECT_EQ(ParseError("fsync.fdatasync.2300.p99 = 10ms"),
            "column 26: '=' is not an operator; use == (or <, <=, >, >=, !=)");
  EXPECT_EQ(ParseError("fsync.fdatasync.2300.p99 < 10"),
            "column 30: 'p99' is a time; give '10' a time unit (ns, us, ms, "
            "s), e.g. 10ms");
  EXPECT_EQ(ParseError("rand_read.4k.qd32.iops > 5ms"),
            "column 27: 'ms' is a time but 'iops' (column 19) is a rate "
            "(ops/s); use no unit, /s "
            "or ops/s, e.g. 5000/s");
  EXPECT_EQ(ParseError("fsync..p99 < 1ms"),
            "column 7: empty name in path 'fsync..p99'");
  EXPECT_EQ(ParseError("p99 < 1ms"),
            "column 4: a path names a result and a figure: 'p99' needs "
            ".<metric>, e.g. p99.p99");
  EXPECT_EQ(ParseError(""),
            "column 1: empty requirement; expected e.g. "
            "'etcd.sync_latency_ns.p99 < 10ms'");
  EXPECT_EQ(
      ParseError("< 10ms"),
      "column 1: expected a path such as etcd.sync_latency_ns.p99, found '<'");
  EXPECT_EQ(
      ParseError("a.p99 < 10ms extra"),
      "column 14: expected end of expression after '10ms', found 'extra'");
  EXPECT_EQ(ParseError("a.bytes_per_sec > 100mb/s")
                .rfind("column 22: unknown unit 'mb/s'", 0),
            0u);
  EXPECT_EQ(
      ParseError("a.p99 > 3 ms/s").rfind("column 11: 'ms/s' is not a unit", 0),
      0u);
  EXPECT_EQ(ParseError("a.p99 < true"),
            "column 9: true/false compare only with == or !=");
}

TEST(CheckPresetTest, PresetsParseAndExplainThemselves) {
  ASSERT_GE(CheckPresets().size(), 2u);
  for (const auto& p : CheckPresets()) {
    Result<std::vector<Requirement>> r = PresetRequirements(p.name);
    ASSERT_TRUE(r.ok()) << p.name << ": " << r.status().ToString();
    EXPECT_FALSE(r->empty());
    EXPECT_FALSE(p.why.empty());
    for (const auto& req : *r) EXPECT_EQ(req.source, "preset " + p.name);
  }
  Result<std::vector<Requirement>> bad = PresetRequirements("etc");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "unknown preset 'etc'; valid: etcd, leveldb-wal");
}

// The etcd preset and the durability verdict's etcd check are one gate: the
// same point (the named figure is the verdict's IsEtcdPoint), the same
// threshold, and on a report the same figure and outcome.
TEST(CheckPresetTest, TheEtcdPresetIsTheDurabilityVerdictsGate) {
  const NamedFigure* etcd = FindNamedFigure("etcd");
  ASSERT_NE(etcd, nullptr);
  EXPECT_EQ(etcd->matches, &IsEtcdPoint);
  Result<std::vector<Requirement>> reqs = PresetRequirements("etcd");
  ASSERT_TRUE(reqs.ok()) << reqs.status().ToString();
  ASSERT_EQ(reqs->size(), 1u);
  EXPECT_EQ(reqs->front().path, "etcd.sync_latency_ns.p99");
  EXPECT_EQ(reqs->front().threshold, static_cast<double>(kEtcdThresholdNs));

  Report r = CraftedReport();
  NamedChecks checks = r.analyses.checks.value_or(NamedChecks{});
  auto verdict = checks.find("etcd");
  ASSERT_NE(verdict, checks.end());
  Result<std::vector<RequirementResult>> got = EvaluateRequirements(r, *reqs);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_TRUE(got->front().figure.has_value());
  ASSERT_TRUE(verdict->second.value_ns.has_value());
  EXPECT_EQ(got->front().figure->value,
            static_cast<double>(*verdict->second.value_ns));
  EXPECT_EQ(verdict->second.threshold_ns, kEtcdThresholdNs);
  EXPECT_EQ(verdict->second.measurement.rfind(got->front().figure->resolved, 0),
            0u)
      << verdict->second.measurement;
  EXPECT_EQ(CheckOutcomeName(got->front().outcome), verdict->second.verdict);
}

std::vector<RequirementResult> Evaluate(const Report& r,
                                        const std::vector<std::string>& exprs) {
  std::vector<Requirement> reqs;
  for (const auto& e : exprs) reqs.push_back(Parse(e));
  Result<std::vector<RequirementResult>> out = EvaluateRequirements(r, reqs);
  EXPECT_TRUE(out.ok()) << out.status().ToString();
  return out.ok() ? *out : std::vector<RequirementResult>{};
}

TEST(EvaluateTest, ResolvesPathsAgainstTheReport) {
  Report r = CraftedReport();
  auto res = Evaluate(
      r, {
             "fsync.fdatasync.2300.append.p99 < 10ms",     // exact
             "fsync.fdatasync.2300.overwrite.p99 < 10ms",  // exact
             "rand_read.4k.qd32.iops >= 300",
             "fsync.fdatasync.4096.append.iops > 40/s",  // iops -> ops_per_sec
             "seq_read.1m.qd1.bytes_per_sec > 100MB/s",
             "bench.leveldb.fillrandom.ops_per_sec > 100000/s",
             "bench.leveldb.readrandom#2.ops_per_sec > 150000",
             "bench.sqlite3.fillseq.micros_per_op < 10us",
             "analyses.checks.etcd.pass == true",
             "analyses.rand_read_saturation.queue_depth <= 16",
             "fsync.fdatasync.2300.append.flushes_per_sync >= 0.5",
         });
  ASSERT_EQ(res.size(), 11u);
  EXPECT_EQ(res[0].outcome, CheckOutcome::kFail);
  EXPECT_EQ(res[0].figure->resolved, "fsync.fdatasync.2300.append");
  EXPECT_DOUBLE_EQ(res[0].figure->value, 36e6);
  EXPECT_EQ(res[1].outcome, CheckOutcome::kPass);
  EXPECT_EQ(res[1].figure->resolved, "fsync.fdatasync.2300.overwrite");
  EXPECT_EQ(res[2].outcome, CheckOutcome::kPass);
  EXPECT_EQ(res[3].outcome, CheckOutcome::kPass);
  EXPECT_EQ(res[4].outcome, CheckOutcome::kPass);
  EXPECT_EQ(res[5].outcome, CheckOutcome::kPass);
  EXPECT_EQ(res[6].outcome, CheckOutcome::kPass);
  EXPECT_EQ(res[6].figure->resolved, "bench.leveldb.readrandom#2");
  EXPECT_EQ(res[7].outcome, CheckOutcome::kFail);  // 20.576 us
  EXPECT_EQ(res[8].outcome,
            CheckOutcome::kFail);  // the crafted etcd check fails
  EXPECT_EQ(res[9].outcome, CheckOutcome::kPass);
  EXPECT_EQ(res[10].outcome, CheckOutcome::kPass);
}

TEST(EvaluateTest, MissingAndSkippedResultsAreNotMeasured) {
  auto res =
      Evaluate(CraftedReport(), {"fsync.o_direct_dsync.2300.append.p99 < 10ms",
                                 "fsync.fdatasync.65536.p99 < 10ms",
                                 "bench.rocksdb.fillseq.ops_per_sec > 1",
                                 "bench.kyotocabinet.fillseq.ops_per_sec > 1",
                                 "analyses.nothing.here > 1"});
  ASSERT_EQ(res.size(), 5u);
  for (const auto& r : res)
    EXPECT_EQ(r.outcome, CheckOutcome::kNotMeasured) << r.requirement.text;
  EXPECT_NE(res[0].detail.find("skipped: O_DIRECT writes"), std::string::npos)
      << res[0].detail;
  EXPECT_EQ(res[1].detail,
            "no probe named fsync.fdatasync.65536[.*] in the report");
  EXPECT_NE(res[3].detail.find("skipped"), std::string::npos);
}

TEST(EvaluateTest, PathsThatCannotNameAFigureAreErrorsWithTheColumn) {
  Report r = CraftedReport();
  auto err = [&](const std::string& e) {
    Result<std::vector<RequirementResult>> out =
        EvaluateRequirements(r, {Parse(e)});
    EXPECT_FALSE(out.ok()) << e;
    return out.ok() ? "" : out.status().message();
  };
  EXPECT_EQ(
      err("rand_read.4k.qd32.p98 < 1ms")
          .rfind(
              "'rand_read.4k.qd32.p98 < 1ms': column 19: unknown metric 'p98'",
              0),
      0u);
  EXPECT_EQ(err("  bench.leveldb.fillseq.speed > 1")
                .rfind("'  bench.leveldb.fillseq.speed > 1': column 25: "
                       "unknown bench metric",
                       0),
            0u);
  // A metrics key is placed when the report is read: a ratio takes no unit.
  EXPECT_EQ(err("fsync.fdatasync.2300.append.flushes_per_sync > 1ms"),
            "'fsync.fdatasync.2300.append.flushes_per_sync > 1ms': column 49: "
            "'ms' is a time but "
            "'flushes_per_sync' (column 29) is a count; use no unit");
  EXPECT_NE(err("analyses.durability.verdicts.0.verdict == 1").find("is text"),
            std::string::npos);
  EXPECT_NE(err("rand_read.4k.qd32.iops == true").find("column 27"),
            std::string::npos);
}

// A prefix that names more than one point is refused with the candidates;
// the README's and --help's example names the etcd point.
TEST(EvaluateTest, APathMatchingSeveralFiguresIsAnErrorListingThem) {
  Report r = CraftedReport();
  Result<std::vector<RequirementResult>> out =
      EvaluateRequirements(r, {Parse("fsync.fdatasync.2300.p99 < 10ms")});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("matches"), std::string::npos)
      << out.status().message();
  EXPECT_NE(out.status().message().find("fsync.fdatasync.2300.append.p99"),
            std::string::npos);
  EXPECT_NE(out.status().message().find("fsync.fdatasync.2300.prealloc.p99"),
            std::string::npos);
  out = EvaluateRequirements(r, {Parse("fsync.fdatasync.p99 < 10ms")});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("name one"), std::string::npos);
}

// The named figures read the point their definition picks, by params: the
// etcd gate, the check path and the durability analysis agree.
TEST(EvaluateTest, NamedFiguresReadTheirPoint) {
  Report r = CraftedReport();
  auto res = Evaluate(r, {"etcd.sync_latency_ns.p99 < 10ms", "etcd.p99 < 1s",
                          "wal.ops_per_sec > 1/s"});
  ASSERT_EQ(res.size(), 3u);
  EXPECT_EQ(res[0].figure->resolved, "fsync.fdatasync.2300.prealloc");
  EXPECT_EQ(res[1].figure->resolved, "fsync.fdatasync.2300.prealloc");
  EXPECT_EQ(res[2].figure->resolved, "fsync.fdatasync.4096.append");
  NamedCheck etcd = r.analyses.checks.value().at("etcd");
  EXPECT_DOUBLE_EQ(res[0].figure->value,
                   static_cast<double>(etcd.value_ns.value_or(0)));
}

// A figure that missed its limit while the load was above 2 per CPU (before
// or after) is UNRELIABLE, exit 3; a pass stays a pass.
TEST(EvaluateTest, AMissOnABusyMachineIsUnreliable) {
  Report r = CraftedReport();
  r.environment.system.cpu_count = 2;
  r.environment.system.load_average_1m = 0.5;
  r.environment.system.load_average_1m_after = 6.97;
  auto res = Evaluate(
      r, {"etcd.sync_latency_ns.p99 < 10ms", "rand_read.4k.qd32.iops >= 300"});
  ASSERT_EQ(res.size(), 2u);
  EXPECT_EQ(res[0].outcome, CheckOutcome::kUnreliable);
  EXPECT_NE(res[0].detail.find("6.97 after"), std::string::npos)
      << res[0].detail;
  EXPECT_EQ(res[1].outcome, CheckOutcome::kPass);
  EXPECT_EQ(CheckExitCode(res), 3);
  EXPECT_NE(RenderCheckText(res).find("UNRELIABLE"), std::string::npos);
  EXPECT_EQ(CheckToJson("r.json", res)["verdict"], "unreliable");
  r.environment.system.load_average_1m_after = 3.9;  // under 4 on 2 CPUs
  EXPECT_EQ(Evaluate(r, {"etcd.sync_latency_ns.p99 < 10ms"})[0].outcome,
            CheckOutcome::kFail);
}

TEST(CheckOutputTest, TextAndJsonVerdict) {
  Report r = CraftedReport();
  std::vector<Requirement> reqs = *PresetRequirements("etcd");
  reqs.push_back(Parse("rand_read.4k.qd32.iops >= 300"));
  reqs.push_back(Parse("fsync.fdatasync.65536.p99 < 10ms"));
  auto res = *EvaluateRequirements(r, reqs);
  std::string text = RenderCheckText(res);
  ExpectHasAll(text, {"FAIL         etcd.sync_latency_ns.p99 < 10ms",
                      "35.00 ms  fsync.fdatasync.2300.prealloc (sync alone) "
                      "[preset etcd]",
                      "PASS", "NOT MEASURED", "1 of 3 requirements met: FAIL"});
  nlohmann::json j = CheckToJson("r.json", res);
  EXPECT_EQ(j["schema"], "disktune.check");
  EXPECT_EQ(j["pass"], false);
  EXPECT_EQ(j["passed"], 1);
  EXPECT_EQ(j["requirements"][0]["status"], "fail");
  EXPECT_EQ(j["requirements"][0]["unit"], "ns");
  EXPECT_EQ(j["requirements"][0]["value"], 35e6);
  EXPECT_EQ(j["requirements"][0]["threshold"], 10e6);
  EXPECT_TRUE(j["requirements"][0].contains("why"));
  EXPECT_EQ(j["requirements"][1]["status"], "pass");
  EXPECT_EQ(j["requirements"][2]["status"], "not_measured");
  EXPECT_TRUE(j["requirements"][2].contains("detail"));
}

}  // namespace
}  // namespace disktune
