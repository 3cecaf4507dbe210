#include "src/core/signals.h"

#include <signal.h>

#include <atomic>

namespace disktune {
namespace {

std::atomic<int> g_signal{0};

void OnSignal(int sig) {
  int expected = 0;
  g_signal.compare_exchange_strong(expected, sig);
}

}  // namespace

void InstallInterruptHandlers() {
  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;
  // A dropped SSH session (SIGHUP), Ctrl-\ (SIGQUIT) and a reader that went
  // away (SIGPIPE) end the run like Ctrl-C: through the normal return path,
  // so the scratch directory, write caches, mounts and loop devices are put
  // back.
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE})
    sigaction(sig, &sa, nullptr);
  // Past `ulimit -f`, a write fails with EFBIG (reported with the file's
  // name) instead of killing the process with files and settings left.
  signal(SIGXFSZ, SIG_IGN);
}

const char* InterruptSignalName() {
  switch (g_signal.load()) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    case SIGQUIT:
      return "SIGQUIT";
    case SIGPIPE:
      return "SIGPIPE";
    default:
      return "a signal";
  }
}

bool InterruptRequested() {
  return g_signal.load(std::memory_order_relaxed) != 0;
}
int InterruptSignal() { return g_signal.load(); }
int InterruptExitCode() { return g_signal.load() ? 128 + g_signal.load() : 0; }
void ResetInterruptForTesting() { g_signal.store(0); }

}  // namespace disktune
