#include "src/model/bench_result.h"

#include <gtest/gtest.h>

#include "src/bench/repeat_stats.h"

namespace disktune::bench {
namespace {

BenchResult Sample() {
  BenchResult r;
  r.engine = "leveldb";
  r.scenario = "fillseq";
  r.set = "baseline-2011";
  r.step = 1;
  r.params.num = 1000000;
  r.params.ops = 1000000;
  r.params.seed = 301;
  r.params.distribution = "sequential";
  r.engine_options.Set(KnobId::kCacheBytes, 4 << 20);
  r.engine_options.Set(KnobId::kCompression, Compression::kNone);
  r.unsupported_knobs = {{"bloom_bits_per_key", "no filters"}};
  r.metrics.ops = 1000000;
  r.metrics.elapsed_ns = 1853000000;
  r.metrics.micros_per_op = 1.853;
  r.metrics.ops_per_sec = 539665;
  r.metrics.bytes = 116000000;
  r.metrics.bytes_per_sec = 62.6e6;
  r.metrics.latency_ns = LatencySummary{.mean = 1853,
                                        .p50 = 1500,
                                        .p99 = 9000,
                                        .max = 100000,
                                        .samples = 1000000};
  r.metrics.device_write_bytes = 200000000;
  r.metrics.user_write_bytes = 116000000;
  r.metrics.write_amplification = 200.0 / 116;
  r.engine_stats = "Compactions\nLevel Files";
  r.thread_series = {{1, 100, 1000, 1e5, 10}, {2, 100, 900, 1.1e5, 18}};
  r.pulses = {PulsePoint{1, 8, 9000, 8990, 5000000, 21000, 3000, 400000,
                         std::nullopt, 55.5, 0}};
  r.page_cache = PageCacheInfo{"auto", "fadvise_dontneed", 0, ""};
  r.repeats = RepeatStats{3, SummarizeRepeats({1, 2, 3}),
                          SummarizeRepeats({3, 2, 1}), std::nullopt};
  return r;
}

TEST(BenchResultTest, JsonRoundTrip) {
  BenchResult r = Sample();
  nlohmann::json j = r;
  BenchResult back = j.get<BenchResult>();
  nlohmann::json j2 = back;
  EXPECT_EQ(j, j2);
  EXPECT_EQ(back.engine_options.compression(), Compression::kNone);
  EXPECT_EQ(back.pulses[0].cpu_percent, 55.5);
  EXPECT_FALSE(back.pulses[0].peak_rss_bytes);
}

TEST(BenchResultTest, UnmeasuredFiguresAreAbsentNotZero) {
  BenchResult r;
  r.engine = "leveldb";
  r.scenario = "crc32c";
  nlohmann::json j = r;
  const nlohmann::json& m = j["metrics"];
  for (const char* key :
       {"bytes_per_sec", "latency_ns", "found", "reads", "cpu_user_ns",
        "peak_rss_bytes", "device_write_bytes", "write_amplification",
        "db_size_bytes", "space_amplification"}) {
    EXPECT_FALSE(m.contains(key)) << key;
  }
  EXPECT_FALSE(j.contains("repeats"));
  EXPECT_FALSE(j.contains("page_cache"));
  EXPECT_FALSE(j["engine_options"].contains("cache_bytes"));
  EXPECT_EQ(j["status"], "ok");
}

TEST(BenchResultTest, SnakeCaseKeysWithUnits) {
  nlohmann::json j = Sample();
  EXPECT_TRUE(j["metrics"].contains("micros_per_op"));
  EXPECT_TRUE(j["metrics"]["latency_ns"].contains("p999"));
  EXPECT_EQ(j["engine_options"]["cache_bytes"], 4 << 20);
  EXPECT_EQ(j["engine_options"]["compression"], "none");
  EXPECT_EQ(j["unsupported_knobs"][0]["knob"], "bloom_bits_per_key");
  EXPECT_EQ(j["repeats"]["ops_per_sec"]["median"], 2.0);
}

TEST(BenchResultTest, BadJsonIsCorruptionNotAThrow) {
  nlohmann::json j = {{"metrics", {{"ops", "many"}}}};
  auto r = BenchResultFromJson(j);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kCorruption);
}

TEST(BenchResultTest, DbBenchLine) {
  BenchResult r;
  r.scenario = "fillseq";
  r.metrics.micros_per_op = 1.853;
  r.metrics.elapsed_ns = 1000000000;
  r.metrics.bytes = static_cast<uint64_t>(59.7 * 1048576);
  EXPECT_EQ(FormatDbBenchLine(r),
            "fillseq      :       1.853 micros/op;   59.7 MB/s");
  BenchResult rr;
  rr.scenario = "readrandom";
  rr.metrics.micros_per_op = 4.123;
  rr.metrics.message = "(86491 of 100000 found)";
  EXPECT_EQ(FormatDbBenchLine(rr),
            "readrandom   :       4.123 micros/op; (86491 of 100000 found)");
  rr.status = RunStatus::kPartial;
  rr.error = "NoSpace: disk full";
  EXPECT_NE(FormatDbBenchLine(rr).find("[partial: NoSpace: disk full]"),
            std::string::npos);
}

TEST(RepeatStatsTest, MedianRangeAndStudentInterval) {
  RepeatStat s = SummarizeRepeats({10, 12, 11});
  EXPECT_EQ(s.median, 11);
  EXPECT_EQ(s.min, 10);
  EXPECT_EQ(s.max, 12);
  // mean 11, sd 1, t(2) = 4.303: 11 -/+ 4.303/sqrt(3).
  ASSERT_TRUE(s.ci95_low && s.ci95_high);
  EXPECT_NEAR(*s.ci95_low, 11 - 4.303 / std::sqrt(3.0), 1e-9);
  EXPECT_NEAR(*s.ci95_high, 11 + 4.303 / std::sqrt(3.0), 1e-9);
  RepeatStat one = SummarizeRepeats({5});
  EXPECT_FALSE(one.ci95_low);
  EXPECT_EQ(SummarizeRepeats({1, 4, 2, 3}).median, 2.5);
  EXPECT_EQ(MedianIndex({30, 10, 20}), 2u);
  EXPECT_DOUBLE_EQ(StudentT95(1), 12.706);
  EXPECT_DOUBLE_EQ(StudentT95(1000), 1.96);
}

}  // namespace
}  // namespace disktune::bench
