#include "tests/binary_runner.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "src/core/subprocess.h"

namespace disktune::testing {

std::string DisktuneBin() {
  const char* b = getenv("DISKTUNE_BIN");
  return b ? b : DISKTUNE_TEST_BIN;
}

std::string SourceDir() {
  const char* s = getenv("DISKTUNE_SOURCE_DIR");
  return s ? s : DISKTUNE_TEST_SOURCE_DIR;
}

namespace {

std::string Drain(int fd) {
  std::string s;
  char buf[65536];
  ssize_t n;
  while ((n = read(fd, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR)) {
    if (n > 0) s.append(buf, n);
  }
  return s;
}

pid_t Spawn(const std::vector<std::string>& args, const std::string& cwd,
            const ChildSetup& setup, int* out_fd, int* err_fd) {
  int o[2], e[2];
  if (pipe(o) != 0 || pipe(e) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(126);
    if (setup.file_size_limit) {
      struct rlimit rl {
        setup.file_size_limit, setup.file_size_limit
      };
      if (setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(125);
    }
    close(o[0]);
    close(e[0]);
    std::vector<std::string> argv = {DisktuneBin()};
    argv.insert(argv.end(), args.begin(), args.end());
    ExecInChild(argv[0], argv, o[1], e[1]);
  }
  close(o[1]);
  close(e[1]);
  *out_fd = o[0];
  *err_fd = e[0];
  return pid;
}

RunOutput Collect(pid_t pid, int out_fd, int err_fd) {
  RunOutput r;
  // Read stderr on a thread so neither pipe can fill and block the child.
  std::thread t([&] { r.err = Drain(err_fd); });
  r.out = Drain(out_fd);
  t.join();
  close(out_fd);
  close(err_fd);
  int status = 0;
  waitpid(pid, &status, 0);
  r.exit_code =
      WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

}  // namespace

RunOutput RunDisktune(const std::vector<std::string>& args,
                      const std::string& cwd, const ChildSetup& setup) {
  int o, e;
  pid_t pid = Spawn(args, cwd, setup, &o, &e);
  return Collect(pid, o, e);
}

BackgroundRun::BackgroundRun(const std::vector<std::string>& args,
                             const std::string& cwd, const ChildSetup& setup) {
  pid_ = Spawn(args, cwd, setup, &out_fd_, &err_fd_);
}

BackgroundRun::~BackgroundRun() {
  if (!waited_ && pid_ > 0) {
    kill(pid_, SIGKILL);
    Wait();
  }
}

RunOutput BackgroundRun::Wait() {
  waited_ = true;
  return Collect(pid_, out_fd_, err_fd_);
}

std::vector<std::string> ListDir(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

int CountLines(const std::string& text) {
  int n = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) n++;
    start = end + 1;
  }
  return n;
}

}  // namespace disktune::testing
