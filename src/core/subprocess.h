// Runs an external program (fio, mkfs, losetup, hdparm) and captures its
// output.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/core/status.h"

namespace disktune {

struct SubprocessResult {
  int exit_code = -1;  // 128+N when killed by signal N
  std::string out;
  std::string err;
};

// What a SIGINT/SIGTERM does to a running child.
enum class OnInterrupt {
  kAbort,   // kill the child and return Aborted (measurements, mkfs)
  kFinish,  // let it finish: cleanup (umount, losetup -d, restoring a
            // write cache) must run even though an interrupt is pending
};

// Runs argv[0] (searched in PATH, then /usr/sbin and /sbin) with argv.
// NotFound when the program is not installed. The child is killed when
// `timeout_ns` passes or, with OnInterrupt::kAbort, when SIGINT/SIGTERM
// arrives (then Aborted).
Result<SubprocessResult> RunSubprocess(
    const std::vector<std::string>& argv, uint64_t timeout_ns = 0,
    OnInterrupt on_interrupt = OnInterrupt::kAbort);

// For a forked child: stdout to `out_fd`, stderr to `err_fd`, stdin from
// /dev/null, then execv(prog, argv) (argv[0] included). Exits with 127 when
// the program cannot be executed.
[[noreturn]] void ExecInChild(const std::string& prog,
                              const std::vector<std::string>& argv, int out_fd,
                              int err_fd);

// Full path of a program, or "" when it is not installed.
std::string FindProgram(const std::string& name);

}  // namespace disktune
