// Runs the built `disktune` binary the way an operator does, for tests of
// exit codes, messages, signals and what is left on disk.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <string>
#include <vector>

namespace disktune::testing {

struct RunOutput {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Path of the binary (DISKTUNE_BIN, set by ctest).
std::string DisktuneBin();
std::string SourceDir();

// What the child gets besides its arguments.
struct ChildSetup {
  // RLIMIT_FSIZE in bytes (`ulimit -f`); 0 = unchanged.
  unsigned long long file_size_limit = 0;
};

// Runs to completion in `cwd` (or the current directory when empty).
RunOutput RunDisktune(const std::vector<std::string>& args,
                      const std::string& cwd = "",
                      const ChildSetup& setup = {});

// A run in the background; Signal() it, then Wait().
class BackgroundRun {
 public:
  BackgroundRun(const std::vector<std::string>& args,
                const std::string& cwd = "", const ChildSetup& setup = {});
  ~BackgroundRun();
  void Signal(int sig) { kill(pid_, sig); }
  RunOutput Wait();
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  int out_fd_ = -1, err_fd_ = -1;
  bool waited_ = false;
};

// Entries of a directory, sorted (names only).
std::vector<std::string> ListDir(const std::string& dir);
// Lines of stderr that are not empty.
int CountLines(const std::string& text);

}  // namespace disktune::testing
