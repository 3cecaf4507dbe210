// The fsync probe on the real disk (the build directory's filesystem) for a
// fraction of a second per point, and its point lists.
#include "probes/fsync_probe.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <set>

#include "probes/durability_verdict.h"
#include "probes/environment.h"
#include "probes/flush_counters.h"
#include "probes/probe_runner.h"
#include "probes/run_probes_for_test.h"
#include "src/core/scratch_dir.h"
#include "src/core/sysinfo.h"
#include "src/model/fsync_names.h"
#include "tests/test_support.h"

namespace disktune {
namespace {

// Under the build tree, on the real disk (TempDir() may be a tmpfs).
class FsyncProbeTest : public testing::ScratchDirTest {
 protected:
  FsyncProbeTest() : ScratchDirTest("fsync_test_") {}
  void SetUp() override {
    ScratchDirTest::SetUp();
    if (HasFatalFailure()) return;
    env_ = CollectEnvironment(scratch_->path());
  }
  ProbeConfig ShortConfig() {
    ProbeConfig c = ProbeConfig::Defaults(true);
    c.duration_ns = 400000000;  // 100 ms per fsync point
    c.warmup_ns = 50000000;
    return c;
  }
  // The scratch directory on its device, as the probe targets it.
  FsyncTarget ScratchTarget() const {
    return MakeFsyncTarget(scratch_->path(), *env_.device, "scratch directory");
  }
  Environment env_;
};

// An append point of the family, named as the probe names it.
FsyncPoint AppendPoint(SyncMethod method, uint64_t write_bytes) {
  FsyncPoint p;
  p.name = FsyncFamilyPrefix("") + "." +
           FsyncFamilyKey(method, write_bytes, FileMode::kAppend);
  p.method = method;
  p.write_bytes = write_bytes;
  p.mode = FileMode::kAppend;
  return p;
}

TEST_F(FsyncProbeTest, FdatasyncAppendOnRealDisk) {
  if (!env_.device)
    GTEST_SKIP() << "no block device behind the build dir: "
                 << env_.device_note;
  FsyncTarget t = ScratchTarget();
  FsyncPoint p = AppendPoint(SyncMethod::kFdatasync, 4096);
  FsyncLimits l;
  l.warmup_ns = 10000000;
  l.duration_ns = 200000000;
  l.min_ops = 10;
  l.max_ns = 2000000000;
  ProbeResult r;
  ASSERT_TRUE(RunFsyncPoint(t, p, l, 1, &r).ok());
  ASSERT_EQ(r.status, ProbeStatus::kOk) << r.error << r.reason;
  ASSERT_TRUE(r.samples && r.latency_ns);
  EXPECT_GE(*r.samples, 10u);
  EXPECT_LE(r.latency_ns->p50, r.latency_ns->p99);
  EXPECT_LE(r.latency_ns->p99, r.latency_ns->max);
  EXPECT_GT(r.ops_per_sec.value_or(0), 0);
  ASSERT_TRUE(r.metrics.contains("flushes")) << r.metrics.dump();
  EXPECT_EQ(r.metrics["syncs"].get<uint64_t>(), *r.samples);
  if (env_.device->write_cache == "write back") {
    // Every fdatasync of an appended block must send the disk a flush.
    EXPECT_GE(r.metrics["flushes"].get<uint64_t>(), *r.samples)
        << r.metrics.dump();
  }
  EXPECT_FALSE(std::filesystem::exists(scratch_->Join("fsync-append.dat")));
}

TEST_F(FsyncProbeTest, NarrowedRunGivesTheEtcdCheckAndAVerdict) {
  ProbeConfig c = ShortConfig();
  c.fsync_methods = {"fdatasync"};
  c.fsync_sizes = {2300};
  c.fsync_modes = {"prealloc"};
  ProbeRunOutput out = testing::RunProbeIds({"fsync"}, c, *scratch_, env_);
  if (HasFailure()) return;
  ASSERT_EQ(out.results.size(), 1u);
  const ProbeResult& r = out.results[0];
  EXPECT_EQ(r.name, "fsync.fdatasync.2300.prealloc");
  ASSERT_EQ(r.status, ProbeStatus::kOk) << r.error;
  EXPECT_EQ(r.params.method, "fdatasync");
  EXPECT_EQ(r.params.pattern, "prealloc");
  // etcd's recipe: 22 MiB in 2300 B writes, into the file reserved up front.
  EXPECT_GE(r.samples, kEtcdRecipeSyncs);
  ASSERT_TRUE(r.params.file_size_bytes.has_value());
  EXPECT_EQ(*r.params.file_size_bytes, kPreallocSegmentBytes);
  EXPECT_FALSE(std::filesystem::exists(scratch_->Join("fsync-prealloc.dat")));
  nlohmann::json analyses = model::AnalysesToJson(out.analyses);
  ASSERT_TRUE(analyses.contains("checks")) << analyses.dump(2);
  const auto& etcd = analyses["checks"]["etcd"];
  // The gate times the fdatasync call alone, as fio and etcd do.
  ASSERT_TRUE(r.metrics.contains("sync_latency_ns")) << r.metrics.dump();
  uint64_t sync_p99 = r.metrics["sync_latency_ns"]["p99"];
  EXPECT_LE(sync_p99, r.latency_ns->p99);
  EXPECT_EQ(etcd["value_ns"].get<uint64_t>(), sync_p99);
  EXPECT_EQ(etcd["pass"].get<bool>(), sync_p99 < 10000000);
  if (env_.device) {
    ASSERT_TRUE(analyses.contains("durability"));
    EXPECT_EQ(analyses["durability"]["verdicts"].size(), 1u);
    EXPECT_FALSE(analyses["durability"]["rules"].empty());
    ASSERT_TRUE(analyses.contains("write_cache"));
    EXPECT_EQ(analyses["write_cache"]["devices"][0]["disk"], env_.device->disk);
  }
}

TEST_F(FsyncProbeTest, ODirectRefusesAnUnalignedSize) {
  if (!env_.device) GTEST_SKIP() << "no block device behind the build dir";
  FsyncTarget t = ScratchTarget();
  FsyncPoint p = AppendPoint(SyncMethod::kODirectDsync, 2300);
  ProbeResult r;
  ASSERT_TRUE(RunFsyncPoint(t, p, FsyncLimits{}, 1, &r).ok());
  EXPECT_EQ(r.status, ProbeStatus::kSkipped);
  EXPECT_NE(r.reason.find("multiples of the device's logical block"),
            std::string::npos);
}

TEST(FsyncFamilyTest, QuickAndFullPointLists) {
  ProbeConfig quick = ProbeConfig::Defaults(true);
  std::vector<FsyncPoint> q = FsyncFamily(quick, "fsync");
  // Methods x sizes x {append, overwrite}, and etcd's own layout once.
  EXPECT_EQ(q.size(), 6u * 3u * 2u + 1u);
  std::set<std::string> names;
  for (const auto& p : q) names.insert(p.name);
  EXPECT_EQ(names.size(), q.size());
  EXPECT_TRUE(names.count("fsync.fdatasync.2300.append"));
  EXPECT_TRUE(names.count("fsync.fdatasync.2300.prealloc"));
  EXPECT_FALSE(names.count("fsync.fsync.2300.prealloc"));
  EXPECT_TRUE(names.count("fsync.o_dsync.4096.overwrite"));
  EXPECT_TRUE(names.count("fsync.io_uring_fdatasync.16384.append"));
  EXPECT_EQ(PgComparisonPoints(quick).size(), 6u);

  ProbeConfig full = ProbeConfig::Defaults(false);
  EXPECT_EQ(FsyncFamily(full, "fsync").size(), 6u * 6u * 2u + 1u);
  std::vector<FsyncPoint> pg = PgComparisonPoints(full);
  ASSERT_EQ(pg.size(), 9u);
  std::set<std::string> pg_names;
  for (const auto& p : pg) pg_names.insert(p.name);
  for (const char* n : {"fsync.pg.two_8k_writes", "fsync.pg.osync_16x1k",
                        "fsync.pg.fsync_other_fd", "fsync.pg.unsynced"}) {
    EXPECT_TRUE(pg_names.count(n)) << n;
  }

  // Narrowing drops the pg comparisons and keeps just what was asked.
  quick.fsync_methods = {"fdatasync"};
  quick.fsync_sizes = {2300};
  quick.fsync_modes = {"append"};
  ASSERT_EQ(FsyncFamily(quick, "fsync").size(), 1u);
  EXPECT_TRUE(PgComparisonPoints(quick).empty());
  FsyncProbe probe;
  EXPECT_EQ(probe.PointCount(quick), 1);
  quick.write_cache_ab = true;
  quick.fs_matrix = {"ext4", "xfs"};
  EXPECT_EQ(probe.PointCount(quick), 1 + 1 + 2 * 2);

  // Named, the preallocated layout is there for any method and size.
  ProbeConfig named = ProbeConfig::Defaults(true);
  named.fsync_methods = {"fsync"};
  named.fsync_sizes = {4096};
  named.fsync_modes = {"prealloc"};
  std::vector<FsyncPoint> one = FsyncFamily(named, "fsync");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].name, "fsync.fsync.4096.prealloc");
  EXPECT_EQ(one[0].mode, FileMode::kPrealloc);
}

