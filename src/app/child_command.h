// `disktune exec`'s command: a child process that runs in this process's
// cgroup (so a throttle limits it), with this process's stdin, stdout and
// stderr, a working directory and environment additions of the caller's
// choosing. The command is an argv, never a shell line.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "src/core/status.h"

namespace disktune::app {

struct ChildCommand {
  // argv[0] as ResolveChildProgram returned it; argv[1..] as given.
  std::string program;
  std::vector<std::string> argv;
  std::string cwd;  // the child's working directory
  // Set in the child's environment (replacing a variable of the same name);
  // the rest of this process's environment is passed on.
  std::vector<std::pair<std::string, std::string>> env;
};

// The program to execute for `name`: searched in PATH (then /usr/sbin,
// /sbin) when it has no '/', else taken relative to the current directory
// (made absolute, since the child starts elsewhere). NotFound in one line
// when there is no such executable.
Result<std::string> ResolveChildProgram(const std::string& name);

// Runs the command and waits for it. An interrupt that reaches this process
// meanwhile (SIGINT, SIGTERM, SIGHUP, SIGQUIT: src/core/signals.h) is sent
// on to the child once, and the wait goes on until the child ends, so the
// caller's cleanup runs after it. Returns the child's exit code, or 128+N
// when it died of signal N; IOError when it could not be started (fork) and
// 127 when it could not be executed (the child says why on stderr).
Result<int> RunChildCommand(const ChildCommand& command);

}  // namespace disktune::app
