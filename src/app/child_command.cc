#include "src/app/child_command.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "src/core/signals.h"
#include "src/core/subprocess.h"

extern char** environ;

namespace disktune::app {
namespace {

// The child's environment: this process's, with `env` set over it.
std::vector<std::string> ChildEnvironment(
    const std::vector<std::pair<std::string, std::string>>& env) {
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) {
    std::string entry(*e);
    std::string name = entry.substr(0, entry.find('='));
    bool replaced = false;
    for (const auto& [k, v] : env) replaced |= k == name;
    if (!replaced) out.push_back(entry);
  }
  for (const auto& [k, v] : env) out.push_back(k + "=" + v);
  return out;
}

std::vector<char*> Pointers(std::vector<std::string>& strings) {
  std::vector<char*> p;
  for (std::string& s : strings) p.push_back(s.data());
  p.push_back(nullptr);
  return p;
}

// In the forked child: only async-signal-safe calls (this process has
// threads, such as the throttle's pacer). Dispositions this process set to
// ignore (SIGPIPE's handler is reset by exec; SIGXFSZ is ignored) and its
// signal mask would be inherited, so they are put back to the defaults.
[[noreturn]] void ExecChild(const char* program, char* const* argv,
                            char* const* envp, const char* cwd) {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  signal(SIGXFSZ, SIG_DFL);
  signal(SIGPIPE, SIG_DFL);
  const char* what = "chdir";
  if (chdir(cwd) == 0) {
    execve(program, argv, envp);
    what = "exec";
  }
  const char* err = strerror(errno);
  const char* parts[] = {
      "disktune: exec: ", what, " ", program, ": ", err, "\n"};
  for (const char* s : parts) (void)!write(2, s, strlen(s));
  _exit(127);
}

int ExitCodeOf(int status) {
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

bool Forwarded(int sig) {
  return sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGQUIT;
}

}  // namespace

Result<std::string> ResolveChildProgram(const std::string& name) {
  if (name.empty()) return Status::NotFound("exec: the command is empty");
  std::string path = name;
  if (name.find('/') != std::string::npos) {
    std::error_code ec;
    std::filesystem::path abs = std::filesystem::absolute(name, ec);
    if (!ec) path = abs.string();
  }
  std::string found = FindProgram(path);
  if (found.empty()) {
    return Status::NotFound("exec: " + name +
                            ": no such executable (searched PATH when the "
                            "name has no '/')");
  }
  return found;
}

Result<int> RunChildCommand(const ChildCommand& command) {
  std::vector<std::string> args = command.argv;
  std::vector<std::string> env = ChildEnvironment(command.env);
  std::vector<char*> argv = Pointers(args);
  std::vector<char*> envp = Pointers(env);
  pid_t pid = fork();
  if (pid < 0) return Status::IOError(std::string("fork: ") + strerror(errno));
  if (pid == 0)
    ExecChild(command.program.c_str(), argv.data(), envp.data(),
              command.cwd.c_str());
  // Polled rather than blocked in waitpid: a signal that lands between a
  // check and a blocking wait would not be forwarded until the child ended.
  // The sleep ends early on a signal (no SA_RESTART), so forwarding is
  // prompt.
  int forwarded = 0;
  for (;;) {
    int status = 0;
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) return ExitCodeOf(status);
    if (r < 0 && errno != EINTR)
      return Status::IOError(std::string("waitpid: ") + strerror(errno));
    int sig = InterruptSignal();
    if (sig != 0 && forwarded == 0 && Forwarded(sig)) {
      kill(pid, sig);
      forwarded = sig;
    }
    timespec ts{0, 20 * 1000 * 1000};
    nanosleep(&ts, nullptr);
  }
}

}  // namespace disktune::app
