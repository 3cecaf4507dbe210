// The command line as an operator meets it: help, version, JSON on stdout,
// and every bad-input row of the safety table — one clear line, a non-zero
// exit, and nothing left behind.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "reports/schema_validator.h"
#include "tests/binary_runner.h"
#include "tests/test_support.h"

namespace disktune::testing {
namespace {
namespace fs = std::filesystem;

// A short probe so the integration tests stay quick.
const std::vector<std::string> kShort = {
    "--duration",  "200ms", "--warmup",       "50ms",
    "--file-size", "32MiB", "--queue-depths", "1,4"};

std::vector<std::string> With(std::vector<std::string> a,
                              const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

class CliTest : public WorkDirTest {
 protected:
  CliTest() : WorkDirTest("cli_test_") {}
  void TearDown() override {
    for (const auto& m : mounts_) umount2(m.c_str(), MNT_DETACH);
    WorkDirTest::TearDown();
  }
  // The bad-input contract, run in the test's directory.
  void ExpectOneLineError(const std::vector<std::string>& args, int code,
                          const std::string& needle) {
    testing::ExpectOneLineError(args, work_, code, needle);
  }
  bool MountTmpfs(const std::string& dir, const char* opts) {
    if (geteuid() != 0) return false;
    fs::create_directories(dir);
    if (mount("tmpfs", dir.c_str(), "tmpfs", 0, opts) != 0) return false;
    mounts_.push_back(dir);
    return true;
  }
  std::vector<std::string> mounts_;
};

TEST_F(CliTest, VersionAndHelp) {
  RunOutput v = RunDisktune({"--version"});
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.out.rfind("disktune ", 0), 0u) << v.out;
  RunOutput h = RunDisktune({"--help"});
  EXPECT_EQ(h.exit_code, 0);
  for (const char* cmd : {"probe", "run", "list"}) {
    EXPECT_NE(h.out.find(cmd), std::string::npos) << cmd;
    RunOutput sub = RunDisktune({cmd, "--help"});
    EXPECT_EQ(sub.exit_code, 0) << cmd;
    EXPECT_NE(sub.out.find("--json"), std::string::npos)
        << cmd << ": " << sub.out;
  }
}

TEST_F(CliTest, UnknownFlagAndCommand) {
  ExpectOneLineError({"probe", "--no-such-flag"}, 2, "--no-such-flag");
  ExpectOneLineError({"frobnicate"}, 2,
                     "unknown command 'frobnicate'; valid: ");
  ExpectOneLineError({"probe", "--probes", "seq_read,warp_drive"}, 2,
                     "warp_drive");
}

TEST_F(CliTest, UnitlessAndNegativeValues) {
  ExpectOneLineError({"probe", "--duration", "5"}, 2,
                     "--duration: '5' has no unit; e.g. --duration 5s");
  ExpectOneLineError({"probe", "--duration", "-5s"}, 2, "negative");
  ExpectOneLineError({"probe", "--file-size", "4096"}, 2,
                     "e.g. --file-size 1GiB");
  ExpectOneLineError({"probe", "--file-size", "-1GiB"}, 2, "negative");
  ExpectOneLineError({"probe", "--warmup", "soon"}, 2, "--warmup");
  ExpectOneLineError({"probe", "--queue-depths", "0,4"}, 2, "--queue-depths");
}

TEST_F(CliTest, MeasureWithNamesAnEngine) {
  ExpectOneLineError({"probe", "--measure-with", "fastest"}, 2,
                     "--measure-with: 'fastest' is not auto, native or fio");
  ExpectOneLineError({"probe", "--measure-with", "fio", "--with-fio"}, 2,
                     "--with-fio compares the native loop with fio");
  RunOutput h = RunDisktune({"probe", "--help"});
  EXPECT_NE(h.out.find("--measure-with"), std::string::npos) << h.out;
}

TEST_F(CliTest, DirUnderMissingParent) {
  ExpectOneLineError(With({"probe", "--dir", "no/such/parent"}, kShort), 2,
                     "parent directory");
}

TEST_F(CliTest, DirThatIsAFile) {
  std::ofstream(work_ + "/afile") << "x";
  ExpectOneLineError(With({"probe", "--dir", "afile"}, kShort), 2, "is a file");
}

TEST_F(CliTest, ReadOnlyDirectory) {
  std::string ro = work_ + "/ro";
  if (geteuid() == 0) {
    // Root ignores permission bits; a read-only mount is read-only for root
    // too.
    if (!MountTmpfs(ro, "size=1m")) GTEST_SKIP() << "cannot mount tmpfs";
    ASSERT_EQ(
        mount(nullptr, ro.c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr),
        0);
  } else {
    fs::create_directory(ro);
    chmod(ro.c_str(), 0555);
  }
  ExpectOneLineError(With({"probe", "--dir", "ro"}, kShort), 2, "not writable");
}

TEST_F(CliTest, TooLittleFreeSpace) {
  ExpectOneLineError({"probe", "--dir", "d", "--file-size", "100TiB"}, 2,
                     "needs");
}

TEST_F(CliTest, BadEngineSetting) {
  ExpectOneLineError({"bench", "--engine", "lmdb", "--scenario", "fillseq",
                      "--engine-setting", "lmdb.writemap=maybe"},
                     2, "one of on|off");
  ExpectOneLineError({"bench", "--engine", "lmdb", "--scenario", "fillseq",
                      "--engine-setting", "lmdb.nosuch=on"},
                     2, "lmdb.writemap");
}

TEST_F(CliTest, TmpfsRefusesDirectIo) {
  std::string t = work_ + "/tmp";
  if (!MountTmpfs(t, "size=256m"))
    GTEST_SKIP() << "needs root to mount a tmpfs";
  auto before = ListDir(t);
  RunOutput r = RunDisktune(With({"probe", "--dir", "tmp/d"}, kShort), work_);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("tmpfs"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("O_DIRECT"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--buffered"), std::string::npos) << r.err;
  EXPECT_EQ(ListDir(t), before);
  // Asked for explicitly, it measures buffered I/O and says so.
  RunOutput b = RunDisktune(With({"probe", "--dir", "tmp/d", "--buffered",
                                  "--probes", "seq_read", "--json", "-"},
                                 kShort),
                            work_);
  ASSERT_EQ(b.exit_code, 0) << b.err;
  auto j = nlohmann::json::parse(b.out);
  ASSERT_FALSE(j["probes"].empty());
  EXPECT_FALSE(j["probes"][0]["params"]["direct"].get<bool>());
  EXPECT_NE(
      j["probes"][0]["params"]["note"].get<std::string>().find("page cache"),
      std::string::npos);
  EXPECT_EQ(ListDir(t), before);
}

TEST_F(CliTest, JsonOnStdoutIsTheWholeStdoutAndMatchesTheSchema) {
  RunOutput r = RunDisktune(
      With({"probe", "--dir", "d", "--probes",
            "seq_read,rand_read,seq_write,rand_write", "--json", "-"},
           kShort),
      work_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded())
      << "stdout is not only JSON: " << r.out.substr(0, 200);
  std::ifstream in(SourceDir() + "/reports/schema/report.v1.schema.json");
  std::stringstream ss;
  ss << in.rdbuf();
  auto errors = ValidateAgainstSchema(nlohmann::json::parse(ss.str()), j);
  EXPECT_TRUE(errors.empty()) << errors.front();
  // Every field the issue names is present.
  for (const char* k :
       {"schema", "schema_version", "tool_version", "created_at", "environment",
        "config", "probes", "warnings"}) {
    EXPECT_TRUE(j.contains(k)) << k;
  }
  const auto& env = j["environment"];
  for (const char* k : {"hostname", "kernel", "cpu_model", "cpu_count",
                        "memory_bytes", "target_dir", "filesystem"}) {
    EXPECT_TRUE(env.contains(k)) << k;
  }
  EXPECT_EQ(j["probes"].size(), 2u + 2u + 2u + 2u);
  for (const auto& p : j["probes"]) {
    ASSERT_EQ(p["status"], "ok") << p.dump();
    for (const char* k : {"iops", "bytes_per_sec", "latency_ns", "samples"}) {
      EXPECT_TRUE(p.contains(k)) << p["name"] << " lacks " << k;
    }
  }
  EXPECT_TRUE(j["analyses"].contains("rand_read_saturation"));
  EXPECT_EQ(ListDir(work_), std::vector<std::string>{})
      << "scratch directory left behind";
}

// The first run's test file, inside its own fresh directory under `dir`.
std::string FirstProbeDat(const std::string& dir) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (fs::exists(e.path() / "probe.dat")) return (e.path() / "probe.dat");
  }
  return "";
}

TEST_F(CliTest, SecondRunOnTheSameDirectoryAndSigint) {
  // Long enough to outlast the second run on a loaded machine; SIGINT ends it.
  BackgroundRun first({"probe", "--dir", "shared", "--probes", "rand_read",
                       "--duration", "120s", "--warmup", "0ms", "--file-size",
                       "32MiB", "--queue-depths", "1"},
                      work_);
  // Wait until the first run is measuring.
  std::string dat;
  for (int i = 0; i < 200 && (dat = FirstProbeDat(work_ + "/shared")).empty();
       i++) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_FALSE(dat.empty());
  // A second run in the same --dir gets its own scratch directory and leaves
  // the first one's files alone.
  RunOutput second =
      RunDisktune(With({"probe", "--dir", "shared"}, kShort), work_);
  EXPECT_EQ(second.exit_code, 0) << second.err;
  EXPECT_TRUE(fs::exists(dat)) << "the second run removed the first's files";
  EXPECT_EQ(ListDir(work_ + "/shared").size(), 1u);

  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  first.Signal(SIGINT);
  RunOutput r = first.Wait();
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_NE(r.err.find("interrupted"), std::string::npos) << r.err;
  EXPECT_EQ(ListDir(work_), std::vector<std::string>{})
      << "scratch directory left after SIGINT";
}

TEST_F(CliTest, SigtermExits143AndCleansUp) {
  BackgroundRun run({"probe", "--dir", "t", "--probes", "seq_read",
                     "--duration", "20s", "--file-size", "32MiB"},
                    work_);
  for (int i = 0; i < 200 && FirstProbeDat(work_ + "/t").empty(); i++) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  run.Signal(SIGTERM);
  RunOutput r = run.Wait();
  EXPECT_EQ(r.exit_code, 143) << r.err;
  EXPECT_EQ(ListDir(work_), std::vector<std::string>{});
}

TEST_F(CliTest, RunWritesResultIntoOut) {
  RunOutput r = RunDisktune(With({"run", "--quick", "--out", "out", "--probes",
                                  "seq_read", "--skip", "bench,tune"},
                                 kShort),
                            work_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(work_ + "/out/result.json"));
  EXPECT_TRUE(fs::exists(work_ + "/out/report.txt"));
  EXPECT_NE(r.out.find("results in"), std::string::npos);
  EXPECT_EQ(ListDir(work_), std::vector<std::string>{"out"});
  // A second run into the same --out refuses to overwrite.
  ExpectOneLineError(
      With({"run", "--out", "out", "--probes", "seq_read"}, kShort), 2,
      "already holds a result.json");
  ExpectOneLineError({"run", "--skip", "lunch"}, 2,
                     "--skip: unknown step 'lunch'");
  ExpectOneLineError({"run", "--workload", "nope"}, 2, "--workload");
  ExpectOneLineError({"run", "--engine", "nope"}, 2, "unknown engine 'nope'");
  ExpectOneLineError({"run", "--memory-budget", "512KiB"}, 2, "1 MiB");
}

// The main job end to end, shortened: probes, the baseline scenarios on
// LevelDB, the tuner with its smallest time budget; every output file.
TEST_F(CliTest, RunEndToEnd) {
  RunOutput r =
      RunDisktune(With({"run", "--quick", "--out", "out", "--probes",
                        "seq_read,rand_read,fsync", "--fsync-methods",
                        "fdatasync", "--fsync-sizes", "2300", "--time-budget",
                        "30s", "--workload", "write-heavy"},
                       kShort),
                  work_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : {"result.json", "report.html", "report.txt",
                        "profile-write-heavy-leveldb.json"}) {
    EXPECT_TRUE(fs::exists(work_ + "/out/" + f)) << f;
  }
  std::ifstream in(work_ + "/out/result.json");
  std::stringstream ss;
  ss << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(ss.str());
  std::ifstream sin(SourceDir() + "/reports/schema/report.v1.schema.json");
  std::stringstream sss;
  sss << sin.rdbuf();
  auto errors = ValidateAgainstSchema(nlohmann::json::parse(sss.str()), j);
  EXPECT_TRUE(errors.empty()) << errors.front();
  EXPECT_FALSE(j["benches"].empty());
  EXPECT_EQ(j["benches"][0]["engine"], "leveldb");
  EXPECT_TRUE(j["tune"].is_object());
  EXPECT_TRUE(j["analyses"]["bytes_written"].contains("process_bytes"));
  EXPECT_GT(j["bytes_written"].get<uint64_t>(), 0u);
  // The profile it wrote loads back into bench.
  RunOutput b =
      RunDisktune({"bench", "--profile", "out/profile-write-heavy-leveldb.json",
                   "--scenario", "fillseq", "--num", "2000", "--quiet"},
                  work_);
  EXPECT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(ListDir(work_), std::vector<std::string>{"out"});
}

// A bench says what it wrote, as run does: synced writes reach the device
// before the scratch directory goes, so both counts see them. (It used to
// report 0 bytes for every bench.)
TEST_F(CliTest, BenchReportsWhatItWrote) {
  RunOutput r = RunDisktune({"bench", "--scenario", "fillsync", "--num",
                             "50000", "--json", "-", "--quiet"},
                            work_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  const auto& w = j["analyses"]["bytes_written"];
  ASSERT_TRUE(w.contains("process_bytes")) << w.dump();
  // 50 synced writes of a 116-byte entry: at least a log page each.
  EXPECT_GE(w["process_bytes"].get<uint64_t>(), 50u * 4096u) << w.dump();
  EXPECT_GT(j["bytes_written"].get<uint64_t>(), 0u);
}

// bench's figures are results: on stdout, so `> file` keeps them, under the
// summary that opens every measuring command's output, with progress on
// stderr; with --json - they move to stderr, and stdout is the JSON alone.
TEST_F(CliTest, BenchFiguresGoToStdout) {
  RunOutput r = RunDisktune({"bench", "--scenario", "fillseq,readrandom",
                             "--num", "2000", "--repeat", "2"},
                            work_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("verdict:", 0), 0u) << r.out;
  EXPECT_LT(r.out.find("bound:"), r.out.find("Entries:")) << r.out;
  EXPECT_EQ(r.out.find("verdict:", 1), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Entries:    2000"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("readrandom   :"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(median of 2)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("run 1 of 2"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("run 1 of 2"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("(median of 2)"), std::string::npos) << r.err;

  r = RunDisktune(
      {"bench", "--scenario", "fillseq", "--num", "2000", "--json", "-"},
      work_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(nlohmann::json::accept(r.out)) << r.out;
  EXPECT_NE(r.err.find("fillseq      :"), std::string::npos) << r.err;
}

// A library built with assertions skews every figure: the warning goes
// where the figures go (stdout, or stderr with --json -), as db_bench says
// it in its header, and only when the report's environment says so.
TEST_F(CliTest, BenchWarnsOfAnAssertionBuildWithItsFigures) {
  RunOutput r = RunDisktune({"bench", "--engine", "rocksdb", "--scenario",
                             "fillseq", "--num", "2000", "--json", "r.json"},
                            work_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(ReadFile(work_ + "/r.json"));
  std::string assertions;
  for (const auto& lib : j["environment"]["engine_libraries"]) {
    if (lib["engine"] == "rocksdb") assertions = lib.value("assertions", "");
  }
  ASSERT_FALSE(assertions.empty()) << j["environment"].dump();
  const bool warned =
      r.out.find("WARNING: rocksdb library") != std::string::npos;
  EXPECT_EQ(warned, assertions == "on") << assertions << "\n" << r.out;
  if (warned) {
    // Before the figures, in their header.
    EXPECT_LT(r.out.find("WARNING:"), r.out.find("fillseq      :")) << r.out;
    EXPECT_EQ(r.err.find("WARNING:"), std::string::npos) << r.err;
  }
}

TEST_F(CliTest, JsonToAMissingDirectoryFailsBeforeMeasuring) {
  ExpectOneLineError(With({"probe", "--json", "nowhere/r.json"}, kShort), 2,
                     "does not exist");
}

}  // namespace
}  // namespace disktune::testing
