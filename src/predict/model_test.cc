#include "src/predict/model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "src/model/report.h"
#include "src/predict/attach.h"
#include "src/predict/disk_figures.h"
#include "src/predict/engine_facts.h"

namespace disktune::predict {
namespace {

DiskFigures Disk() {
  DiskFigures d;
  d.sync_ns = 100000;  // 100 us
  d.read_ns = 100000;
  d.read_iops = 50000;
  d.seq_read_Bps = 100e6;
  d.seq_write_Bps = 10e6;
  return d;
}

EngineFacts LevelDb(double cpu_ns) {
  EngineFacts f;
  f.engine = "leveldb";
  f.cpu_ns = cpu_ns;
  f.shape = *ShapeFor("leveldb");
  return f;
}

Workload Make(Kind kind, uint64_t ops, uint64_t distinct) {
  Workload w;
  w.kind = kind;
  w.num = distinct;
  w.ops = ops;
  w.distinct_entries = distinct;
  w.memory_bytes = 24ull << 30;
  return w;
}

TEST(LsmShape, LevelsAndWriteAmplification) {
  LsmShape s = *ShapeFor("leveldb");
  EXPECT_EQ(LsmLevels(s, 3e6), 0);   // within one 4 MiB write buffer
  EXPECT_EQ(LsmLevels(s, 8e6), 1);   // fits level 1 (10 MiB)
  EXPECT_EQ(LsmLevels(s, 50e6), 2);  // level 2 holds up to 100 MiB
  EXPECT_EQ(LsmLevels(s, 1e9), 3);   // level 3 holds up to 1,000 MiB
  EXPECT_DOUBLE_EQ(TableWriteAmplification(s, Kind::kFillSeq, 1e9), 1.0);
  EXPECT_DOUBLE_EQ(TableWriteAmplification(s, Kind::kFillRandom, 50e6),
                   1 + 2 * 5.5);
  EXPECT_FALSE(ShapeFor("lmdb"));
  LsmShape tuned =
      *ShapeFor("leveldb", {{"leveldb.max_file_size", "33554432"}});
  EXPECT_EQ(tuned.table_file_bytes, 32u << 20);
}

TEST(Predict, FillsyncAddsSyncLatencyToCpu) {
  Estimate e =
      Predict(Make(Kind::kFillSync, 1000, 1000), LevelDb(5000), Disk());
  EXPECT_NEAR(e.ops_per_sec, 1e9 / 105000, 1e-6);
  EXPECT_EQ(e.bound, Bound::kSyncLatency);
  Estimate fast =
      Predict(Make(Kind::kFillSync, 1000, 1000), LevelDb(200000), Disk());
  EXPECT_EQ(fast.bound, Bound::kCpu);
}

TEST(Predict, FillrandomIsWriteBandwidthBoundOnASlowDisk) {
  // 757,000 distinct entries x 66 table bytes = 50 MB: two levels, WA 12.
  // The device writes the tables; the WAL is deleted before writeback.
  Workload w = Make(Kind::kFillRandom, 1000000, 757575);
  Estimate e = Predict(w, LevelDb(3000), Disk());
  const double device_bytes = 66 * 12.0;
  EXPECT_NEAR(e.ceilings[1].ops_per_sec, 10e6 / device_bytes, 1e-6);
  EXPECT_EQ(e.ceilings[1].bound, Bound::kWriteBandwidth);
  // Without a measured table sync, the compaction thread's sync of a table
  // writes it back and then flushes: just under the bandwidth's ceiling.
  const double slow_sync = 100000 + (2 << 20) / 10e6 * 1e9;
  EXPECT_NEAR(e.ops_per_sec, 1e9 / (device_bytes * slow_sync / (2 << 20)),
              1e-6);
  EXPECT_LT(e.ops_per_sec, 10e6 / device_bytes);
  EXPECT_EQ(e.bound, Bound::kSyncLatency);
  // The same workload on a fast disk is CPU-bound: the table syncs (792
  // bytes per op of a 2 MiB table's 1.15 ms sync) overlap the writers.
  DiskFigures fast = Disk();
  fast.seq_write_Bps = 2e9;
  Estimate c = Predict(w, LevelDb(3000), fast);
  EXPECT_NEAR(c.ops_per_sec, 1e9 / 3000, 1e-6);
  EXPECT_EQ(c.bound, Bound::kCpu);
  // LevelDB's compaction thread syncs each 2 MiB table it writes: without
  // a measured table sync, a 10 ms flush after writing the file back at 2
  // GB/s. Its ceiling is below the CPU's, and it is the prediction.
  fast.sync_ns = 10e6;
  Estimate s = Predict(w, LevelDb(3000), fast);
  const double file = 2 << 20;
  const double sync_file_ns = 10e6 + file / 2e9 * 1e9;
  const double per_op = 66 * 12.0 * sync_file_ns / file;
  EXPECT_NEAR(s.ops_per_sec, 1e9 / per_op, 1e-6);
  EXPECT_EQ(s.bound, Bound::kSyncLatency);  // 3,853 ns of sync > 3,000 of CPU
  EXPECT_DOUBLE_EQ(s.derived["table_sync_ns"].get<double>(), sync_file_ns);
}

// A measured 2 MiB append + fdatasync is the table's sync, scaled to the
// table's size, never below a small append's sync.
TEST(Predict, AMeasuredTableSyncScalesWithTheTableFile) {
  DiskFigures d = Disk();
  d.sync_ns = 8.5e6;
  d.table_sync_ns = 15e6;
  d.table_sync_bytes = 2 << 20;
  EXPECT_DOUBLE_EQ(TableSyncNs(d, 2 << 20), 15e6);
  EXPECT_DOUBLE_EQ(TableSyncNs(d, 16 << 20), 120e6);
  EXPECT_DOUBLE_EQ(TableSyncNs(d, 256 << 10), 8.5e6);
  d.seq_write_Bps = 150e6;
  Workload w = Make(Kind::kFillRandom, 1000000, 757575);
  EngineFacts f = LevelDb(3300);
  f.measured_write_amplification = 3.95;
  Estimate e = Predict(w, f, d);
  const double table_per_op = 3.95 * 116 - 116;
  const double sync_ceiling = 1e9 / (table_per_op * 15e6 / (2 << 20));
  ASSERT_EQ(e.ceilings.size(), 3u);
  EXPECT_NEAR(e.ceilings[2].ops_per_sec, sync_ceiling, 1e-6);
  // Every ceiling is above the CPU's: the syncs overlap the writers.
  EXPECT_NEAR(e.ops_per_sec, 1e9 / 3300, 1e-6);
  EXPECT_EQ(e.bound, Bound::kCpu);
}

// The write amplification measured in memory replaces the shape's: what is
// not the WAL's is the tables', and the tables are what the device writes.
TEST(Predict, AMeasuredWriteAmplificationReplacesTheShapes) {
  Workload w = Make(Kind::kFillRandom, 1000000, 757575);
  EngineFacts f = LevelDb(3000);
  f.measured_write_amplification = 3.5;  // 406 bytes per 116-byte entry
  DiskFigures slow = Disk();
  slow.table_sync_ns = 1e6;  // a measured 2 MiB sync, far under the transfer
  slow.table_sync_bytes = 2 << 20;
  Estimate e = Predict(w, f, slow);
  EXPECT_NEAR(e.ops_per_sec, 10e6 / (3.5 * 116 - 116), 1e-6);
  EXPECT_EQ(e.bound, Bound::kWriteBandwidth);
  EXPECT_NEAR(e.derived["table_write_amplification"].get<double>(),
              (3.5 * 116 - 116) / 66, 1e-9);
  DiskFigures fast = Disk();
  fast.seq_write_Bps = 2e9;
  fast.sync_ns = 10e6;
  f.cpu_ns = 300;  // so the CPU is not the lowest ceiling
  Estimate s = Predict(w, f, fast);
  const double per_op =
      (3.5 * 116 - 116) * TableSyncNs(fast, 2 << 20) / (2 << 20);
  EXPECT_NEAR(s.ops_per_sec, 1e9 / per_op, 1e-6);
  EXPECT_EQ(s.bound, Bound::kSyncLatency);
}

// A device class charges each request as one of its IOPS: writeback sends
// a 2 MiB table (just past its target size) as 5 requests of at most 512
// KiB, so 150 write IOPS carry 150 x 2 MiB / 5 bytes/s, below the class's
// 150 MB/s.
TEST(Predict, AClassesIopsLimitHoldsTheTablesWriteback) {
  EXPECT_DOUBLE_EQ(StreamBps(150e6, 0, 512 << 10), 150e6);
  EXPECT_DOUBLE_EQ(StreamBps(150e6, 150, 512 << 10), 150.0 * (512 << 10));
  EXPECT_DOUBLE_EQ(StreamBps(150e6, 150, 2 << 20), 150e6);
  DiskFigures d = Disk();
  d.seq_write_Bps = 150e6;
  d.write_iops_limit = 150;
  d.request_bytes = 512 << 10;
  Workload w = Make(Kind::kFillRandom, 1000000, 757575);
  EngineFacts f = LevelDb(2000);
  f.measured_write_amplification = 3.5;
  Estimate e = Predict(w, f, d);
  const double Bps = 150.0 * (2 << 20) / 5;
  EXPECT_NEAR(e.derived["write_bytes_per_sec"].get<double>(), Bps, 1e-6);
  EXPECT_NEAR(e.ops_per_sec, Bps / (3.5 * 116 - 116), 1e-6);
  EXPECT_EQ(e.bound, Bound::kWriteBandwidth);
  // RocksDB's 64 MiB tables: 129 requests of 520 KB.
  f.engine = "rocksdb";
  f.shape = *ShapeFor("rocksdb");
  Estimate r = Predict(w, f, d);
  const double rocks = 150.0 * (64 << 20) / 129;
  EXPECT_NEAR(r.derived["write_bytes_per_sec"].get<double>(), rocks, 1e-6);
}

// A cold scan under a class reads ahead in requests of min(the device's
// largest request, the engine's scan readahead), each one of the IOPS.
TEST(Predict, AColdScanUnderAClassIsHeldByItsReadIops) {
  DiskFigures d = Disk();
  d.seq_read_Bps = 150e6;
  d.read_iops_limit = 150;
  d.request_bytes = 512 << 10;
  d.read_ahead_bytes = 2560 << 10;
  Workload w = Make(Kind::kReadSeqCold, 1000000, 1000000);
  Estimate l = Predict(w, LevelDb(200), d);  // mapped: the kernel's window
  EXPECT_NEAR(l.ops_per_sec, 150.0 * (512 << 10) / 66, 1e-6);
  EXPECT_EQ(l.bound, Bound::kReadBandwidth);
  EngineFacts rocks = LevelDb(200);
  rocks.engine = "rocksdb";
  rocks.shape = *ShapeFor("rocksdb");  // its iterator's 256 KiB readahead
  Estimate r = Predict(w, rocks, d);
  EXPECT_NEAR(r.ops_per_sec, 150.0 * (256 << 10) / 66, 1e-6);
  // Without the limit, the bandwidth alone.
  d.read_iops_limit = 0;
  EXPECT_NEAR(Predict(w, LevelDb(200), d).ops_per_sec, 150e6 / 66, 1e-6);
}

TEST(Attach, CalibratedWriteAmplificationForUnsyncedFills) {
  CalibrationPoint cal{"leveldb", "fillrandom", 1, 1000, 1000, 2000, {}};
  Workload w = Make(Kind::kFillRandom, 1000, 1000);
  EXPECT_FALSE(CalibratedWriteAmplification(w, cal));
  cal.write_call_bytes_per_op = 431;
  EXPECT_NEAR(*CalibratedWriteAmplification(w, cal), 431.0 / 116, 1e-12);
  w.kind = Kind::kFillSync;
  EXPECT_FALSE(CalibratedWriteAmplification(w, cal));
  w.kind = Kind::kReadRandom;
  EXPECT_FALSE(CalibratedWriteAmplification(w, cal));
}

TEST(Predict, ColdReadrandomCountsFirstTouches) {
  // 40 MB of tables = 305 read-around windows of 128 KiB (LevelDB maps its
  // tables; the device's readahead is not known here), two levels: 1,000
  // lookups touch 2,000 windows, of which B (1 - e^(-2000 / B)) are
  // distinct. A miss reads its first 4 KiB at the QD1 latency and streams
  // the rest at the sequential bandwidth.
  Workload w = Make(Kind::kReadRandomCold, 1000, 606060);
  const double blocks = 606060 * 66.0 / (128 << 10);
  const double misses = blocks * (1 - std::exp(-2000 / blocks)) / 1000;
  EXPECT_NEAR(ReadMissesPerOp(w, *ShapeFor("leveldb"), 606060 * 66.0, Disk()),
              misses, 1e-9);
  const double miss_ns = 100000 + ((128 << 10) - 4096) / 100e6 * 1e9;
  EXPECT_NEAR(MissNs(w, *ShapeFor("leveldb"), Disk()), miss_ns, 1e-6);
  Estimate e = Predict(w, LevelDb(2000), Disk());
  EXPECT_NEAR(e.ops_per_sec, 1e9 / (2000 + misses * miss_ns), 1e-6);
  EXPECT_EQ(e.bound, Bound::kReadIops);
}

// The read-around window is the device's readahead, no more than the table
// file; under a class each of its requests is one of the read IOPS.
TEST(Predict, AColdMissReadsTheDevicesWindowUpToTheTable) {
  DiskFigures d = Disk();
  d.read_ahead_bytes = 8192 << 10;
  const Workload w = Make(Kind::kReadRandomCold, 1000, 606060);
  const LsmShape leveldb = *ShapeFor("leveldb");
  EXPECT_DOUBLE_EQ(ColdReadUnitBytes(w, leveldb, d), 2 << 20);
  d.read_ahead_bytes = 256 << 10;
  EXPECT_DOUBLE_EQ(ColdReadUnitBytes(w, leveldb, d), 256 << 10);
  // RocksDB's 4 KiB block is 4096 x 66 / 116 bytes on disk.
  EXPECT_DOUBLE_EQ(ColdReadUnitBytes(w, *ShapeFor("rocksdb"), d),
                   4096 + 4096 * 66.0 / 116 / 2);
  d.read_ahead_bytes = 2560 << 10;
  d.read_ns = 1e9 / 150;
  d.seq_read_Bps = 150e6;
  d.read_iops_limit = 150;
  d.request_bytes = 512 << 10;
  const double rest = (2 << 20) - 4096;
  EXPECT_NEAR(MissNs(w, leveldb, d),
              1e9 / 150 + rest / (150.0 * (512 << 10)) * 1e9, 1e-3);
}

TEST(Predict, ColdReadsOfRocksDbMissOneBlockEach) {
  // RocksDB preads 4 KiB blocks of 2,330 bytes on disk: a miss brings in
  // 4096 + 2330 / 2 bytes, so the same 40 MB is 7,603 units.
  Workload w = Make(Kind::kReadRandomCold, 1000, 606060);
  LsmShape shape =
      *ShapeFor("rocksdb", {{"rocksdb.write_buffer_size", "4194304"}});
  const double data = 606060 * 66.0;
  const double k = LsmLevels(shape, data);
  ASSERT_GE(k, 1);
  const double blocks = data / (4096 + 4096 * 66.0 / 116 / 2);
  EXPECT_NEAR(ReadMissesPerOp(w, shape, data, Disk()),
              blocks * (1 - std::exp(-1000 * k / blocks)) / 1000, 1e-9);
}

TEST(Predict, ColdReadsOfDataStillInTheWriteBufferHitMemory) {
  // 200,000 entries (13 MB of table bytes) fit RocksDB's 64 MiB write
  // buffer: the reopen replays them into the memtable.
  Workload w = Make(Kind::kReadRandomCold, 5000, 200000);
  EXPECT_EQ(ReadMissesPerOp(w, *ShapeFor("rocksdb"), 200000 * 66.0, Disk()), 0);
}

TEST(Predict, WarmReadsThatFitInMemoryAreCpuBound) {
  Workload w = Make(Kind::kReadRandom, 1000000, 1000000);
  Estimate e = Predict(w, LevelDb(2500), Disk());
  EXPECT_NEAR(e.ops_per_sec, 400000, 1e-6);
  EXPECT_EQ(e.bound, Bound::kCpu);
  // With 33 MB of memory for 66 MB of tables, half the lookups at each of
  // the two levels miss.
  w.memory_bytes = 33000000;
  Estimate half = Predict(w, LevelDb(2500), Disk());
  EXPECT_NEAR(half.ops_per_sec,
              1e9 / (2500 + 1.0 * MissNs(w, *ShapeFor("leveldb"), Disk())),
              1e-6);
}

TEST(Predict, ColdReadseqIsBoundBySequentialBandwidth) {
  Workload w = Make(Kind::kReadSeqCold, 1000000, 1000000);
  Estimate e = Predict(w, LevelDb(200), Disk());
  EXPECT_NEAR(e.ops_per_sec, 100e6 / 66, 1e-6);
  EXPECT_EQ(e.bound, Bound::kReadBandwidth);
}

TEST(DiskFigures, FromAStoredProbeResult) {
  auto report = ReadReportFile(std::string(DISKTUNE_TEST_SOURCE_DIR) +
                               "/src/predict/testdata/probe_native.json");
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  auto d = DiskFiguresFromProbes(report->probes);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_NEAR(d->sync_ns, 105277.46, 0.01);  // the 512 B append's mean
  EXPECT_NEAR(d->read_ns, 29127.23, 0.01);
  EXPECT_NEAR(d->read_iops, 105115.88, 0.01);  // queue depth 32
  EXPECT_NEAR(d->seq_read_Bps, 1087334553.0, 1);
  EXPECT_NEAR(d->seq_write_Bps, 2122990847.9, 1);  // the better of qd1, qd32
  ASSERT_FALSE(d->source.empty());
  EXPECT_EQ(d->source[0].second, "fsync.fdatasync.512.append");

  std::vector<ProbeResult> no_sync;
  for (const ProbeResult& p : report->probes) {
    if (p.probe != "fsync") no_sync.push_back(p);
  }
  std::vector<std::string> names;
  auto missing = DiskFiguresFromProbes(no_sync, &names);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("fdatasync append"),
            std::string::npos);
  EXPECT_NE(missing.status().message().find("disktune probe"),
            std::string::npos);
  // The names alone, for `fleet`'s "not predicted: missing ..." line.
  EXPECT_EQ(names, std::vector<std::string>{"an fsync fdatasync append point"});
  no_sync.erase(std::remove_if(no_sync.begin(), no_sync.end(),
                               [](const ProbeResult& p) {
                                 return p.probe == "seq_write";
                               }),
                no_sync.end());
  ASSERT_FALSE(DiskFiguresFromProbes(no_sync, &names).ok());
  EXPECT_EQ(names, (std::vector<std::string>{"an fsync fdatasync append point",
                                             "seq_write.1m"}));
}

// The hdd class's limits hold a short probe's burst to what a run sustains;
// a figure already below its limit is left as measured, and the native
// disk (no throttle recorded) is never capped.
TEST(DiskFigures, ClassLimitsCapWhatAShortProbeBurstPast) {
  DiskFigures d;
  d.sync_ns = 8.5e6;
  d.read_ns = 5.7e6;  // 175 reads/s at QD1: above 150 IOPS
  d.read_iops = 175;
  d.seq_read_Bps = 120e6;  // below the 150 MB/s read limit
  d.seq_write_Bps = 241e6;
  ThrottleLimits hdd;
  hdd.read_iops = hdd.write_iops = 150;
  hdd.read_bytes_per_sec = hdd.write_bytes_per_sec = 150000000;
  CapToThrottle(hdd, &d);
  EXPECT_DOUBLE_EQ(d.seq_write_Bps, 150e6);
  EXPECT_DOUBLE_EQ(d.seq_read_Bps, 120e6);
  EXPECT_DOUBLE_EQ(d.read_iops, 150);
  EXPECT_DOUBLE_EQ(d.read_ns, 1e9 / 150);
  EXPECT_DOUBLE_EQ(d.sync_ns, 8.5e6);
  ASSERT_EQ(d.capped.size(), 3u);
  EXPECT_EQ(d.capped[0].figure, "seq_write_bytes_per_sec");
  EXPECT_DOUBLE_EQ(d.capped[0].measured, 241e6);
  EXPECT_DOUBLE_EQ(d.capped[0].limit, 150e6);
  nlohmann::json j = DiskFiguresToJson(d);
  EXPECT_EQ(j["capped_by_throttle"]["read_latency_ns"]["measured"], 5.7e6);

  // IOPS alone bind 1 MiB requests: 100 x 1 MiB.
  ThrottleLimits iops_only;
  iops_only.write_iops = 100;
  DiskFigures w;
  w.seq_write_Bps = 500e6;
  CapToThrottle(iops_only, &w);
  EXPECT_DOUBLE_EQ(w.seq_write_Bps, 100.0 * (1 << 20));

  auto report = ReadReportFile(std::string(DISKTUNE_TEST_SOURCE_DIR) +
                               "/src/predict/testdata/probe_native.json");
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  ASSERT_FALSE(report->environment.throttle);
  auto native = DiskFiguresFromRun(report->probes, report->environment);
  ASSERT_TRUE(native.ok());
  EXPECT_TRUE(native->capped.empty());
  EXPECT_FALSE(DiskFiguresToJson(*native).contains("capped_by_throttle"));
  EXPECT_FALSE(DiskFiguresToJson(*native).contains("write_iops_limit"));
}

// Under a class, the figures carry its IOPS limits and its loop device's
// request geometry, as the throttle record has them; without a class, the
// device's readahead alone.
TEST(DiskFigures, AClassBringsWhatEachRequestCosts) {
  auto report = ReadReportFile(std::string(DISKTUNE_TEST_SOURCE_DIR) +
                               "/src/predict/testdata/probe_native.json");
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  Environment env = report->environment;
  DeviceInfo device = env.device.value_or(DeviceInfo{});
  device.read_ahead_kb = 8192;
  env.device = device;
  auto native = DiskFiguresFromRun(report->probes, env);
  ASSERT_TRUE(native.ok());
  EXPECT_DOUBLE_EQ(native->read_ahead_bytes, 8192.0 * 1024);
  EXPECT_DOUBLE_EQ(native->write_iops_limit, 0);

  ThrottleRecord t;
  t.spec.class_name = "hdd";
  t.spec.limits.read_iops = t.spec.limits.write_iops = 150;
  t.request_bytes = 512 << 10;
  t.read_ahead_bytes = 2560 << 10;
  // The record keeps the geometry through its JSON.
  nlohmann::json tj = t;
  EXPECT_EQ(tj["request_bytes"], 512 << 10);
  t = tj.get<ThrottleRecord>();
  env.throttle = t;
  auto hdd = DiskFiguresFromRun(report->probes, env);
  ASSERT_TRUE(hdd.ok());
  EXPECT_DOUBLE_EQ(hdd->read_iops_limit, 150);
  EXPECT_DOUBLE_EQ(hdd->write_iops_limit, 150);
  EXPECT_DOUBLE_EQ(hdd->request_bytes, 512 << 10);
  EXPECT_DOUBLE_EQ(hdd->read_ahead_bytes, 2560 << 10);
  nlohmann::json j = DiskFiguresToJson(*hdd);
  EXPECT_EQ(j["write_iops_limit"], 150);
  EXPECT_EQ(j["request_bytes"], 512 << 10);
}

bench::BenchResult Result(const std::string& scenario, double measured) {
  bench::BenchResult r;
  r.engine = "rocksdb";
  r.scenario = scenario;
  r.step = 1;
  r.params.num = 100000;
  r.params.ops = 100000;
  r.metrics.ops = 100000;
  r.metrics.ops_per_sec = measured;
  return r;
}

TEST(Attach, RatioAndCause) {
  Calibration cal;
  cal.cpu_model = "cpu A";
  cal.points.push_back({"rocksdb", "fillrandom", 1, 100000, 100000, 5000, {}});
  SystemInfo sys;
  sys.cpu_model = "cpu A";
  sys.cpu_count = 2;
  sys.memory_available_bytes = 24ull << 30;
  DiskFigures fast = Disk();
  fast.seq_write_Bps = 2e9;
  std::vector<bench::BenchResult> rs = {Result("fillrandom", 100000),
                                        Result("ycsb-a", 1000)};
  rs[0].engine_stats = "Cumulative stall: 00:00:3.000 H:M:S, 40.5 percent\n";
  AttachPredictions(fast, cal, sys, &rs);
  ASSERT_TRUE(rs[0].prediction);
  EXPECT_NEAR(rs[0].prediction->ops_per_sec, 200000, 1e-6);
  EXPECT_EQ(rs[0].prediction->bound, "cpu");
  EXPECT_NEAR(*rs[0].prediction->measured_over_predicted, 0.5, 1e-9);
  EXPECT_NE(rs[0].prediction->miss_cause.find("write stall"),
            std::string::npos);
  EXPECT_FALSE(rs[1].prediction);  // no model for YCSB

  // Within 25%: no cause; another CPU named when it misses.
  rs[0].engine_stats.clear();
  rs[0].metrics.ops_per_sec = 190000;
  rs[0].prediction.reset();
  AttachPredictions(fast, cal, sys, &rs);
  EXPECT_EQ(rs[0].prediction->miss_cause, "");
  sys.cpu_model = "cpu B";
  rs[0].metrics.ops_per_sec = 50000;
  AttachPredictions(fast, cal, sys, &rs);
  EXPECT_NE(rs[0].prediction->miss_cause.find("calibrated on cpu A"),
            std::string::npos);
}

// A write figure bound by the device names the engine's own write share
// when it differs from the calibration's in the direction of the miss.
TEST(Attach, AWriteShareOtherThanInMemoryIsTheCause) {
  bench::BenchResult r = Result("fillrandom", 150000);
  r.metrics.user_write_bytes = 116'000'000;
  r.metrics.write_call_bytes = 352'000'000;  // 3.03 per user byte
  bench::Prediction p;
  p.ops_per_sec = 100000;
  p.bound = "write_bandwidth";
  p.measured_over_predicted = 1.5;
  p.inputs["engine"]["measured_write_amplification"] = 4.2;
  const std::string cause = MissCause(r, p, "", SystemInfo{});
  EXPECT_NE(cause.find("write amplification: the engine passed 3.03 bytes"),
            std::string::npos)
      << cause;
  EXPECT_NE(cause.find("4.20 in the in-memory calibration"), std::string::npos);
  // The other direction does not explain a figure faster than predicted.
  p.inputs["engine"]["measured_write_amplification"] = 2.5;
  EXPECT_EQ(MissCause(r, p, "", SystemInfo{}).find("write amplification"),
            std::string::npos);
  // Nor does a CPU-bound figure.
  p.inputs["engine"]["measured_write_amplification"] = 4.2;
  p.bound = "cpu";
  EXPECT_EQ(MissCause(r, p, "", SystemInfo{}).find("write amplification"),
            std::string::npos);
}

}  // namespace
}  // namespace disktune::predict
