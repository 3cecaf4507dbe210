// The fault suite, exit codes and up-front refusals: an output name (any
// sidecar) taken by a user's file, a --dir that cannot name a directory,
// sizes the machine cannot hold, RocksDB on a filesystem too small for its
// preallocated log, `compare` with nothing in common, and a profile that
// sizes nothing. Each is one line on stderr, the exit code of the README's
// table, and nothing measured or left behind. Root cases skip with the
// reason.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/binary_runner.h"
#include "tests/test_support.h"

namespace disktune::testing {
namespace {
namespace fs = std::filesystem;

void Write(const std::string& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

class FaultExitTest : public WorkDirTest {
 protected:
  FaultExitTest() : WorkDirTest("fault_exit_test_") {}

  // One line, `code`, `needle` in it, nothing changed under work_, and no
  // time spent measuring (a refusal is before the first probe).
  void ExpectRefusedAtOnce(const std::vector<std::string>& args, int code,
                           const std::string& needle) {
    auto start = std::chrono::steady_clock::now();
    ExpectOneLineError(args, work_, code, needle);
    EXPECT_LT(std::chrono::steady_clock::now() - start,
              std::chrono::seconds(10))
        << "measured before refusing";
  }
};

// tune --out X.json: the engine forms beside it (X.leveldb.cc,
// X.leveldb.json; X.rocksdb.ini) are checked before the tuner measures.
TEST_F(FaultExitTest, TuneRefusesATakenSidecarBeforeMeasuring) {
  Write(work_ + "/X.leveldb.cc", "// the operator's own options\n");
  ExpectRefusedAtOnce(
      {"tune", "--workload", "write-heavy", "--out", "X.json", "--dir", "."}, 2,
      "X.leveldb.cc already exists");
  Write(work_ + "/Y.rocksdb.ini", "[DBOptions]\n");
  ExpectRefusedAtOnce({"tune", "--engine", "rocksdb", "--workload",
                       "write-heavy", "--out", "Y.json", "--dir", "."},
                      2, "Y.rocksdb.ini already exists");
  // Two outputs under one name would have the second replace the first.
  ExpectRefusedAtOnce({"tune", "--workload", "write-heavy", "--out", "Z.json",
                       "--json", "Z.json", "--dir", "."},
                      2, "give each output its own name");
  EXPECT_EQ(ReadFile(work_ + "/X.leveldb.cc"),
            "// the operator's own options\n");
}

// run --out DIR: the profile and its engine forms are among the names
// checked up front, not only result.json and the reports.
TEST_F(FaultExitTest, RunRefusesATakenProfileNameBeforeMeasuring) {
  fs::create_directory(work_ + "/out");
  Write(work_ + "/out/profile-mixed-leveldb.leveldb.json", "{\"mine\": 1}");
  ExpectRefusedAtOnce({"run", "--quick", "--out", "out", "--dir", "."}, 2,
                      "profile-mixed-leveldb.leveldb.json already exists");
  EXPECT_EQ(ReadFile(work_ + "/out/profile-mixed-leveldb.leveldb.json"),
            "{\"mine\": 1}");
}

// bench and probe: --json over a user's file is refused before measuring.
TEST_F(FaultExitTest, BenchAndProbeRefuseATakenJsonBeforeMeasuring) {
  Write(work_ + "/mine.json", "{}");
  ExpectRefusedAtOnce(
      {"bench", "--scenario", "fillseq", "--json", "mine.json", "--dir", "."},
      2, "mine.json already exists");
  ExpectRefusedAtOnce({"probe", "--quick", "--json", "mine.json", "--dir", "."},
                      2, "mine.json already exists");
}

// A --dir that cannot name a directory is bad input (2), in one short line.
TEST_F(FaultExitTest, DirThatCannotBeAPathIsExit2) {
  std::string longest = work_;
  while (longest.size() < 4441) longest += "/" + std::string(200, 'a');
  auto before = ListTree(work_);
  RunOutput r = RunDisktune({"probe", "--quick", "--dir", longest}, work_);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("the path is too long"), std::string::npos) << r.err;
  EXPECT_LT(r.err.size(), 300u) << "the 4 KiB path buried the line";
  EXPECT_EQ(ListTree(work_), before);
  // A component of 256 bytes is too long however short the whole.
  ExpectRefusedAtOnce(
      {"bench", "--dir", work_ + "/" + std::string(256, 'b') + "/x"}, 2,
      "the path is too long");
  Write(work_ + "/file", "x");
  ExpectRefusedAtOnce({"probe", "--quick", "--dir", work_ + "/file/sub"}, 2,
                      "not a directory");
}

// Sizes the machine cannot hold are refused, flag and profile alike.
TEST_F(FaultExitTest, SizesBeyondMemoryAreRefused) {
  ExpectRefusedAtOnce({"bench", "--write-buffer-size", "1TiB", "--dir", "."}, 2,
                      "--write-buffer-size 1 TiB is more than this "
                      "machine's");
  ExpectRefusedAtOnce({"bench", "--cache-size", "1024TiB", "--dir", "."}, 2,
                      "of memory");
  ExpectRefusedAtOnce({"bench", "--num", "1125899906842624", "--dir", "."}, 2,
                      "for its key model");
  Write(work_ + "/big.json",
        R"({"profile_version": 1, "name": "big",
            "engine_options": {"cache_bytes": 1152921504606846976}})");
  ExpectRefusedAtOnce({"bench", "--profile", "big.json", "--dir", "."}, 2,
                      "of memory");
  ExpectRefusedAtOnce(
      {"tune", "--workload", "write-heavy", "--memory-budget", "1024TiB"}, 2,
      "memory");
}

// compare of a probe result with a bench result: nothing in common is not
// a pass.
TEST_F(FaultExitTest, CompareWithNothingInCommonIsExit2) {
  RunOutput p =
      RunDisktune({"probe", "--quick", "--probes", "seq_read", "--file-size",
                   "32MiB", "--duration", "200ms", "--warmup", "50ms",
                   "--queue-depths", "1", "--json", "p.json", "--dir", "."},
                  work_);
  ASSERT_EQ(p.exit_code, 0) << p.err;
  RunOutput b = RunDisktune({"bench", "--scenario", "crc32c", "--num", "1000",
                             "--no-predict", "--json", "b.json", "--dir", "."},
                            work_);
  ASSERT_EQ(b.exit_code, 0) << b.err;
  ExpectRefusedAtOnce({"compare", "p.json", "b.json"}, 2,
                      "have no figure in common");
  // The same kind compares (and exits 0).
  RunOutput same = RunDisktune({"compare", "p.json", "p.json"}, work_);
  EXPECT_EQ(same.exit_code, 0) << same.err;
}

// A profile that sizes nothing says which key count it runs.
TEST_F(FaultExitTest, ProfileWithoutWorkloadSaysTheDefault) {
  Write(work_ + "/p.json",
        R"({"profile_version": 1, "name": "p",
            "engine_options": {"cache_bytes": 8388608}})");
  RunOutput r = RunDisktune({"bench", "--profile", "p.json", "--scenario",
                             "crc32c", "--quick", "--no-predict", "--dir", "."},
                            work_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("disktune: note: profile p.json has no workload num: "
                       "using --num 100000 (the default); give --num to "
                       "choose"),
            std::string::npos)
      << r.err;
  r = RunDisktune({"bench", "--profile", "p.json", "--scenario", "crc32c",
                   "--num", "1000", "--no-predict", "--dir", "."},
                  work_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("no workload"), std::string::npos) << r.err;
}

