// The fault suite: what a careless or hostile operator, a dropped SSH session
// or a full disk does to a run, tried against the built binary. Every case
// checks that disktune touches nothing it did not create, puts back what it
// changed, and says in one line what is wrong. Tests that need root or a loop
// device skip with the reason.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "tests/binary_runner.h"
#include "tests/test_support.h"

namespace disktune::testing {
namespace {
namespace fs = std::filesystem;

// A short probe; Probe("1s") lasts longer.
std::vector<std::string> Probe(const std::string& duration = "200ms",
                               const std::string& probes = "seq_read") {
  return {"probe",      "--quick", "--file-size",    "32MiB",
          "--duration", duration,  "--warmup",       "50ms",
          "--probes",   probes,    "--queue-depths", "1"};
}
const std::vector<std::string> kShortProbe = Probe();

void Write(const std::string& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

class FaultTest : public WorkDirTest {
 protected:
  FaultTest() : WorkDirTest("fault_test_") {}

  // A result file written by a real (short) probe, for the reader tests.
  std::string RealResult() {
    std::string path = work_ + "/real.json";
    if (fs::exists(path)) return path;
    auto args = kShortProbe;
    args.insert(args.end(), {"--json", path, "--dir", work_});
    RunOutput r = RunDisktune(args, work_);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return path;
  }
};

// Issue example: a file another program writes into --dir during the run.
TEST_F(FaultTest, FilesAppearingInDirDuringARunSurvive) {
  std::string t1 = work_ + "/t1";
  fs::create_directory(t1);
  Write(t1 + "/old.txt", "old");
  // Files under the names disktune gives its own.
  Write(t1 + "/probe.dat", "user's probe.dat");
  Write(t1 + "/fsync-append.dat", "user's data");
  fs::create_directories(t1 + "/bench/leveldb");
  Write(t1 + "/bench/leveldb/CURRENT", "user's db");
  auto args = Probe("200ms", "seq_read,fsync");
  args.insert(args.end(), {"--dir", t1});
  BackgroundRun run(args, work_);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  Write(t1 + "/other_app.log", "mine");
  RunOutput r = run.Wait();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadFile(t1 + "/other_app.log"), "mine");
  EXPECT_EQ(ReadFile(t1 + "/old.txt"), "old");
  EXPECT_EQ(ReadFile(t1 + "/probe.dat"), "user's probe.dat");
  EXPECT_EQ(ReadFile(t1 + "/fsync-append.dat"), "user's data");
  EXPECT_EQ(ReadFile(t1 + "/bench/leveldb/CURRENT"), "user's db");
  EXPECT_EQ(ListDir(t1),
            (std::vector<std::string>{"bench", "fsync-append.dat", "old.txt",
                                      "other_app.log", "probe.dat"}));
}

// A run with its default scratch beside a probe with --dir . : neither
// removes the other's files.
TEST_F(FaultTest, TwoRunsInOneDirectoryLeaveEachOtherAlone) {
  auto a_args = Probe("1s");
  auto b_args = kShortProbe;
  b_args.insert(b_args.end(), {"--dir", "."});
  BackgroundRun a(a_args, work_);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  RunOutput rb = RunDisktune(b_args, work_);
  RunOutput ra = a.Wait();
  EXPECT_EQ(ra.exit_code, 0) << ra.err;
  EXPECT_EQ(rb.exit_code, 0) << rb.err;
  EXPECT_TRUE(ListDir(work_).empty()) << "left behind in " << work_;
}

TEST_F(FaultTest, OutputFilesNeverReplaceAUsersFile) {
  std::string result = RealResult();
  Write(work_ + "/mine.txt", "user's notes");
  Write(work_ + "/mine.txt.tmp", "user's tmp");
  RunOutput r = RunDisktune(
      {"report", result, "--format", "text", "--out", "mine.txt"}, work_);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("did not write it"), std::string::npos) << r.err;
  EXPECT_EQ(ReadFile(work_ + "/mine.txt"), "user's notes");
  EXPECT_EQ(ReadFile(work_ + "/mine.txt.tmp"), "user's tmp");

  // --json over a user's file is refused before anything is measured.
  auto args = kShortProbe;
  args.insert(args.end(), {"--json", "mine.txt"});
  auto before = ListDir(work_);
  r = RunDisktune(args, work_);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(ReadFile(work_ + "/mine.txt"), "user's notes");
  EXPECT_EQ(ListDir(work_), before);