TEST(FsyncFamilyTest, PlanKnowsTheCapsAndTheSyncCost) {
  ProbeConfig quick = ProbeConfig::Defaults(true);
  FsyncProbe probe;
  std::vector<const Probe*> probes = {&probe};
  // The hdd class: 150 write IOPS, so an appended fdatasync (3 I/Os) takes
  // 20 ms; etcd's two points (10,029 syncs each) stop at their one-minute
  // cap, every other point at its 1 s cap (1,000 syncs would take 20 s).
  ThrottleSpec hdd;
  hdd.limits.write_iops = 150;
  ProbeConfig slow = quick;
  PlanForThrottle(hdd, &slow);
  PlanClock clock = PlanProbeRun(probes, slow, 0);
  ASSERT_EQ(clock.size(), static_cast<size_t>(probe.PointCount(quick)));
  FsyncLimits l = FsyncLimitsFor(quick);
  uint64_t etcd = 0, capped = 0;
  for (size_t i = 0; i < clock.size(); i++) {
    uint64_t t = clock.ExpectedNs(i);
    if (t == l.warmup_ns + kEtcdPointCapNs) etcd++;
    if (t == l.warmup_ns + l.max_ns) capped++;
  }
  EXPECT_EQ(etcd, 2u);
  EXPECT_GE(capped + etcd + 1, clock.size());  // the unsynced floor aside
  // A disk that syncs an append in 0.3 ms: etcd's points take 10,029 x 0.3
  // ms, a 1,000-sync point 0.3 s (above its 0.25 s duration).
  ProbeConfig fast = quick;
  fast.sync_io_ns = 0.1e6;
  clock = PlanProbeRun(probes, fast, 0);
  std::vector<FsyncPoint> family = FsyncFamily(quick, "fsync");
  for (size_t i = 0; i < family.size(); i++) {
    if (family[i].name != "fsync.fdatasync.2300.append") continue;
    EXPECT_NEAR(clock.ExpectedNs(i) / 1e9, 3.0 + l.warmup_ns / 1e9, 0.01);
  }
}

