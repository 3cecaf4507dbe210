// The unprivileged-owner race: a user who owns --dir swaps the scratch
// directory while root runs a probe in it, and plants symbolic links to
// root's files under the names disktune gives its own. Root must keep writing
// in the directory it created (every file is reached through its handle:
// README, "Safety: what disktune touches") and never touch the victims.
// Needs root (to run the attacker as `nobody`); skips with the reason
// otherwise.
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/binary_runner.h"
#include "tests/test_support.h"

namespace disktune::testing {
namespace {
namespace fs = std::filesystem;

// Every name disktune gives a file in its scratch directory.
const char* const kPlanted[] = {"fsync-prealloc.dat", "fsync-append.dat",
                                "fsync-overwrite.dat", "probe.dat",
                                ".disktune-odirect-check"};

constexpr int kAttackerMissed = 3;  // the scratch never appeared
constexpr int kAttackerCannot = 77;

// In the forked child, as `uid`: waits for the scratch directory in `dir`,
// renames it, recreates the name and plants links to `victim` in it.
// Only system calls: the child of a test process must not take locks.
[[noreturn]] void Attack(const std::string& dir, const std::string& victim,
                         uid_t uid, gid_t gid) {
  if (setgid(gid) != 0 || setuid(uid) != 0) _exit(kAttackerCannot);
  if (access(dir.c_str(), W_OK | X_OK) != 0) _exit(kAttackerCannot);
  for (int i = 0; i < 20000; i++) {  // 20 s at 1 ms
    DIR* d = opendir(dir.c_str());
    if (d == nullptr) _exit(kAttackerCannot);
    std::string found;
    while (dirent* e = readdir(d)) {
      if (std::string(e->d_name).rfind("disktune-", 0) == 0) found = e->d_name;
    }
    closedir(d);
    if (!found.empty()) {
      std::string old_path = dir + "/" + found;
      if (rename(old_path.c_str(), (dir + "/moved-away").c_str()) != 0)
        _exit(4);
      if (mkdir(old_path.c_str(), 0755) != 0) _exit(5);
      for (const char* n : kPlanted) {
        if (symlink(victim.c_str(), (old_path + "/" + n).c_str()) != 0)
          _exit(6);
      }
      if (symlink("/", (old_path + "/bench").c_str()) != 0) _exit(6);
      _exit(0);
    }
    usleep(1000);
  }
  _exit(kAttackerMissed);
}

class ScratchRaceTest : public WorkDirTest {
 protected:
  ScratchRaceTest() : WorkDirTest("scratch_race_test_") {}
};

TEST_F(ScratchRaceTest, SwappedScratchDirectoryNeverSteersRoot) {
  if (geteuid() != 0)
    GTEST_SKIP() << "needs root to run the attacker as nobody";
  struct passwd* pw = getpwnam("nobody");
  if (pw == nullptr) GTEST_SKIP() << "no user 'nobody'";
  // The attacker must reach --dir; the victim must be beyond its reach.
  ASSERT_EQ(chmod(work_.c_str(), 0755), 0);
  std::string dir = work_ + "/d";
  ASSERT_TRUE(fs::create_directory(dir));
  ASSERT_EQ(chown(dir.c_str(), pw->pw_uid, pw->pw_gid), 0);
  std::string victim = work_ + "/victim";
  std::ofstream(victim) << "precious";
  ASSERT_EQ(chmod(victim.c_str(), 0644), 0);

  pid_t attacker = fork();
  ASSERT_GE(attacker, 0);
  if (attacker == 0) Attack(dir, victim, pw->pw_uid, pw->pw_gid);

  RunOutput r =
      RunDisktune({"probe", "--probes", "fsync", "--duration", "100ms",
                   "--warmup", "0s", "--dir", dir, "--json", work_ + "/r.json"},
                  work_);
  int status = 0;
  ASSERT_EQ(waitpid(attacker, &status, 0), attacker);
  ASSERT_TRUE(WIFEXITED(status));
  if (WEXITSTATUS(status) == kAttackerCannot)
    GTEST_SKIP() << "nobody cannot reach " << dir << " (a parent is private)";
  ASSERT_EQ(WEXITSTATUS(status), 0) << "the attacker failed its step "
                                    << WEXITSTATUS(status) << "; " << r.err;

  struct stat st {};
  ASSERT_EQ(stat(victim.c_str(), &st), 0);
  EXPECT_EQ(ReadFile(victim), "precious") << r.err;
  EXPECT_EQ(st.st_size, 8);
  EXPECT_EQ(st.st_mode & 07777, 0644u);
  // The run measured in the directory it created (now "moved-away") and
  // emptied it; the planted links were not followed, nor removed.
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(ListDir(dir + "/moved-away").empty());
  for (const std::string& name : ListDir(dir)) {
    if (name == "moved-away") continue;
    EXPECT_EQ(ListDir(dir + "/" + name).size(), std::size(kPlanted) + 1);
  }
  // A result came out of the directory created.
  EXPECT_NE(ReadFile(work_ + "/r.json").find("fsync"), std::string::npos);
}

}  // namespace
}  // namespace disktune::testing
