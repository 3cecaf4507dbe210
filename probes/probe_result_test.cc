#include "src/model/probe_result.h"

#include <gtest/gtest.h>

#include "probes/fio_runner.h"
#include "probes/probe.h"
#include "probes/rand_read_saturation.h"

namespace disktune {
namespace {

ProbeResult Sample() {
  ProbeResult r;
  r.probe = "rand_read";
  r.name = "rand_read.4k.qd32";
  r.params.block_size_bytes = 4096;
  r.params.queue_depth = 32;
  r.params.pattern = "random";
  r.params.direct = true;
  r.params.extra["seed"] = 7;
  r.iops = 12345.5;
  r.bytes_per_sec = 12345.5 * 4096;
  r.latency_ns = LatencySummary{.mean = 100.5,
                                .p50 = 90,
                                .p90 = 150,
                                .p99 = 300,
                                .p999 = 900,
                                .max = 1000,
                                .samples = 42};
  r.samples = 42;
  return r;
}

TEST(ProbeResultTest, JsonRoundTrip) {
  ProbeResult r = Sample();
  nlohmann::json j = r;
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["params"]["queue_depth"], 32);
  EXPECT_EQ(j["params"]["seed"], 7);
  EXPECT_EQ(j["latency_ns"]["p99"], 300);
  EXPECT_FALSE(j.contains("ops_per_sec"));  // not measured -> absent, not 0
  ProbeResult back = j.get<ProbeResult>();
  EXPECT_EQ(back.name, r.name);
  EXPECT_EQ(*back.params.queue_depth, 32);
  EXPECT_EQ(back.params.extra["seed"], 7);
  EXPECT_DOUBLE_EQ(*back.iops, *r.iops);
  EXPECT_EQ(back.latency_ns->p999, 900u);
  EXPECT_EQ(nlohmann::json(back), j);
}

TEST(ProbeResultTest, SkippedCarriesReason) {
  nlohmann::json j = ProbeResult::Skipped("seq_read", "seq_read.4k.qd1",
                                          "tmpfs refuses O_DIRECT");
  EXPECT_EQ(j["status"], "skipped");
  EXPECT_EQ(j["reason"], "tmpfs refuses O_DIRECT");
  EXPECT_FALSE(j.contains("iops"));
}

TEST(FioTest, ParsesFioJsonAndComputesRatios) {
  const char* text = R"(note: something
{"fio version":"fio-3.33","jobs":[{"jobname":"disktune","read":{"io_bytes":1,"bw_bytes":409600000,
 "iops":100000.0,"clat_ns":{"min":10,"max":5000,"mean":300.0,"stddev":20.0,"N":500000,
 "percentile":{"50.000000":290,"90.000000":350,"99.000000":600,"99.900000":1200}}},
 "write":{"iops":0.0,"bw_bytes":0}}]})";
  Result<FioComparison> f = ParseFioJson(text, /*write=*/false);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_DOUBLE_EQ(*f->iops, 100000.0);
  EXPECT_EQ(f->latency_ns->p50, 290u);
  EXPECT_EQ(f->latency_ns->p999, 1200u);
  ProbeResult native = Sample();
  native.iops = 95000.0;
  native.latency_ns->p50 = 319;
  AddFioRatios(native, &*f);
  EXPECT_NEAR(*f->iops_ratio, 0.95, 1e-9);
  EXPECT_NEAR(*f->latency_p50_ratio, 1.1, 1e-9);
  EXPECT_FALSE(ParseFioJson("fio: command failed", false).ok());
}

// fio's percentiles are bucket edges: one over the exact maximum is clamped,
// so no table shows a p99 above its max.
TEST(FioTest, NoPercentileExceedsTheMaximum) {
  const char* text = R"({"jobs":[{"jobname":"disktune",
 "read":{"io_bytes":1,"bw_bytes":1,"iops":12.0,"clat_ns":{"min":900,"max":35360000,
 "mean":1000.0,"stddev":20.0,"N":12,"percentile":{"50.000000":880,"90.000000":35390000,
 "99.000000":35390000,"99.900000":35390000}}},"write":{"iops":0.0,"bw_bytes":0}}]})";
  Result<FioComparison> f = ParseFioJson(text, /*write=*/false);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(f->latency_ns->p99, 35360000u);
  EXPECT_EQ(f->latency_ns->p999, 35360000u);
  EXPECT_EQ(f->latency_ns->p50, 900u);
  EXPECT_LE(f->latency_ns->p90, f->latency_ns->max);
}

