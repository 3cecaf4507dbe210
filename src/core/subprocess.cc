#include "src/core/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <sstream>

#include "src/core/clock.h"
#include "src/core/signals.h"

namespace disktune {

std::string FindProgram(const std::string& name) {
  if (name.find('/') != std::string::npos) {
    return access(name.c_str(), X_OK) == 0 ? name : "";
  }
  std::string path = getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin";
  path += ":/usr/sbin:/sbin";
  std::stringstream ss(path);
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (dir.empty()) continue;
    std::string full = dir + "/" + name;
    struct stat st {};
    if (stat(full.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        access(full.c_str(), X_OK) == 0) {
      return full;
    }
  }
  return "";
}

void ExecInChild(const std::string& prog, const std::vector<std::string>& argv,
                 int out_fd, int err_fd) {
  dup2(out_fd, 1);
  dup2(err_fd, 2);
  int devnull = open("/dev/null", O_RDONLY);
  if (devnull >= 0) dup2(devnull, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  execv(prog.c_str(), args.data());
  _exit(127);
}

Result<SubprocessResult> RunSubprocess(const std::vector<std::string>& argv,
                                       uint64_t timeout_ns,
                                       OnInterrupt on_interrupt) {
  if (argv.empty()) return Status::InvalidArgument("empty command");
  std::string prog = FindProgram(argv[0]);
  if (prog.empty()) return Status::NotFound(argv[0] + " is not installed");
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) return Status::FromErrno(errno, "pipe");
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    return Status::FromErrno(errno, "pipe");
  }
  pid_t pid = fork();
  if (pid < 0) return Status::FromErrno(errno, "fork " + argv[0]);
  if (pid == 0) {
    // The child must not inherit our handlers' "ignore and record" behaviour.
    // A cleanup child ignores the terminal's Ctrl-C (sent to the whole
    // process group) so an umount or a restore is not cut short by it.
    signal(SIGINT, on_interrupt == OnInterrupt::kFinish ? SIG_IGN : SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    ExecInChild(prog, argv, out_pipe[1], err_pipe[1]);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  SubprocessResult res;
  uint64_t start = NowNanos();
  bool aborted = false, timed_out = false;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  char buf[65536];
  while (open_fds > 0) {
    int n = poll(fds, 2, 100);
    if (on_interrupt == OnInterrupt::kAbort && InterruptRequested() &&
        !aborted) {
      aborted = true;
      kill(pid, SIGTERM);
    }
    if (timeout_ns && NowNanos() - start > timeout_ns && !timed_out) {
      timed_out = true;
      kill(pid, SIGKILL);
    }
    if (n <= 0) continue;
    for (int i = 0; i < 2; i++) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      ssize_t r = read(fds[i].fd, buf, sizeof(buf));
      if (r > 0) {
        (i == 0 ? res.out : res.err).append(buf, static_cast<size_t>(r));
      } else if (r == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        open_fds--;
      }
    }
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) {
    res.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    res.exit_code = 128 + WTERMSIG(status);
  }
  if (aborted) return Status::Aborted(argv[0] + " interrupted");
  if (timed_out) return Status::IOError(argv[0] + " timed out");
  if (res.exit_code == 127 && res.out.empty()) {
    return Status::NotFound(argv[0] + " could not be started");
  }
  return res;
}

}  // namespace disktune
