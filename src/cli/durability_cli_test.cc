// The built `disktune` binary ($DISKTUNE_BIN) doing durability work the way
// an operator runs it: SIGINT in the middle of the write-cache A/B and of the
// filesystem matrix, SIGKILL followed by `disktune restore` or by the next
// run, bad flags, and no root. Root/loop parts skip when they cannot run.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "probes/device_journal.h"
#include "probes/durability_test_util.h"
#include "probes/loop_fs.h"
#include "probes/write_cache.h"
#include "reports/schema_validator.h"

namespace disktune {
namespace {

namespace fs = std::filesystem;
using testing_util::LoopsMention;
using testing_util::LoopWriteCache;
using testing_util::MountsMention;

std::string Bin() {
  const char* b = getenv("DISKTUNE_BIN");
  return b ? b : "";
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Child {
  pid_t pid = -1;
  std::string out, err;  // file paths
  bool reaped = false;
  Child() = default;
  Child(const Child&) = delete;
  Child& operator=(Child&& o) noexcept {
    std::swap(pid, o.pid);
    std::swap(out, o.out);
    std::swap(err, o.err);
    std::swap(reaped, o.reaped);
    return *this;
  }
  Child(Child&& o) noexcept
      : pid(o.pid), out(o.out), err(o.err), reaped(o.reaped) {
    o.reaped = true;
  }
  // A failed assertion must not leave a run going.
  ~Child() {
    if (!reaped && pid > 0) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
  }
};

// Starts disktune with `args`; `journal` goes to $DISKTUNE_JOURNAL; runs as
// `uid` when not 0.
Child Start(const std::string& dir, const std::vector<std::string>& args,
            const std::string& journal, uid_t uid = 0) {
  static int n = 0;
  Child r;
  r.out = dir + "/out." + std::to_string(++n);
  r.err = dir + "/err." + std::to_string(n);
  r.pid = fork();
  if (r.pid == 0) {
    int o = open(r.out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = open(r.err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(o, 1);
    dup2(e, 2);
    setenv("DISKTUNE_JOURNAL", journal.c_str(), 1);
    if (uid != 0 && (setgid(uid) != 0 || setuid(uid) != 0)) _exit(126);
    std::vector<char*> argv;
    std::string bin = Bin();
    argv.push_back(bin.data());
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(bin.c_str(), argv.data());
    _exit(127);
  }
  return r;
}

int Wait(Child& r) {
  int status = 0;
  while (waitpid(r.pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.reaped = true;
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

// Whether the child has exited (a zombie not yet waited for).
bool Exited(pid_t pid) {
  std::string stat = Slurp("/proc/" + std::to_string(pid) + "/stat");
  size_t close = stat.rfind(')');
  return close == std::string::npos || stat.substr(close + 2, 1) == "Z";
}

// Polls until `cond` holds; false if the child exits first or 60 s pass.
bool WaitFor(pid_t pid, const std::function<bool()>& cond) {
  for (int i = 0; i < 6000; i++) {
    if (cond()) return true;
    if (Exited(pid)) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

std::vector<std::string> FsyncArgs(const std::string& scratch,
                                   const char* duration) {
  return {"probe",     "--probes",      "fsync",  "--fsync-methods",
          "fdatasync", "--fsync-sizes", "4096",   "--dir",
          scratch,     "--duration",    duration, "--quiet"};
}

class DurabilityCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (Bin().empty() || access(Bin().c_str(), X_OK) != 0) {
      GTEST_SKIP() << "the disktune binary is not built ($DISKTUNE_BIN="
                   << Bin() << ")";
    }
    dir_ = testing_util::MakeTempDir("durability_cli");
    ASSERT_FALSE(dir_.empty());
    journal_ = dir_ + "/journal.json";
  }
  void TearDown() override {
    if (!dir_.empty()) {
      (void)DeviceJournal(journal_).Restore(true);
      PutBackLoopCache();
      loop_.reset();
      if (setup_journal_) (void)setup_journal_->Restore(true);
      fs::remove_all(dir_);
    }
  }
  // A loop-mounted ext4 for the run's --dir: the A/B then switches the loop
  // device's kernel view, which is safe.
  void SkipWithoutLoopDevices() {
    std::string why = testing_util::LoopSkipReason();
    if (!why.empty()) GTEST_SKIP() << why;
  }
  void MountLoop() {
    SkipWithoutLoopDevices();
    if (IsSkipped()) return;
    setup_journal_ =
        std::make_unique<DeviceJournal>(dir_ + "/setup-journal.json");
    auto l = LoopFs::Create(dir_, "ext4", 512ull << 20, setup_journal_.get());
    ASSERT_TRUE(l.ok()) << l.status().ToString();
    loop_ = std::move(*l);
    // The state these tests need, set on their own loop device (a machine
    // may start loop devices in either state); put back before the device
    // is detached, since a loop device keeps it for the next losetup.
    found_ = LoopWriteCache(loop_->loop_name());
    ASSERT_TRUE(
        WriteSysfs("/sys/block/" + loop_->loop_name() + "/queue/write_cache",
                   "write back")
            .ok());
    original_ = LoopWriteCache(loop_->loop_name());
    ASSERT_EQ(original_, "write back");
  }
  void PutBackLoopCache() {
    if (loop_ && !found_.empty()) {
      EXPECT_TRUE(
          WriteSysfs("/sys/block/" + loop_->loop_name() + "/queue/write_cache",
                     found_)
              .ok());
    }
  }
  void UnmountLoop() {
    if (!loop_) return;
    PutBackLoopCache();
    std::string image = loop_->image();
    EXPECT_TRUE(loop_->Teardown().ok());
    loop_.reset();
    EXPECT_FALSE(LoopsMention(image));
  }
  // Mounts the loop filesystem, starts an 8 s `--write-cache-ab` probe on
  // scratch_ inside it and returns once the run has switched the loop device
  // to write through. False where the test was skipped or has failed (the
  // switch did not happen before the run ended).
  bool StartAbUntilWriteThrough(Child* r) {
    MountLoop();
    if (IsSkipped() || HasFailure()) return false;
    scratch_ = loop_->mount_point() + "/scratch";
    auto args = FsyncArgs(scratch_, "8s");
    args.push_back("--write-cache-ab");
    *r = Start(dir_, args, journal_);
    std::string loop = loop_->loop_name();
    EXPECT_TRUE(WaitFor(r->pid, [&] {
      return LoopWriteCache(loop) == "write through";
    })) << Slurp(r->err);
    return !HasFailure();
  }
  // Starts an 8 s `--fs-matrix ext4` probe on scratch_ and returns once its
  // ext4 loop filesystem is mounted (the run is then mid-matrix). False where
  // the test was skipped (no loop devices) or has failed (no mount before the
  // run ended).
  bool StartFsMatrixUntilMounted(Child* r) {
    SkipWithoutLoopDevices();
    if (IsSkipped()) return false;
    scratch_ = dir_ + "/scratch";
    auto args = FsyncArgs(scratch_, "8s");
    args.insert(args.end(), {"--fs-matrix", "ext4"});
    *r = Start(dir_, args, journal_);
    EXPECT_TRUE(WaitFor(
        // The matrix mounts inside the run's fresh directory under --dir.
        r->pid, [&] { return MountsMention(scratch_ + "/disktune-"); }))
        << Slurp(r->err);
    return !HasFailure();
  }

  std::string dir_, journal_, original_;
  std::string scratch_;  // the --dir of the run a Start...Until helper began
  std::string found_;    // the loop device's setting before the test
  std::unique_ptr<DeviceJournal> setup_journal_;
  std::unique_ptr<LoopFs> loop_;
};

TEST_F(DurabilityCliTest, SigintDuringWriteCacheAbRestoresEverything) {
  Child r;
  if (!StartAbUntilWriteThrough(&r)) return;
  std::string loop = loop_->loop_name();
  EXPECT_TRUE(fs::exists(journal_))
      << "the original state is journaled before the switch";
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  kill(r.pid, SIGINT);
  EXPECT_EQ(Wait(r), 130) << Slurp(r.err);
  EXPECT_EQ(LoopWriteCache(loop), original_);
  EXPECT_FALSE(fs::exists(scratch_));
  EXPECT_FALSE(fs::exists(journal_));
  EXPECT_NE(Slurp(r.err).find("interrupted"), std::string::npos)
      << Slurp(r.err);
  UnmountLoop();
}

TEST_F(DurabilityCliTest, SigintDuringFsMatrixLeavesNoLoopOrMount) {
  Child r;
  if (!StartFsMatrixUntilMounted(&r)) return;
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  kill(r.pid, SIGINT);
  EXPECT_EQ(Wait(r), 130) << Slurp(r.err);
  EXPECT_FALSE(MountsMention(scratch_));
  EXPECT_FALSE(LoopsMention(scratch_));
  EXPECT_FALSE(fs::exists(scratch_));
  EXPECT_FALSE(fs::exists(journal_));
}

TEST_F(DurabilityCliTest, KilledAbRunIsRepairedByRestore) {
  Child r;
  if (!StartAbUntilWriteThrough(&r)) return;
  std::string loop = loop_->loop_name();
  kill(r.pid, SIGKILL);
  EXPECT_EQ(Wait(r), 128 + SIGKILL);
  ASSERT_EQ(LoopWriteCache(loop), "write through")
      << "a SIGKILL leaves the switch";

  Child restore = Start(dir_, {"restore"}, journal_);
  EXPECT_EQ(Wait(restore), 0) << Slurp(restore.err);
  EXPECT_NE(Slurp(restore.out).find("restored: write cache of " + loop),
            std::string::npos)
      << Slurp(restore.out);
  EXPECT_EQ(LoopWriteCache(loop), original_);
  Child again = Start(dir_, {"restore"}, journal_);
  EXPECT_EQ(Wait(again), 0);
  EXPECT_NE(Slurp(again.out).find("nothing to restore"), std::string::npos);
  fs::remove_all(scratch_);
  UnmountLoop();
}

TEST_F(DurabilityCliTest, KilledFsMatrixRunIsCleanedByTheNextRun) {
  Child r;
  if (!StartFsMatrixUntilMounted(&r)) return;
  kill(r.pid, SIGKILL);
  Wait(r);
  ASSERT_TRUE(MountsMention(scratch_) && LoopsMention(scratch_));

  // The next run repairs first and says so.
  auto next = FsyncArgs(dir_ + "/scratch2", "400ms");
  next.insert(next.end(), {"--fsync-modes", "append"});
  Child n = Start(dir_, next, journal_);
  EXPECT_EQ(Wait(n), 0) << Slurp(n.err);
  EXPECT_NE(Slurp(n.err).find("a previous run was killed; restored"),
            std::string::npos)
      << Slurp(n.err);
  EXPECT_FALSE(MountsMention(scratch_));
  EXPECT_FALSE(LoopsMention(scratch_));
  EXPECT_FALSE(fs::exists(journal_));
}

// Everything at once on a loop-mounted directory: the A/B (kernel view of
// that loop device) and an ext4 matrix; the report validates against the
// schema and the text report shows the durability findings.
TEST_F(DurabilityCliTest, FullDurabilityReportValidates) {
  MountLoop();
  if (IsSkipped()) return;
  std::string scratch = loop_->mount_point() + "/scratch";
  auto args = FsyncArgs(scratch, "400ms");
  args.insert(args.end(),
              {"--fsync-sizes", "2300", "--write-cache-ab", "--fs-matrix",
               "ext4", "--json", dir_ + "/report.json"});
  args.erase(std::find(args.begin(), args.end(), "--quiet"));
  Child r = Start(dir_, args, journal_);
  ASSERT_EQ(Wait(r), 0) << Slurp(r.err);
  nlohmann::json report =
      nlohmann::json::parse(Slurp(dir_ + "/report.json"), nullptr, false);
  ASSERT_FALSE(report.is_discarded());
  nlohmann::json schema =
      nlohmann::json::parse(Slurp(std::string(DISKTUNE_TEST_SOURCE_DIR) +
                                  "/reports/schema/report.v1.schema.json"));
  std::vector<std::string> errors = ValidateAgainstSchema(schema, report);
  EXPECT_TRUE(errors.empty()) << errors.front();
  const auto& a = report["analyses"];
  EXPECT_EQ(a["write_cache_ab"]["runs"].size(), 2u) << a.dump(2);
  EXPECT_EQ(a["fs_matrix"]["filesystems"][0]["status"], "ok");
  // The fillsync scenario ran on the filesystem, beside the fsync family.
  bool fillsync = false;
  for (const auto& p : a["fs_matrix"]["points"]) {
    if (p["point"] != "fillsync.leveldb") continue;
    fillsync = true;
    EXPECT_GT(p["ext4"]["ops_per_sec"].get<double>(), 0) << p.dump();
    EXPECT_GT(p["ext4"]["p99_ns"].get<uint64_t>(), 0u) << p.dump();
  }
  EXPECT_TRUE(fillsync) << a["fs_matrix"].dump(2);
  EXPECT_TRUE(a["checks"].contains("etcd"));
  std::string text = Slurp(r.out);
  for (const char* want :
       {"durability:", "etcd check", "write cache A/B", "filesystems"}) {
    EXPECT_NE(text.find(want), std::string::npos) << want << " missing in\n"
                                                  << text;
  }
  EXPECT_EQ(LoopWriteCache(loop_->loop_name()), original_);
  EXPECT_FALSE(fs::exists(journal_));
  UnmountLoop();
}

TEST_F(DurabilityCliTest, BadInputIsOneLine) {
  Child r =
      Start(dir_, {"probe", "--fs-matrix", "ext4,btrfs", "--dir", dir_ + "/s"},
            journal_);
  EXPECT_EQ(Wait(r), 2);
  EXPECT_EQ(Slurp(r.err),
            "disktune: --fs-matrix: unknown filesystem 'btrfs'; valid: ext3, "
            "ext4, xfs\n");
  r = Start(dir_, {"probe", "--kernel-cache-switch", "--dir", dir_ + "/s"},
            journal_);
  EXPECT_EQ(Wait(r), 2);
  EXPECT_NE(Slurp(r.err).find(
                "--kernel-cache-switch only applies with --write-cache-ab"),
            std::string::npos);
  r = Start(dir_, {"probe", "--probes", "seq_read", "--write-cache-ab"},
            journal_);
  EXPECT_EQ(Wait(r), 2);
  EXPECT_NE(Slurp(r.err).find("add fsync to --probes"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ + "/s"));

  std::ofstream(journal_) << "{broken";
  r = Start(dir_, {"restore"}, journal_);
  EXPECT_EQ(Wait(r), 3);  // the restore could not be done
  std::string err = Slurp(r.err);
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_NE(err.find("is not valid JSON"), std::string::npos) << err;
  fs::remove(journal_);
  r = Start(dir_, {"restore"}, journal_);
  EXPECT_EQ(Wait(r), 0);
  EXPECT_NE(Slurp(r.out).find("nothing to restore"), std::string::npos);
}

TEST_F(DurabilityCliTest, WithoutRootTheAbAndMatrixAreSkipped) {
  if (geteuid() != 0)
    GTEST_SKIP() << "needs root to start a run as another user";
  struct passwd* nobody = getpwnam("nobody");
  if (!nobody) GTEST_SKIP() << "no user 'nobody'";
  // The binary and a directory for it must be reachable by that user.
  for (fs::path p = fs::path(Bin()).parent_path(); p != p.root_path();
       p = p.parent_path()) {
    struct stat st {};
    if (stat(p.c_str(), &st) != 0 || !(st.st_mode & S_IXOTH)) {
      GTEST_SKIP() << p << " is not searchable by other users";
    }
  }
  std::string work = dir_ + "/nobody";
  fs::create_directory(work);
  chmod(dir_.c_str(), 0755);
  chmod(work.c_str(), 0777);
  auto args = FsyncArgs(work + "/scratch", "400ms");
  args.insert(args.end(), {"--fsync-modes", "append", "--write-cache-ab",
                           "--fs-matrix", "ext4", "--json", "-"});
  Child r = Start(work, args, journal_, nobody->pw_uid);
  ASSERT_EQ(Wait(r), 0) << Slurp(r.err);
  nlohmann::json j = nlohmann::json::parse(Slurp(r.out), nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << Slurp(r.out);
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& p : j["probes"]) by_name[p["name"]] = p;
  ASSERT_TRUE(by_name.count("fsync.fdatasync.4096.append"));
  EXPECT_EQ(by_name["fsync.fdatasync.4096.append"]["status"], "ok");
  EXPECT_EQ(by_name["fsync.write_cache_ab"]["status"], "skipped");
  EXPECT_NE(by_name["fsync.write_cache_ab"]["reason"].get<std::string>().find(
                "needs root"),
            std::string::npos);
  EXPECT_EQ(by_name["fsync.fs.ext4"]["status"], "skipped");
  EXPECT_NE(
      by_name["fsync.fs.ext4"]["reason"].get<std::string>().find("needs root"),
      std::string::npos);
}

}  // namespace
}  // namespace disktune
