#include "src/model/analyses.h"

#include <gtest/gtest.h>

namespace disktune::model {
namespace {

using json = nlohmann::json;

// One value of every kind, with its optional parts set, and a key no kind
// describes.
Analyses EveryKind() {
  Analyses a;
  a.throttle_by_probe.emplace();
  a.throttle_by_probe->Add("seq_read", 3, {4096, 0, 2048, 0});
  a.throttle_by_probe->test_file_fill = ThrottleAccounting{0, 8192, 0, 8192};
  a.memory_budget = MemoryBudgetCheck{
      134217728,
      "tuned.json",
      {{"leveldb", "readrandom", 150000000, "scenario", 140000000, 130000000}},
      150000000,
      10000000,
      130000000,
      false};
  a.rand_read_saturation = RandReadSaturation{
      "95% of the best IOPS",
      16,
      90000.5,
      LatencySummary{100.5, 3.5, 50, 90, 120, 300, 900, 1000, 5000},
      32,
      95000,
      8,
      80000,
      250,
      "the knee's rule"};
  a.page_cache = PageCacheCheck{"O_DIRECT rule", 4096, 1 << 30, true};
  a.leveldb_2011 = Findings2011Check{
      "the page",
      "same side of 1",
      "1 of 1 measured findings still hold",
      {{"leveldb writes faster", "leveldb / sqlite", 2.5, 3.1, "still holds"}}};
  DurabilityEvidence e{"",  "",  true,    "write back",          true,
                       200, 210, 1500000, "fsync.fdatasync.4096"};
  a.durability = DurabilityFindings{
      {{"flushes_reach_device", "a rule"}},
      {{"scratch directory", "sda", {"flushes_reach_device", "a rule"}, e}}};
  a.durability->verdicts[0].evidence->scope = "scratch directory";
  a.durability->verdicts[0].evidence->disk = "sda";
  a.write_cache = WriteCacheViews{
      {{"sda",
        "write back",
        true,
        {"scsi cache_type", true, std::nullopt, "write back", "", true}}}};
  a.PutCheck("etcd", NamedCheck{"p99 under 10 ms", "fsync...p99", 2000000,
                                10000000, 2300, 100, "pass", true});
  a.write_cache_ab =
      WriteCacheAb{{{"fsync",
                     "ok",
                     "",
                     "drive: SCSI",
                     "scsi_cache_type",
                     "on",
                     "off",
                     {{"fsync.fdatasync.4096",
                       {100.0, 1000, 2000, 300, 1.0},
                       {50.0, 2000, 4000, 300, 1.0},
                       2.0}}},
                    {"fsync.b", "skipped", "no switch", "", "", "", "", {}}}};
  a.fs_matrix =
      FsMatrix{{{"ext4", "ok", "", "noatime", "loop0"},
                {"xfs", "skipped", "no mkfs.xfs", "", ""}},
               {{"fsync.fdatasync.4096",
                 {{"ext4", SyncFigures{100.0, 1000, 2000, 300, 1.0}}}}}};
  a.bytes_written = BytesWritten{};
  a.bytes_written->process_bytes = 1 << 20;
  a.bytes_written->disk = "sda";
  a.bytes_written->disk_bytes = 2 << 20;
  a.unknown["tail_latency_v9"] = {{"rule", "later"}, {"figures", {1, 2, 3}}};
  return a;
}

TEST(AnalysesTest, EveryKindAndAnUnknownKeyComeBackAsWritten) {
  json written = AnalysesToJson(EveryKind());
  for (const char* key :
       {"throttle_by_probe", "memory_budget", "rand_read_saturation",
        "page_cache", "leveldb_2011", "durability", "write_cache", "checks",
        "write_cache_ab", "fs_matrix", "bytes_written", "tail_latency_v9"}) {
    EXPECT_TRUE(written.contains(key)) << key;
  }
  Result<Analyses> read = AnalysesFromJson(written);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(AnalysesToJson(*read), written);
  EXPECT_EQ(read->unknown.size(), 1u);
  ASSERT_TRUE(read->rand_read_saturation.has_value());
  EXPECT_EQ(read->rand_read_saturation->knee_queue_depth, 8);
}

TEST(AnalysesTest, NoneIsAnEmptyObject) {
  EXPECT_EQ(AnalysesToJson(Analyses{}), json::object());
  Result<Analyses> read = AnalysesFromJson(json::object());
  ASSERT_TRUE(read.ok());
  EXPECT_FALSE(read->durability.has_value());
  EXPECT_FALSE(read->checks.has_value());
}

TEST(AnalysesTest, AMalformedKindIsOneErrorNamingItsKey) {
  json j = AnalysesToJson(EveryKind());
  j["page_cache"] = "bypassed";
  Result<Analyses> read = AnalysesFromJson(j);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), Status::Code::kCorruption);
  EXPECT_NE(read.status().message().find("analyses.page_cache"),
            std::string::npos)
      << read.status().message();

  j = AnalysesToJson(EveryKind());
  j["memory_budget"].erase("rows");
  read = AnalysesFromJson(j);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("analyses.memory_budget"),
            std::string::npos)
      << read.status().message();

  j = AnalysesToJson(EveryKind());
  j["checks"]["etcd"] = 3;
  read = AnalysesFromJson(j);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("analyses.checks"), std::string::npos);
}

TEST(AnalysesTest, NotAnObjectIsAnError) {
  EXPECT_FALSE(AnalysesFromJson(json::array()).ok());
}

}  // namespace
}  // namespace disktune::model