TEST(FioTest, FioFiguresFillAPointTheyMeasured) {
  const char* text = R"({"jobs":[{"jobname":"disktune","ctx":812,
 "read":{"io_bytes":409600,"total_ios":100,"runtime":250,"bw_bytes":1638400,
 "iops":400.0,"lat_ns":{"min":10,"max":5000,"mean":300.0,"stddev":20.0,"N":100,
 "percentile":{"50.000000":290,"90.000000":350,"99.000000":600,"99.900000":1200}}}}]})";
  Result<FioComparison> f = ParseFioJson(text, /*write=*/false);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(*f->samples, 100u);
  EXPECT_EQ(*f->bytes, 409600u);
  EXPECT_EQ(*f->elapsed_ns, 250000000u);
  EXPECT_EQ(*f->context_switches, 812u);
  f->command = "fio --name=disktune";
  ProbeResult r;
  r.name = "rand_read.4k.qd4";
  r.measured_by_reason = "left over";
  ASSERT_TRUE(FillFromFio(*f, &r).ok());
  EXPECT_EQ(r.measured_by, MeasuredBy::kFio);
  EXPECT_EQ(r.measured_by_reason, "");
  EXPECT_DOUBLE_EQ(*r.iops, 400.0);
  EXPECT_DOUBLE_EQ(*r.bytes_per_sec, 1638400.0);
  EXPECT_EQ(*r.samples, 100u);
  EXPECT_EQ(r.latency_ns->p99, 600u);
  EXPECT_EQ(r.metrics["context_switches"], 812);
  EXPECT_EQ(r.params.extra["fio_command"], "fio --name=disktune");
  // JSON keeps who measured.
  nlohmann::json j = r;
  EXPECT_EQ(j["measured_by"], "fio");
  ProbeResult back = j.get<ProbeResult>();
  EXPECT_EQ(back.measured_by, MeasuredBy::kFio);
  nlohmann::json fj = *f;
  EXPECT_EQ(fj["samples"], 100);
  EXPECT_EQ(fj.get<FioComparison>().context_switches, 812u);
  // A fio run that failed or measured nothing fills nothing.
  FioComparison failed;
  failed.status = "failed";
  failed.reason = "fio exited 1: bad file";
  ProbeResult untouched;
  Status s = FillFromFio(failed, &untouched);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("fio exited 1: bad file"), std::string::npos);
  EXPECT_FALSE(untouched.measured_by.has_value());
  EXPECT_FALSE(untouched.iops.has_value());
  FioComparison idle = *f;
  idle.samples = 0;
  EXPECT_FALSE(FillFromFio(idle, &untouched).ok());
  // fio JSON without the side asked for is not a measurement.
  EXPECT_FALSE(ParseFioJson(text, /*write=*/true).ok());
}

TEST(FioTest, MeasureWithNames) {
  EXPECT_EQ(ParseMeasureWith("auto"), MeasureWith::kAuto);
  EXPECT_EQ(ParseMeasureWith("native"), MeasureWith::kNative);
  EXPECT_EQ(ParseMeasureWith("fio"), MeasureWith::kFio);
  EXPECT_FALSE(ParseMeasureWith("FIO").has_value());
  EXPECT_EQ(ParseMeasuredBy("fio"), MeasuredBy::kFio);
  EXPECT_FALSE(ParseMeasuredBy("auto").has_value());
}

// The fio command line as one string, each argument followed by a space.
std::string CommandLine(const FioJob& job) {
  std::string line;
  for (const auto& a : FioCommand(job)) line += a + " ";
  return line;
}

TEST(FioTest, WriteJobsStopAtTheirByteCap) {
  FioJob job;
  job.file = "/d/probe.dat";
  job.file_size_bytes = 64 << 20;
  job.write = true;
  job.duration_ns = 1000000000;
  std::string timed = CommandLine(job);
  EXPECT_NE(timed.find("--time_based"), std::string::npos);
  EXPECT_EQ(timed.find("--io_size"), std::string::npos);
  job.max_bytes = 96 << 20;
  std::string capped = CommandLine(job);
  EXPECT_NE(capped.find("--io_size=100663296"), std::string::npos);
  EXPECT_EQ(capped.find("--time_based"), std::string::npos);
  EXPECT_NE(capped.find("--rw=write"), std::string::npos);
}

