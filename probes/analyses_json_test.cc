// The typed analyses survive to_json / from_json unchanged, read what an
// older result holds, and a kind without its shape is an error.
#include <gtest/gtest.h>

#include "probes/page_cache_check.h"
#include "src/model/durability_analyses.h"
#include "src/model/durability_rules.h"

namespace disktune {
namespace {

// The analyses read from `j`; empty (after a failed expectation) when they
// do not read.
model::Analyses Read(const nlohmann::json& j) {
  Result<model::Analyses> a = model::AnalysesFromJson(j);
  EXPECT_TRUE(a.ok()) << a.status().ToString();
  return a.ok() ? *a : model::Analyses{};
}

template <typename T>
nlohmann::json RoundTrip(const T& v) {
  nlohmann::json j = v;
  return nlohmann::json(j.get<T>());
}

TEST(AnalysesJsonTest, NamedCheckRoundTrip) {
  NamedCheck c;
  c.rule = "p99 under 10 ms";
  c.measurement = "fsync.fdatasync.2300.append latency_ns.p99";
  c.value_ns = 123456;
  c.threshold_ns = 10000000;
  c.samples = 154;
  c.samples_needed = 1000;
  c.verdict = "insufficient";
  nlohmann::json j = c;
  EXPECT_EQ(RoundTrip(c), j);
  // Written before verdicts had sample counts: pass alone.
  NamedCheck old = nlohmann::json{{"pass", true}, {"value_ns", 5}};
  EXPECT_TRUE(old.pass);
  EXPECT_TRUE(old.verdict.empty());
  EXPECT_FALSE(old.samples);
}

TEST(AnalysesJsonTest, ChecksReadEveryNamedCheck) {
  model::Analyses a;
  NamedCheck c;
  c.verdict = "pass";
  c.pass = true;
  a.PutCheck("etcd", c);
  a.PutCheck("other", NamedCheck{});
  nlohmann::json j = model::AnalysesToJson(a);
  model::Analyses back = Read(j);
  ASSERT_TRUE(back.checks);
  ASSERT_EQ(back.checks->size(), 2u);
  EXPECT_TRUE(back.checks->at("etcd").pass);
  EXPECT_FALSE(back.checks->at("other").pass);
  EXPECT_FALSE(Read(nlohmann::json::object()).checks);
  j["checks"]["other"] = 3;  // not an object
  EXPECT_FALSE(model::AnalysesFromJson(j).ok());
}

TEST(AnalysesJsonTest, DurabilityFindingsRoundTrip) {
  DurabilityEvidence e;
  e.scope = "scratch directory";
  e.disk = "sda";
  e.rotational = false;
  e.kernel_write_cache = "write back";
  e.syncs = 100;
  e.flushes = 200;
  e.fastest_sync_p50_ns = 150000;
  e.fastest_point = "fsync.fdatasync.4096.append";
  DurabilityFindings d;
  d.rules = {{"a", "rule a"}, {"b", "rule b"}};
  d.verdicts.push_back({e.scope, e.disk, JudgeDurability(e), e});
  nlohmann::json j = d;
  EXPECT_EQ(RoundTrip(d), j);
  EXPECT_EQ(j["verdicts"][0]["evidence"]["flushes_per_sync"], 2.0);
  EXPECT_FALSE(j["verdicts"][0]["evidence"].contains("scope"));
  auto back = Read({{"durability", j}}).durability;
  ASSERT_TRUE(back);
  EXPECT_EQ(back->verdicts[0].evidence->disk, "sda");
  EXPECT_TRUE(back->verdicts[0].good());
  // A verdict without evidence keeps its text; a non-object is an error.
  auto bare = Read({{"durability",
                     {{"verdicts", {{{"scope", "s"}, {"verdict", "x"}}}}}}})
                  .durability;
  ASSERT_TRUE(bare);
  EXPECT_FALSE(bare->verdicts[0].evidence);
  EXPECT_FALSE(model::AnalysesFromJson({{"durability", 1}}).ok());
}

TEST(AnalysesJsonTest, WriteCacheViewsRoundTrip) {
  WriteCacheView v;
  v.disk = "nvme0n1";
  v.kernel_view = "write back";
  v.fua = true;
  v.drive.source = "nvme feature 0x06";
  v.drive.enabled = true;
  v.drive.volatile_cache_present = true;
  v.drive.raw = "1";
  v.drive.switchable = true;
  WriteCacheViews w{{v, WriteCacheView{}}};
  nlohmann::json j = w;
  EXPECT_EQ(RoundTrip(w), j);
  EXPECT_EQ(j["devices"][1]["drive"]["switchable"], false);
}

SyncFigures Figures(uint64_t p50) {
  SyncFigures f;
  f.ops_per_sec = 1e9 / static_cast<double>(p50);
  f.p50_ns = p50;
  f.p99_ns = p50 * 2;
  f.samples = 1000;
  f.flushes_per_sync = 1.5;
  return f;
}

TEST(AnalysesJsonTest, WriteCacheAbRoundTrip) {
  WriteCacheAbRun ok;
  ok.results = "fsync";
  ok.status = "ok";
  ok.switch_used = "drive: hdparm -W (/dev/sda)";
  ok.switch_kind = "hdparm";
  ok.as_found = "on";
  ok.switched_to = "off";
  ok.points.push_back(
      {"fdatasync.4096.append", Figures(100), Figures(5000), 50.0});
  ok.points.push_back({"fsync.4096.append", Figures(100), SyncFigures{}, {}});
  WriteCacheAbRun skipped;
  skipped.results = "fsync.ext4";
  skipped.status = "skipped";
  skipped.reason = "needs root";
  WriteCacheAb ab{{ok, skipped}};
  nlohmann::json j = ab;
  EXPECT_EQ(RoundTrip(ab), j);
  EXPECT_FALSE(j["runs"][1].contains("points"));
  EXPECT_FALSE(j["runs"][0].contains("reason"));
  EXPECT_EQ(Read({{"write_cache_ab", j}}).write_cache_ab->runs.size(), 2u);
}

TEST(AnalysesJsonTest, FsMatrixRoundTrip) {
  FsMatrix m;
  m.filesystems.push_back({"ext4", "ok", "", "rw,relatime", "loop0"});
  m.filesystems.push_back({"xfs", "skipped", "no mkfs.xfs", "", ""});
  m.points.push_back({"fdatasync.4096.append", {{"ext4", Figures(300)}}});
  nlohmann::json j = m;
  EXPECT_EQ(RoundTrip(m), j);
  EXPECT_EQ(j["points"][0]["ext4"]["p50_ns"], 300);
  EXPECT_FALSE(j["filesystems"][1].contains("mount_options"));
  EXPECT_FALSE(Read(nlohmann::json::object()).fs_matrix);
}

TEST(AnalysesJsonTest, PageCacheRoundTrip) {
  PageCacheCheck c = CheckPageCache(4096, 1 << 20);
  EXPECT_TRUE(c.bypassed);
  EXPECT_FALSE(CheckPageCache(1 << 19, 1 << 20).bypassed);
  nlohmann::json j = c;
  EXPECT_EQ(RoundTrip(c), j);
  auto back = Read({{"page_cache", j}}).page_cache;
  ASSERT_TRUE(back);
  EXPECT_EQ(back->resident_bytes, 4096u);
  EXPECT_FALSE(model::AnalysesFromJson({{"page_cache", "yes"}}).ok());
}

TEST(AnalysesJsonTest, DurabilityAnalysesOfAReport) {
  DurabilityAnalyses none = DurabilityAnalysesOf(model::Analyses{});
  EXPECT_TRUE(none.empty());
  model::Analyses a;
  a.PutCheck("etcd", NamedCheck{});
  a.fs_matrix = FsMatrix{};
  DurabilityAnalyses d = DurabilityAnalysesOf(a);
  EXPECT_FALSE(d.empty());
  EXPECT_TRUE(d.fs_matrix);
  EXPECT_FALSE(d.findings);
  EXPECT_EQ(d.checks.count("etcd"), 1u);
}

}  // namespace
}  // namespace disktune