// --fsync-duration sets the fsync points' own time, and their cap at 4x it;
// without it they take a quarter of --duration.
TEST(FsyncFamilyTest, FsyncDurationSetsThePointsOwnTime) {
  ProbeConfig c = ProbeConfig::Defaults(true);
  c.duration_ns = 500'000'000;
  FsyncLimits l = FsyncLimitsFor(c);
  EXPECT_EQ(l.duration_ns, 125'000'000u);
  EXPECT_EQ(l.max_ns, 500'000'000u);
  c.fsync_duration_ns = 2'000'000'000;
  l = FsyncLimitsFor(c);
  EXPECT_EQ(l.duration_ns, 2'000'000'000u);
  EXPECT_EQ(l.max_ns, 8'000'000'000u);
  EXPECT_EQ(l.min_ops, 1000u);
  EXPECT_EQ(nlohmann::json(c).at("fsync_duration_ns"), 2'000'000'000u);
}

// A class with a sync floor leaves the sync cost to the run's calibration,
// on the floored device: the IOPS limit alone would not say it.
TEST(FsyncFamilyTest, AFlooredClassCalibratesItsSyncs) {
  ThrottleSpec hdd;
  hdd.limits.write_iops = 150;
  hdd.limits.write_bytes_per_sec = 150'000'000;
  hdd.sync_floor_ns = 8'333'333;
  ProbeConfig c = ProbeConfig::Defaults(true);
  PlanForThrottle(hdd, &c);
  EXPECT_EQ(c.sync_io_ns, 0);
  EXPECT_EQ(c.fill_bytes_per_sec, 150e6);
  hdd.sync_floor_ns = 0;
  PlanForThrottle(hdd, &c);
  EXPECT_NEAR(c.sync_io_ns, 1e9 / 150, 1);
}

TEST(FlushCountersTest, ParsesFields16And17) {
  auto c = ParseDiskStat(
      "   82856     7869  4443386    29770    63579    10175  9353472    40146 "
      "       0    "
      "13552    71326    10827       59  2470808     1210     5831      198");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->writes, 63579u);
  EXPECT_EQ(c->flushes, 5831u);
  EXPECT_EQ(c->flush_ms, 198u);
  auto old = ParseDiskStat("1 2 3 4 5 6 7 8 9 10 11");
  EXPECT_TRUE(old.status().IsNotSupported());
  DeviceInfo d;
  d.chain = {"vda1 (partition of vda)", "vda"};
  d.disk = "vda";
  EXPECT_EQ(FlushDisks(d), std::vector<std::string>{"vda"});
  d.chain = {"loop3 (loop, backing file /x/img)", "vda1 (partition of vda)",
             "vda"};
  EXPECT_EQ(FlushDisks(d), (std::vector<std::string>{"loop3", "vda"}));
}

}  // namespace
}  // namespace disktune