TEST(FioTest, CommandMirrorsTheNativeJob) {
  FioJob job;
  job.file = "/d/probe.dat";
  job.file_size_bytes = 1 << 30;
  job.random = true;
  job.block_size = 4096;
  job.queue_depth = 32;
  job.duration_ns = 2000000000;
  job.warmup_ns = 500000000;
  std::string cmd = CommandLine(job);
  EXPECT_NE(cmd.find("--ioengine=io_uring"), std::string::npos);
  EXPECT_NE(cmd.find("--rw=randread"), std::string::npos);
  EXPECT_NE(cmd.find("--iodepth=32"), std::string::npos);
  EXPECT_NE(cmd.find("--direct=1"), std::string::npos);
  EXPECT_NE(cmd.find("--runtime=2000ms"), std::string::npos);
  EXPECT_NE(cmd.find("--ramp_time=500ms"), std::string::npos);
  EXPECT_EQ(cmd.find("--iomem"), std::string::npos);
  job.huge_pages = true;  // buffers in reserved huge pages, as the native's
  EXPECT_NE(CommandLine(job).find("--iomem=mmaphuge"), std::string::npos);
}

ProbeResult RandReadPoint(int depth, double iops, uint64_t p99_ns) {
  ProbeResult r;
  r.probe = "rand_read";
  r.name = "rand_read.4k.qd" + std::to_string(depth);
  r.params.queue_depth = depth;
  r.iops = iops;
  LatencySummary l;
  l.samples = 100000;
  l.p99 = p99_ns;
  r.latency_ns = l;
  return r;
}

// The knee: past it the next depth gains < 10% IOPS or doubles the p99. A
// curve flat from QD8 has its knee at 8 even though the best IOPS (noise) is
// at 128; a p99 that doubles stops it earlier; a curve that keeps gaining has
// it at the deepest point.
TEST(RandReadSaturationTest, KneeIsWhereGainsStopOrTheTailDoubles) {
  std::vector<ProbeResult> flat = {
      RandReadPoint(1, 14000, 100000), RandReadPoint(4, 40000, 130000),
      RandReadPoint(8, 80000, 200000), RandReadPoint(32, 84000, 900000),
      RandReadPoint(128, 86000, 11600000)};
  std::optional<RandReadSaturation> s = FindSaturation(flat);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->knee_queue_depth, 8);
  EXPECT_EQ(s->best_queue_depth, 128);
  EXPECT_EQ(s->knee_p99_ns, 200000u);

  std::vector<ProbeResult> tail = {RandReadPoint(1, 10000, 100000),
                                   RandReadPoint(2, 19000, 150000),
                                   RandReadPoint(4, 30000, 400000)};
  s = FindSaturation(tail);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->knee_queue_depth, 2) << "the p99 more than doubled at 4";

  std::vector<ProbeResult> gaining = {RandReadPoint(4, 10000, 100000),
                                      RandReadPoint(1, 5000, 90000),
                                      RandReadPoint(16, 30000, 150000)};
  s = FindSaturation(gaining);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->knee_queue_depth, 16);
  nlohmann::json j = *s;
  EXPECT_EQ(j["knee_queue_depth"], 16);
  EXPECT_EQ(nlohmann::json(j.get<RandReadSaturation>()), j);
}

TEST(RandReadSaturationTest, SmallestDepthWithinFivePercentOfTheBest) {
  std::vector<ProbeResult> results(3);
  const int depths[] = {1, 8, 32};
  const double iops[] = {1000, 9600, 10000};
  for (int i = 0; i < 3; i++) {
    results[i].probe = "rand_read";
    results[i].name = "point" + std::to_string(i);
    results[i].params.queue_depth = depths[i];
    results[i].iops = iops[i];
  }
  std::optional<RandReadSaturation> s = FindSaturation(results);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->queue_depth, 8);
  EXPECT_EQ(s->best_queue_depth, 32);
  EXPECT_DOUBLE_EQ(s->best_iops, 10000);
  nlohmann::json j = *s;
  EXPECT_EQ(nlohmann::json(j.get<RandReadSaturation>()), j);
  EXPECT_FALSE(FindSaturation({}));
}

}  // namespace
}  // namespace disktune