  // Its own earlier output may be replaced.
  r = RunDisktune({"report", result, "--format", "text", "--out", "r.txt"},
                  work_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunDisktune({"report", result, "--format", "text", "--out", "r.txt"},
                  work_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(FaultTest, RunOutIntoADirectoryWithAUsersReportIsRefusedFirst) {
  std::string out = work_ + "/out";
  fs::create_directory(out);
  Write(out + "/report.txt", "user's report");
  auto before = ListDir(out);
  RunOutput r =
      RunDisktune({"run", "--quick", "--skip", "bench,tune", "--out", out,
                   "--file-size", "32MiB", "--duration", "200ms"},
                  work_);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_EQ(ReadFile(out + "/report.txt"), "user's report");
  EXPECT_EQ(ListDir(out), before);
  EXPECT_EQ(ListDir(work_), (std::vector<std::string>{"out"}));
}

// Paths are bytes: a --dir that is not UTF-8 loses nothing.
TEST_F(FaultTest, NonUtf8DirectoryKeepsTheResult) {
  std::string odd = work_ + "/d\xff\xfe-\\x";
  ASSERT_EQ(mkdir(odd.c_str(), 0755), 0);
  auto args = kShortProbe;
  args.insert(args.end(), {"--dir", odd, "--json", odd + "/r.json"});
  RunOutput r = RunDisktune(args, odd);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string text = ReadFile(odd + "/r.json");
  ASSERT_FALSE(text.empty());
  nlohmann::json j = nlohmann::json::parse(text);
  std::string shown = j["config"]["scratch_dir"];
  EXPECT_NE(shown.find("d\\xff\\xfe-\\\\x/disktune-"), std::string::npos)
      << shown;
  EXPECT_EQ(ListDir(odd), (std::vector<std::string>{"r.json"}));
  // And it reads back.
  r = RunDisktune({"report", odd + "/r.json", "--format", "text"}, work_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(FaultTest, SighupEndsTheRunLikeSigint) {
  auto args = Probe("10s");
  args.insert(args.end(), {"--dir", work_});
  BackgroundRun run(args, work_);
  // Wait for its scratch to appear, then hang up.
  for (int i = 0; i < 100 && ListDir(work_).empty(); i++)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  run.Signal(SIGHUP);
  RunOutput r = run.Wait();
  EXPECT_EQ(r.exit_code, 128 + SIGHUP) << r.err;
  EXPECT_NE(r.err.find("SIGHUP"), std::string::npos) << r.err;
  EXPECT_TRUE(ListDir(work_).empty()) << "scratch left after SIGHUP";
}

// Past `ulimit -f` a write fails with EFBIG: a clear failure, not SIGXFSZ.
TEST_F(FaultTest, FileSizeLimitFailsCleanly) {
  auto args = kShortProbe;
  args.insert(args.end(), {"--dir", work_});
  ChildSetup setup;
  setup.file_size_limit = 1 << 20;  // below the 32 MiB test file
  RunOutput r = RunDisktune(args, work_, setup);
  EXPECT_NE(r.exit_code, 128 + SIGXFSZ) << r.err;
  EXPECT_NE(r.exit_code, 0) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_TRUE(ListDir(work_).empty()) << "left behind";
}

TEST_F(FaultTest, UntrustedInputFilesAreOneLine) {
  std::string real = RealResult();
  nlohmann::json j = nlohmann::json::parse(ReadFile(real));
  auto expect_bad = [&](const std::string& file, const std::string& needle) {
    for (const std::vector<std::string>& cmd :
         {std::vector<std::string>{"report", file},
          std::vector<std::string>{"check", file, "--require",
                                   "rand_read.4k.qd1.p50 < 1s"},
          std::vector<std::string>{"compare", real, file}}) {
      auto start = std::chrono::steady_clock::now();
      RunOutput r = RunDisktune(cmd, work_);
      EXPECT_EQ(r.exit_code, 2) << cmd[0] << " " << file << ": " << r.err;
      EXPECT_EQ(CountLines(r.err), 1) << r.err;
      EXPECT_NE(r.err.find(needle), std::string::npos)
          << cmd[0] << ": " << r.err;
      EXPECT_LT(std::chrono::steady_clock::now() - start,
                std::chrono::seconds(20));
    }
  };
  nlohmann::json numeric = j;
  numeric["schema_version"] = 1;
  Write(work_ + "/numeric.json", numeric.dump());
  expect_bad(work_ + "/numeric.json", "schema_version must be a string");

  nlohmann::json typed = j;
  typed["probes"][0]["status"] = 7;
  Write(work_ + "/typed.json", typed.dump());
  expect_bad(work_ + "/typed.json", "/probes/0/status");

  std::string deep(100000, '[');
  Write(work_ + "/deep.json", "{\"probes\": " + deep);
  expect_bad(work_ + "/deep.json", "nests deeper");

  nlohmann::json deep_known = j;
  nlohmann::json nest = 1;
  for (int i = 0; i < 5000; i++) nest = nlohmann::json::array({nest});
  deep_known["analyses"]["x"] = nest;
  Write(work_ + "/deep_known.json", deep_known.dump());
  expect_bad(work_ + "/deep_known.json", "nests deeper");

  expect_bad("/dev/zero", "character device");
  std::string fifo = work_ + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  expect_bad(fifo, "FIFO");
  expect_bad(work_, "directory");

  // Profiles, workloads and probe results go through the same reader.
  nlohmann::json profile = {{"profile_version", "1"}};
  Write(work_ + "/profile.json", profile.dump());
  for (const std::vector<std::string>& cmd :
       {std::vector<std::string>{"bench", "--profile", "/dev/zero"},
        std::vector<std::string>{"bench", "--profile", fifo},
        std::vector<std::string>{"tune", "--workload", fifo},
        std::vector<std::string>{"tune", "--workload", work_ + "/profile.json"},
        std::vector<std::string>{"tune", "--probe-result",
                                 work_ + "/numeric.json"},
        std::vector<std::string>{"tune", "--probe-result", "/dev/zero"}}) {
    auto before = ListDir(work_);
    RunOutput r = RunDisktune(cmd, work_);
    EXPECT_EQ(r.exit_code, 2) << cmd[1] << " " << cmd[2] << ": " << r.err;
    EXPECT_EQ(CountLines(r.err), 1) << r.err;
    EXPECT_EQ(ListDir(work_), before);
  }
}

TEST_F(FaultTest, WrongMessagesAreRight) {
  auto one_line = [&](const std::vector<std::string>& args,
                      const std::string& needle) {
    auto before = ListDir(work_);
    RunOutput r = RunDisktune(args, work_);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(CountLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_EQ(ListDir(work_), before);
  };
  one_line({"probe", "--duration", "99999999999999h"}, "too long");
  fs::create_symlink(work_ + "/gone", work_ + "/dangling");
  one_line({"probe", "--quick", "--dir", work_ + "/dangling"}, "symbolic link");
  // A trailing slash on a --dir to be created is fine.
  auto args = kShortProbe;
  args.insert(args.end(), {"--dir", work_ + "/new/"});
  RunOutput r = RunDisktune(args, work_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(work_ + "/new")) << "the --dir it made is left";
}

// A journal an unprivileged user owns must not make root delete a file.
TEST_F(FaultTest, RestoreRefusesAJournalRootDoesNotOwn) {
  if (geteuid() != 0) GTEST_SKIP() << "the ownership rule applies to root";
  struct passwd* nobody = getpwnam("nobody");
  if (!nobody) GTEST_SKIP() << "no user 'nobody'";
  std::string victim = work_ + "/victim.txt";
  Write(victim, "precious");
  std::string dir = work_ + "/jdir";
  fs::create_directory(dir);
  std::string journal = dir + "/journal.json";
  nlohmann::json entry = {{"id", "1-1"},          {"pid", 999999},
                          {"kind", "image_file"}, {"target", victim},
                          {"original", ""},       {"description", "x"}};
  Write(journal,
        nlohmann::json{{"journal_version", 1}, {"entries", {entry}}}.dump());
  ASSERT_EQ(chown(journal.c_str(), nobody->pw_uid, nobody->pw_gid), 0);
  setenv("DISKTUNE_JOURNAL", journal.c_str(), 1);
  RunOutput r = RunDisktune({"restore"}, work_);
  unsetenv("DISKTUNE_JOURNAL");
  EXPECT_NE(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("root does not act on it"), std::string::npos) << r.err;
  EXPECT_EQ(ReadFile(victim), "precious");

  // Owned by root, but naming a file disktune never creates.
  ASSERT_EQ(chown(journal.c_str(), 0, 0), 0);
  setenv("DISKTUNE_JOURNAL", journal.c_str(), 1);
  r = RunDisktune({"restore"}, work_);
  unsetenv("DISKTUNE_JOURNAL");
  EXPECT_NE(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("refused"), std::string::npos) << r.err;
  EXPECT_EQ(ReadFile(victim), "precious");
}

// A small ext4 on a loop device, for the full-disk cases; torn down at the
// end of the test whatever happens.
class SmallFs {
 public:
  SmallFs(const std::string& work, uint64_t bytes) {
    image_ = work + "/small.img";
    mnt_ = work + "/mnt";
    fs::create_directory(mnt_);
    if (!Sh("truncate -s " + std::to_string(bytes) + " " + image_)) return;
    FILE* f = popen(("losetup --find --show " + image_).c_str(), "r");
    char buf[64] = {};
    if (f && fgets(buf, sizeof(buf), f)) loop_ = buf;
    if (f) pclose(f);
    while (!loop_.empty() && loop_.back() == '\n') loop_.pop_back();
    if (loop_.empty()) return;
    ok_ = Sh("mkfs.ext4 -q -F " + loop_) && Sh("mount " + loop_ + " " + mnt_);
  }
  ~SmallFs() {
    Sh("umount " + mnt_ + " 2>/dev/null");
    if (!loop_.empty()) Sh("losetup -d " + loop_);
  }
  bool ok() const { return ok_; }
  const std::string& mnt() const { return mnt_; }

 private:
  static bool Sh(const std::string& cmd) { return system(cmd.c_str()) == 0; }
  std::string image_, mnt_, loop_;
  bool ok_ = false;
};

std::string LoopSkipReason() {
  if (geteuid() != 0) return "needs root (losetup, mkfs, mount)";
  if (access("/dev/loop-control", F_OK) != 0) return "no loop devices";
  return "";
}

// Every fsync point fails (a full disk): one warning per cause, exit 3, not
// a line per point and exit 0.
TEST_F(FaultTest, EveryPointFailedOnAFullDiskIsOneLineAndExit3) {
  std::string why = LoopSkipReason();
  if (!why.empty()) GTEST_SKIP() << why;
  SmallFs small(work_, 32ull << 20);
  ASSERT_TRUE(small.ok());
  // Full, but for a few blocks: room for the scratch directory, none for
  // the points' files.
  std::string m = small.mnt();
  ASSERT_EQ(system(("dd if=/dev/zero of=" + m +
                    "/spare bs=16k count=1 "
                    "status=none && dd if=/dev/zero of=" +
                    m + "/fill bs=1M status=none 2>/dev/null; sync; rm " + m +
                    "/spare")
                       .c_str()),
            0);
  RunOutput r =
      RunDisktune({"probe", "--probes", "fsync", "--duration", "100ms",
                   "--warmup", "0s", "--dir", m, "--json", work_ + "/r.json"},
                  work_);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("every measurement failed"), std::string::npos) << r.err;
  nlohmann::json j = nlohmann::json::parse(ReadFile(work_ + "/r.json"));
  ASSERT_GE(j["probes"].size(), 10u);
  // One line per cause: a full disk is one cause however many points it hit.
  EXPECT_LE(j["warnings"].size(), 3u) << j["warnings"].dump(2);
  EXPECT_EQ(ListDir(m), (std::vector<std::string>{"fill", "lost+found"}));
}

// RocksDB (Debian's is built with assertions) must not reach ENOSPC: the run
// stops while the engine still has room and says why. (About 206 MiB of
// data: within the filesystem's size, which bench checks up front, but more
// than its free space above the guard's headroom.)
TEST_F(FaultTest, FullDiskDuringRocksDbBenchStopsCleanly) {
  std::string why = LoopSkipReason();
  if (!why.empty()) GTEST_SKIP() << why;
  SmallFs small(work_, 256ull << 20);
  ASSERT_TRUE(small.ok());
  RunOutput r = RunDisktune(
      {"bench", "--engine", "rocksdb", "--scenario", "fillrandom", "--num",
       "1000000", "--value-size", "400", "--dir", small.mnt()},
      work_);
  EXPECT_NE(r.exit_code, 134) << "RocksDB's assertion fired: " << r.err;
  // The guard's stop is a measurement that could not finish: exit 3.
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("free space"), std::string::npos) << r.err;
  EXPECT_EQ(ListDir(small.mnt()), (std::vector<std::string>{"lost+found"}))
      << "scratch left on the full disk";
}

}  // namespace
}  // namespace disktune::testing
