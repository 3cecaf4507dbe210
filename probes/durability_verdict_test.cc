// The durability rules on crafted evidence, and the analyses built from
// crafted results.
#include "probes/durability_verdict.h"

#include <gtest/gtest.h>

#include "src/model/durability_evidence_for_test.h"

namespace disktune {
namespace {

// The analyses the fsync probe writes for `results`, in their JSON form.
nlohmann::json Analyzed(const std::vector<ProbeResult>& results) {
  model::Analyses a;
  AnalyzeDurability(results, &a);
  return model::AnalysesToJson(a);
}

using testing::Evidence;

// The etcd check as stored under analyses.checks.etcd.
std::optional<nlohmann::json> EtcdCheck(
    const std::vector<ProbeResult>& results) {
  if (std::optional<NamedCheck> c = JudgeEtcd(results))
    return nlohmann::json(*c);
  return std::nullopt;
}

TEST(DurabilityVerdictTest, EveryRuleFires) {
  // A 7200 rpm disk syncing at 8 ms with a flush per sync: honest.
  EXPECT_EQ(JudgeDurability(Evidence(true, "write back", 100, 130, 8000000)).id,
            "flushes_reach_device");
  // Rotational but 300 us per sync: a cache absorbs flushes.
  EXPECT_EQ(
      JudgeDurability(Evidence(true, "write back", 1000, 1000, 300000)).id,
      "cache_absorbs_flushes");
  // No flushes although the kernel thinks there is a volatile cache.
  EXPECT_EQ(JudgeDurability(Evidence(false, "write back", 1000, 3, 50000)).id,
            "flushes_dropped");
  // An SSD acknowledging real flushes in 60 us: power-loss protection.
  EXPECT_EQ(
      JudgeDurability(Evidence(false, "write back", 1000, 1000, 60000)).id,
      "power_loss_protection_likely");
  // An SSD taking 2 ms per flush: honest, no PLP.
  EXPECT_EQ(
      JudgeDurability(Evidence(false, "write back", 1000, 1000, 2000000)).id,
      "flushes_reach_device");
  EXPECT_EQ(
      JudgeDurability(Evidence(false, "write back", 1000, 300, 2000000)).id,
      "partial_flushes");
  EXPECT_EQ(
      JudgeDurability(Evidence(false, "write through", 1000, 0, 20000)).id,
      "kernel_write_through");
  DurabilityEvidence unsafe = Evidence(false, "write through", 1000, 0, 20000);
  unsafe.drive_cache_enabled = true;
  EXPECT_EQ(JudgeDurability(unsafe).id, "unsafe_write_through");
  EXPECT_EQ(JudgeDurability(Evidence(false, "", 1000, std::nullopt, 20000)).id,
            "not_counted");
}

TEST(DurabilityVerdictTest, RulesAreWrittenDown) {
  const auto& rules = DurabilityRules();
  ASSERT_GE(rules.size(), 8u);
  for (const auto& r : rules) {
    EXPECT_GT(std::string(r.rule).size(), 40u) << r.id;
  }
  DurabilityVerdict v =
      JudgeDurability(Evidence(true, "write back", 1000, 1000, 300000));
  EXPECT_NE(v.rule.find("rotational"), std::string::npos);
}

// A result named `name` whose params are `params` plus `method`, an append
// of 2300 B unless `params` says otherwise (ProbeParams' JSON form, so the
// typed fields are set as a result file would set them).
ProbeResult Point(const std::string& name, const std::string& method,
                  uint64_t p50, uint64_t p99, uint64_t syncs, uint64_t flushes,
                  nlohmann::json params) {
  ProbeResult r;
  r.probe = "fsync";
  r.name = name;
  if (params.is_null()) params = nlohmann::json::object();
  params["method"] = method;
  if (!params.contains("block_size_bytes")) params["block_size_bytes"] = 2300;
  if (!params.contains("pattern")) params["pattern"] = "append";
  r.params = params.get<ProbeParams>();
  LatencySummary l;
  l.p50 = p50;
  l.p99 = p99;
  l.max = p99;
  l.samples = syncs;
  r.latency_ns = l;
  r.samples = syncs;
  r.ops_per_sec = 1e9 / static_cast<double>(p50);
  r.metrics = {{"syncs", syncs}, {"flushes", flushes}, {"flush_disk", "sda"}};
  return r;
}

// The results AnalysesFromResults judges, named `names[i]`.
std::vector<ProbeResult> AnalysedResults(
    const std::vector<std::string>& names) {
  nlohmann::json base = {{"scope", "scratch directory"},
                         {"disk", "sdz-not-here"},
                         {"rotational", true},
                         {"kernel_write_cache", "write back"}};
  nlohmann::json off = base;
  off["scope"] = "scratch directory, write cache switched off";
  off["write_cache"] = "off";
  off["write_cache_switch"] =
      "drive: SCSI cache_type (/sys/class/scsi_disk/0:0:0:0/cache_type)";
  off["write_cache_switch_kind"] = "scsi_cache_type";
  nlohmann::json ext4 = base;
  ext4["scope"] = "ext4 on loop0";
  ext4["filesystem"] = "ext4";
  ext4["mount_options"] = "rw,relatime";
  ext4["cache_device"] = "loop0";
  nlohmann::json pg = base;
  pg["variant"] = "pg.unsynced";
  pg["block_size_bytes"] = 8192;
  pg["pattern"] = "overwrite";
  nlohmann::json prealloc = base;
  prealloc["pattern"] = "prealloc";
  std::vector<ProbeResult> results = {
      Point(names[0], "fdatasync", 8000000, 12000000, 100, 200, base),
      // The unsynced floor and O_DIRECT do not count as evidence.
      Point(names[1], "none", 1000, 2000, 0, 0, pg),
      Point(names[2], "fdatasync", 16000000, 20000000, 50, 100, off),
      Point(names[3], "fdatasync", 9000000, 11000000, 100, 150, ext4),
      ProbeResult::Skipped("fsync", names[4], "mkfs.xfs is not installed"),
      // etcd's layout: the point its check reads.
      Point(names[5], "fdatasync", 8500000, 13000000, 100, 200, prealloc),
  };
  results[4].params.filesystem = "xfs";
  return results;
}

const std::vector<std::string> kNames = {
    "fsync.fdatasync.2300.append",
    "fsync.pg.unsynced",
    "fsync.cache_off.fdatasync.2300.append",
    "fsync.fs.ext4.fdatasync.2300.append",
    "fsync.fs.xfs",
    "fsync.fdatasync.2300.prealloc"};

TEST(DurabilityVerdictTest, AnalysesFromResults) {
  std::vector<ProbeResult> results = AnalysedResults(kNames);
  std::vector<DurabilityEvidence> ev = CollectDurabilityEvidence(results);
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(ev[0].scope, "scratch directory");
  EXPECT_EQ(ev[0].syncs, 200u);
  EXPECT_EQ(*ev[0].flushes, 400u);
  EXPECT_EQ(*ev[0].fastest_sync_p50_ns, 8000000u);

  nlohmann::json a = Analyzed(results);
  ASSERT_EQ(a["durability"]["verdicts"].size(), 3u);
  EXPECT_EQ(a["durability"]["verdicts"][0]["verdict"], "flushes_reach_device");
  EXPECT_DOUBLE_EQ(
      a["durability"]["verdicts"][0]["evidence"]["flushes_per_sync"], 2.0);

  // The check reads the preallocated point, not the growing file's.
  EXPECT_EQ(a["checks"]["etcd"]["value_ns"], 13000000);
  EXPECT_EQ(a["checks"]["etcd"]["measurement"],
            "fsync.fdatasync.2300.prealloc latency_ns.p99");
  EXPECT_EQ(a["checks"]["etcd"]["threshold_ns"], 10000000);
  EXPECT_FALSE(a["checks"]["etcd"]["pass"].get<bool>());

  const auto& run = a["write_cache_ab"]["runs"][0];
  EXPECT_EQ(run["as_found"], "on");
  EXPECT_EQ(run["switched_to"], "off");
  EXPECT_EQ(run["switch_kind"], "scsi_cache_type");
  ASSERT_EQ(run["points"].size(), 1u);
  EXPECT_EQ(run["points"][0]["point"], "fdatasync.2300.append");
  EXPECT_DOUBLE_EQ(run["points"][0]["off_over_on_p50"], 2.0);

  const auto& fsm = a["fs_matrix"];
  ASSERT_EQ(fsm["filesystems"].size(), 2u);
  EXPECT_EQ(fsm["filesystems"][0]["mount_options"], "rw,relatime");
  EXPECT_EQ(fsm["filesystems"][1]["status"], "skipped");
  EXPECT_EQ(fsm["points"][0]["ext4"]["p99_ns"], 11000000);
}

// What a result is comes from its params: the same results under other names
// give the same analyses, apart from the names they quote.
TEST(DurabilityVerdictTest, RenamedPointsGiveTheSameAnalyses) {
  nlohmann::json want = Analyzed(AnalysedResults(kNames));
  std::vector<std::string> renamed = {"commit-log",   "floor",
                                      "log-no-cache", "on-ext4",
                                      "xfs-refused",  "etcd-wal"};
  nlohmann::json got = Analyzed(AnalysedResults(renamed));
  want["durability"]["verdicts"][0]["evidence"]["fastest_point"] = "commit-log";
  want["durability"]["verdicts"][1]["evidence"]["fastest_point"] =
      "log-no-cache";
  want["durability"]["verdicts"][2]["evidence"]["fastest_point"] = "on-ext4";
  want["checks"]["etcd"]["measurement"] = "etcd-wal latency_ns.p99";
  EXPECT_EQ(got.dump(), want.dump());
  EXPECT_EQ(got["write_cache_ab"]["runs"][0]["points"].size(), 1u);
  EXPECT_EQ(got["fs_matrix"]["filesystems"].size(), 2u);
  EXPECT_EQ(got["checks"]["etcd"]["value_ns"], 13000000);
}

// Result files written before the params carried them: the names say it.
TEST(DurabilityVerdictTest, OldResultFilesGetTheirParamsFromTheirNames) {
  auto load = [](const std::string& name) {
    nlohmann::json j = {{"probe", "fsync"},
                        {"name", name},
                        {"status", "ok"},
                        {"params", {{"method", "fdatasync"}}}};
    return j.get<ProbeResult>().params;
  };
  EXPECT_EQ(load("fsync.fs.ext4.cache_off.fdatasync.4096.append").filesystem,
            "ext4");
  EXPECT_EQ(load("fsync.fs.ext4.cache_off.fdatasync.4096.append").write_cache,
            CacheState::kOff);
  EXPECT_EQ(load("fsync.cache_on.fdatasync.4096.append").write_cache,
            CacheState::kOn);
  EXPECT_EQ(load("fsync.pg.two_8k_writes").variant, "pg.two_8k_writes");
  EXPECT_EQ(load("fsync.fs.xfs.fillsync.leveldb").variant, "fillsync.leveldb");
  EXPECT_EQ(load("fsync.write_cache_ab").variant, kVariantWriteCacheAb);
  ProbeParams plain = load("fsync.fdatasync.4096.append");
  EXPECT_EQ(plain.filesystem, "");
  EXPECT_EQ(plain.write_cache, CacheState::kAsFound);
  EXPECT_EQ(plain.variant, "");
  // Params a file states win over its name.
  nlohmann::json j = {{"probe", "fsync"},
                      {"name", "fsync.pg.x"},
                      {"status", "ok"},
                      {"params", {{"variant", "pg.y"}}}};
  EXPECT_EQ(j.get<ProbeResult>().params.variant, "pg.y");
}

TEST(DurabilityVerdictTest, EtcdCheckPassesUnderTenMilliseconds) {
  std::vector<ProbeResult> results = {
      Point("fsync.fdatasync.2300.prealloc", "fdatasync", 1000000, 9999999,
            10029, 10029, {{"pattern", "prealloc"}})};
  auto c = EtcdCheck(results);
  ASSERT_TRUE(c);
  EXPECT_TRUE((*c)["pass"].get<bool>());
  EXPECT_EQ((*c)["verdict"], "pass");
  EXPECT_FALSE(EtcdCheck({}));
  // A growing file is not etcd's layout: no check from it alone.
  std::vector<ProbeResult> grown = {Point("fsync.fdatasync.2300.append",
                                          "fdatasync", 1000000, 9999999, 10029,
                                          10029, {})};
  EXPECT_FALSE(EtcdCheck(grown));
  // With the fdatasync call timed alone, that is the figure judged.
  results[0].metrics["sync_latency_ns"] = {
      {"p50", 900000}, {"p99", 10000001}, {"samples", 10029}};
  c = EtcdCheck(results);
  EXPECT_EQ((*c)["value_ns"], 10000001);
  EXPECT_FALSE((*c)["pass"].get<bool>());
  EXPECT_EQ((*c)["verdict"], "fail");
}

// A p99 on 154 syncs is the second-largest value: no verdict either way.
TEST(DurabilityVerdictTest, EtcdCheckOnTooFewSyncsIsInsufficient) {
  std::vector<ProbeResult> results = {Point("fsync.fdatasync.2300.prealloc",
                                            "fdatasync", 300000, 400000, 154,
                                            154, {{"pattern", "prealloc"}})};
  auto c = EtcdCheck(results);
  ASSERT_TRUE(c);
  EXPECT_EQ((*c)["verdict"], "insufficient");
  EXPECT_FALSE((*c)["pass"].get<bool>());
  EXPECT_EQ((*c)["samples"], 154);
  EXPECT_EQ((*c)["samples_needed"], 1000);
}

}  // namespace
}  // namespace disktune
