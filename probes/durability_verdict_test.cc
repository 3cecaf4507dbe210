// The durability rules on crafted evidence, and the analyses built from
// crafted results.
#include "probes/durability_verdict.h"

#include <gtest/gtest.h>

namespace disktune {
namespace {

DurabilityEvidence Evidence(bool rotational, const char* kernel_view,
                            uint64_t syncs, std::optional<uint64_t> flushes,
                            uint64_t p50_ns) {
  DurabilityEvidence e;
  e.scope = "scratch directory";
  e.disk = "sda";
  e.rotational = rotational;
  e.kernel_write_cache = kernel_view;
  e.syncs = syncs;
  e.flushes = flushes;
  e.fastest_sync_p50_ns = p50_ns;
  e.fastest_point = "fsync.fdatasync.4096.overwrite";
  return e;
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

ProbeResult Point(const std::string& name, const std::string& method,
                  uint64_t p50, uint64_t p99, uint64_t syncs, uint64_t flushes,
                  nlohmann::json extra) {
  ProbeResult r;
  r.probe = "fsync";
  r.name = name;
  r.params.method = method;
  r.params.extra = std::move(extra);
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

TEST(DurabilityVerdictTest, AnalysesFromResults) {
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
  std::vector<ProbeResult> results = {
      Point("fsync.fdatasync.2300.append", "fdatasync", 8000000, 12000000, 100,
            200, base),
      // The unsynced floor and O_DIRECT do not count as evidence.
      Point("fsync.pg.unsynced", "none", 1000, 2000, 0, 0, base),
      Point("fsync.cache_off.fdatasync.2300.append", "fdatasync", 16000000,
            20000000, 50, 100, off),
      Point("fsync.fs.ext4.fdatasync.2300.append", "fdatasync", 9000000,
            11000000, 100, 150, ext4),
      ProbeResult::Skipped("fsync", "fsync.fs.xfs",
                           "mkfs.xfs is not installed"),
  };
  results.back().params.extra = {{"filesystem", "xfs"}};
  std::vector<DurabilityEvidence> ev = CollectDurabilityEvidence(results);
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(ev[0].scope, "scratch directory");
  EXPECT_EQ(ev[0].syncs, 100u);
  EXPECT_EQ(*ev[0].flushes, 200u);
  EXPECT_EQ(*ev[0].fastest_sync_p50_ns, 8000000u);

  nlohmann::json a = nlohmann::json::object();
  AnalyzeDurability(results, &a);
  ASSERT_EQ(a["durability"]["verdicts"].size(), 3u);
  EXPECT_EQ(a["durability"]["verdicts"][0]["verdict"], "flushes_reach_device");
  EXPECT_DOUBLE_EQ(
      a["durability"]["verdicts"][0]["evidence"]["flushes_per_sync"], 2.0);

  EXPECT_EQ(a["checks"]["etcd"]["value_ns"], 12000000);
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

TEST(DurabilityVerdictTest, EtcdCheckPassesUnderTenMilliseconds) {
  std::vector<ProbeResult> results = {Point("fsync.fdatasync.2300.append",
                                            "fdatasync", 1000000, 9999999,
                                            10029, 10029, {})};
  auto c = EtcdCheck(results);
  ASSERT_TRUE(c);
  EXPECT_TRUE((*c)["pass"].get<bool>());
  EXPECT_EQ((*c)["verdict"], "pass");
  EXPECT_FALSE(EtcdCheck({}));
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
  std::vector<ProbeResult> results = {Point("fsync.fdatasync.2300.append",
                                            "fdatasync", 300000, 400000, 154,
                                            154, {})};
  auto c = EtcdCheck(results);
  ASSERT_TRUE(c);
  EXPECT_EQ((*c)["verdict"], "insufficient");
  EXPECT_FALSE((*c)["pass"].get<bool>());
  EXPECT_EQ((*c)["samples"], 154);
  EXPECT_EQ((*c)["samples_needed"], 1000);
}

}  // namespace
}  // namespace disktune
