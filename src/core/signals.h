// SIGINT / SIGTERM handling. The handler only records the signal; long loops
// poll InterruptRequested() and return Status::Aborted, so cleanup runs on the
// normal unwinding path (scratch directory, write cache, loop devices).
#pragma once

namespace disktune {

// Installs the handlers (idempotent). SA_RESTART is off so blocking calls
// return EINTR and the caller notices promptly.
void InstallInterruptHandlers();
// True once SIGINT or SIGTERM arrived.
bool InterruptRequested();
// The signal number that arrived, or 0.
int InterruptSignal();
// The conventional exit code for the signal (130 for SIGINT, 143 for SIGTERM).
int InterruptExitCode();
// For tests.
void ResetInterruptForTesting();

}  // namespace disktune