// RocksDB on a 40 MiB filesystem: refused before it opens (its write-ahead
// log is preallocated at 1.1 x the 64 MiB write buffer), not a SIGABRT.
TEST_F(FaultExitTest, RocksDbOnASmallFilesystemIsRefusedUpFront) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root (mount tmpfs)";
  RunOutput list = RunDisktune({"list"});
  if (list.out.find("rocksdb") == std::string::npos)
    GTEST_SKIP() << "RocksDB is not built in";
  std::string mnt = work_ + "/mnt";
  fs::create_directory(mnt);
  ASSERT_EQ(mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=40m"), 0);
  RunOutput r = RunDisktune({"bench", "--engine", "rocksdb", "--scenario",
                             "fillrandom", "--num", "100000", "--dir", mnt},
                            work_);
  std::vector<std::string> left = ListDir(mnt);
  umount(mnt.c_str());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("rocksdb needs"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("preallocated write-ahead log"), std::string::npos)
      << r.err;
  EXPECT_TRUE(left.empty()) << "left in the small filesystem";
}

// A --num whose database cannot fit in the whole scratch filesystem is
// refused before the engine opens; one that fits runs.
TEST_F(FaultExitTest, NumBeyondTheFilesystemIsRefusedUpFront) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root (mount tmpfs)";
  std::string mnt = work_ + "/mnt";
  fs::create_directory(mnt);
  ASSERT_EQ(mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=40m"), 0);
  // 1,000,000 x (16 + 100 x 0.5) bytes: about 63 MiB.
  RunOutput big = RunDisktune({"bench", "--scenario", "fillseq", "--num",
                               "1000000", "--no-predict", "--dir", mnt},
                              work_);
  std::vector<std::string> left = ListDir(mnt);
  RunOutput small = RunDisktune({"bench", "--scenario", "fillseq", "--num",
                                 "100000", "--no-predict", "--dir", mnt},
                                work_);
  umount(mnt.c_str());
  EXPECT_EQ(big.exit_code, 2) << big.err;
  EXPECT_EQ(CountLines(big.err), 1) << big.err;
  EXPECT_NE(big.err.find("more than the whole filesystem"), std::string::npos)
      << big.err;
  EXPECT_TRUE(left.empty()) << "left in the small filesystem";
  EXPECT_EQ(small.exit_code, 0) << small.err;
}

}  // namespace
}  // namespace disktune::testing
