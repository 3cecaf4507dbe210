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
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

bool InterruptRequested() {
  return g_signal.load(std::memory_order_relaxed) != 0;
}
int InterruptSignal() { return g_signal.load(); }
int InterruptExitCode() { return g_signal.load() ? 128 + g_signal.load() : 0; }
void ResetInterruptForTesting() { g_signal.store(0); }

}  // namespace disktune
