// `--throttle` as an operator meets it: bad syntax refused in one line with
// nothing made; SIGINT during a throttled probe ends it with the cgroup,
// mount, loop device and image gone; SIGKILL, then `disktune restore`,
// removes them; on the hdd class, LevelDB's and RocksDB's fillsync pay at
// least one revolution per synced write, and the report says how; a
// throttled probe accounts for each probe family's bytes, and the parts sum
// to the run's total; --fs-matrix is refused under --throttle, and so is
// a --probe-result measured without it. Root,
// loop devices and cgroup v1 blkio are needed; the tests skip with the
// reason otherwise.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "probes/cgroup_throttle.h"
#include "probes/durability_test_util.h"
#include "src/core/sysinfo.h"
#include "src/model/throttle_spec.h"
#include "tests/binary_runner.h"
#include "tests/throttle_test_fixture.h"

namespace disktune {
namespace {

namespace fs = std::filesystem;
using testing::BackgroundRun;
using testing::RunDisktune;
using testing_util::LoopsMention;
using testing_util::MountsMention;

class ThrottleCliTest : public testing_util::ThrottleTest {
 protected:
  ThrottleCliTest() : ThrottleTest("throttle_cli_test") {}
  std::string Cgroup(pid_t pid) const {
    return FindCgroupMounts().v1_blkio + "/disktune-throttle-" +
           std::to_string(pid);
  }
  // Starts a throttled probe long enough to be signalled; true once the
  // process is inside its cgroup.
  bool StartThrottled(std::unique_ptr<BackgroundRun>* run) {
    *run = std::make_unique<BackgroundRun>(std::vector<std::string>{
        "probe", "--throttle", "riops=200,wiops=200", "--probes", "rand_read",
        "--duration", "60s", "--dir", dir_ + "/scratch"});
    std::string procs = Cgroup((*run)->pid()) + "/cgroup.procs";
    for (int i = 0; i < 1200; i++) {
      Result<std::string> p = ReadTextFile(procs);
      if (p.ok() && p->find(std::to_string((*run)->pid())) != std::string::npos)
        return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }
  void ExpectNothingLeft(pid_t pid) { ExpectClassGone(Cgroup(pid)); }
};

TEST_F(ThrottleCliTest, BadSyntaxIsOneLineAndMakesNothing) {
  testing::RunOutput r = RunDisktune(
      {"probe", "--throttle", "riops=fast", "--dir", dir_ + "/scratch"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(testing::CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("valid: hdd, cloud"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ + "/scratch"));
}

// A probe result measured without the class describes another disk: tune
// and bench refuse it before anything is made (no root needed to refuse).
TEST_F(ThrottleCliTest, AProbeResultFromAnotherDiskIsOneLineAndMakesNothing) {
  const std::string native =
      testing::SourceDir() + "/src/predict/testdata/probe_native.json";
  const std::vector<std::vector<std::string>> commands = {
      {"tune", "--engine", "leveldb", "--workload", "write-heavy"},
      {"bench", "--engine", "leveldb", "--scenario", "fillsync"}};
  for (std::vector<std::string> args : commands) {
    for (const std::string& a : {std::string("--throttle"), std::string("hdd"),
                                 std::string("--probe-result"), native,
                                 std::string("--dir"), dir_ + "/scratch"}) {
      args.push_back(a);
    }
    testing::RunOutput r = RunDisktune(args);
    EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.err;
    EXPECT_EQ(testing::CountLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("was measured without --throttle, and this run is "
                         "under --throttle hdd"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(dir_ + "/scratch")) << args[0];
  }
}

TEST_F(ThrottleCliTest, SigintRemovesCgroupMountLoopAndImage) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  std::unique_ptr<BackgroundRun> run;
  ASSERT_TRUE(StartThrottled(&run)) << "the probe never entered its cgroup";
  pid_t pid = run->pid();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  auto start = std::chrono::steady_clock::now();
  run->Signal(SIGINT);
  testing::RunOutput r = run->Wait();
  double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_LT(secs, 5.0);
  ExpectNothingLeft(pid);
}

TEST_F(ThrottleCliTest, SigkillThenRestoreRemovesEverything) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  std::unique_ptr<BackgroundRun> run;
  ASSERT_TRUE(StartThrottled(&run)) << "the probe never entered its cgroup";
  pid_t pid = run->pid();
  run->Signal(SIGKILL);
  run->Wait();
  ASSERT_TRUE(fs::exists(Cgroup(pid))) << "a SIGKILL leaves the cgroup";
  ASSERT_TRUE(MountsMention(dir_));
  testing::RunOutput r = RunDisktune({"restore"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("removed cgroup"), std::string::npos) << r.out;
  // The scratch directory itself is the killed run's; restore removes what
  // the journal lists (image, loop, mount, cgroup), not the directory.
  fs::remove_all(dir_ + "/scratch");
  ExpectNothingLeft(pid);
}

// fillsync at 50 synced writes per engine (--num 50000: db_bench's
// num/1000) on hdd: every op of LevelDB and RocksDB takes at least the
// class's sync floor, the engines record it, and the report says how the
// class emulates sync latency and for which engines.
TEST_F(ThrottleCliTest, FillsyncOnHddPaysTheSyncFloor) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  const uint64_t floor = ParseThrottle("hdd")->sync_floor_ns;
  std::string json = dir_ + "/bench.json";
  testing::RunOutput r =
      RunDisktune({"bench", "--throttle", "hdd", "--engine", "leveldb,rocksdb",
                   "--scenario", "fillsync", "--num", "50000", "--json", json,
                   "--dir", dir_ + "/scratch"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("emulates rates and sync latency (8.33 ms per sync, by "
                       "a software floor"),
            std::string::npos)
      << r.out;
  std::ifstream in(json);
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  const auto& t = j["environment"]["throttle"];
  EXPECT_EQ(t["sync_floor_ns"].get<uint64_t>(), floor);
  EXPECT_EQ(t["emulates"], nlohmann::json({"rates", "sync_latency"}));
  EXPECT_EQ(t["sync_latency_engines"], nlohmann::json({"leveldb", "rocksdb"}));
  std::set<std::string> seen;
  for (const auto& b : j["benches"]) {
    if (b.value("scenario", "") != "fillsync") continue;
    std::string engine = b["engine"];
    seen.insert(engine);
    ASSERT_EQ(b.value("status", ""), "ok") << b.dump();
    double us = b["metrics"]["micros_per_op"];
    EXPECT_GE(us * 1000, static_cast<double>(floor)) << engine;
    EXPECT_NE(b["engine_settings"].dump().find(engine + ".sync_floor"),
              std::string::npos)
        << b["engine_settings"].dump();
  }
  EXPECT_EQ(seen, (std::set<std::string>{"leveldb", "rocksdb"}));
  EXPECT_FALSE(MountsMention(dir_));
  EXPECT_FALSE(LoopsMention(dir_));
}

// tune on a class writes its JSON after the class's device is put back: the
// report names the scratch directory the trials ran in and the class, and
// the profile records it.
TEST_F(ThrottleCliTest, TuneOnAClassWritesItsReport) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  std::string json = dir_ + "/tune.json";
  std::string profile = dir_ + "/profile.json";
  testing::RunOutput r =
      RunDisktune({"tune", "--throttle", "hdd", "--engine", "leveldb",
                   "--workload", "write-heavy", "--memory-budget", "64MiB",
                   "--time-budget", "30s", "--data-size", "16MiB", "--json",
                   json, "--out", profile, "--dir", dir_ + "/scratch"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(json);
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_NE(j["config"].value("scratch_dir", "").find("throttle-"),
            std::string::npos)
      << j["config"].dump();
  EXPECT_EQ(j["environment"]["throttle"].value("class", ""), "hdd")
      << j["environment"]["throttle"].dump();
  EXPECT_FALSE(MountsMention(dir_));
  EXPECT_FALSE(LoopsMention(dir_));
}

// Per-probe accounting: each family's window and the test file's fill are
// recorded, lie within the run's total, and leave of it only the run's I/O
// outside the probes (set-up, environment, removal: well under 16 MiB).
// The families' bytes are direct I/O of the run's own threads, so charged.
TEST_F(ThrottleCliTest, ProbeAccountingSumsToTheRunsTotal) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  std::string json = dir_ + "/probe.json";
  testing::RunOutput r =
      RunDisktune({"probe", "--throttle", "iops=2000,bps=100MB", "--probes",
                   "seq_read,seq_write", "--measure-with", "native",
                   "--file-size", "64MiB", "--duration", "1s", "--warmup",
                   "100ms", "--json", json, "--dir", dir_ + "/scratch"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(json);
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  const nlohmann::json& total = j["environment"]["throttle"]["accounting"];
  const nlohmann::json& by = j["analyses"]["throttle_by_probe"];
  ASSERT_TRUE(by.is_object()) << j["analyses"].dump();
  ASSERT_EQ(by["probes"].size(), 2u) << by.dump();
  EXPECT_EQ(by["probes"][0]["probe"], "seq_read");
  EXPECT_EQ(by["probes"][0]["points"], 2);
  EXPECT_EQ(by["probes"][1]["probe"], "seq_write");
  EXPECT_GE(by["test_file_fill"]["device_write_bytes"].get<uint64_t>(),
            64ull << 20);
  auto device = [](const nlohmann::json& a) {
    return a["device_read_bytes"].get<uint64_t>() +
           a["device_write_bytes"].get<uint64_t>();
  };
  auto charged = [](const nlohmann::json& a) {
    return a["charged_read_bytes"].get<uint64_t>() +
           a["charged_write_bytes"].get<uint64_t>();
  };
  uint64_t parts_device = device(by["test_file_fill"]);
  uint64_t parts_charged = charged(by["test_file_fill"]);
  for (const nlohmann::json& p : by["probes"]) {
    parts_device += device(p);
    parts_charged += charged(p);
    EXPECT_GT(device(p), 0u) << p.dump();
    EXPECT_LE(p["escaped_bytes"].get<uint64_t>(), device(p) / 20) << p.dump();
  }
  EXPECT_LE(parts_device, device(total)) << by.dump() << total.dump();
  EXPECT_LE(parts_charged, charged(total)) << by.dump() << total.dump();
  EXPECT_LT(device(total) - parts_device, 16ull << 20)
      << by.dump() << total.dump();
  EXPECT_NE(r.out.find("  throttle, seq_write (2 points): "), std::string::npos)
      << r.out;
  EXPECT_FALSE(MountsMention(dir_));
  EXPECT_FALSE(LoopsMention(dir_));
}

// --fs-matrix makes loop devices of its own inside the throttled
// filesystem; the cgroup does not limit them and the class's sync floor
// does not reach them (benchmarks/README.md), so the combination is refused
// in one line, before anything is made.
TEST_F(ThrottleCliTest, FsMatrixIsRefusedUnderThrottle) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  const std::vector<std::string> common = {
      "--throttle", "hdd", "--fs-matrix", "ext4", "--dir", dir_ + "/scratch"};
  const std::vector<std::vector<std::string>> commands = {
      {"probe"},
      {"probe", "--write-cache-ab"},
      {"run", "--quick", "--out", dir_ + "/out"}};
  for (const std::vector<std::string>& command : commands) {
    std::vector<std::string> args = command;
    args.insert(args.end(), common.begin(), common.end());
    testing::RunOutput r = RunDisktune(args);
    EXPECT_EQ(r.exit_code, 2) << command[0] << ": " << r.err;
    EXPECT_EQ(testing::CountLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("--fs-matrix cannot run under --throttle: "),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("; run it without --throttle"), std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(dir_ + "/scratch")) << command[0];
    EXPECT_FALSE(fs::exists(dir_ + "/out")) << command[0];
    EXPECT_FALSE(LoopsMention(dir_));
  }
}

// Under a class with a sync floor (hdd) both halves of --write-cache-ab
// measure the floor, so the A/B is refused; without a floor it runs.
TEST_F(ThrottleCliTest, WriteCacheAbIsRefusedUnderASyncFloor) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  testing::RunOutput r =
      RunDisktune({"probe", "--throttle", "hdd", "--probes", "fsync",
                   "--write-cache-ab", "--dir", dir_ + "/scratch"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(testing::CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("--write-cache-ab cannot run under a --throttle with a "
                       "sync floor: "),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("add sync=none"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ + "/scratch"));
  EXPECT_FALSE(LoopsMention(dir_));
}

}  // namespace
}  // namespace disktune
