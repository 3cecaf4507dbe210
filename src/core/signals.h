// SIGINT / SIGTERM / SIGHUP / SIGQUIT / SIGPIPE handling. The handler only
// records the signal; long loops poll InterruptRequested() and return
// Status::Aborted, so cleanup runs on the normal unwinding path (scratch
// directory, write cache, loop devices).
#pragma once

namespace disktune {

// Installs the handlers (idempotent). SA_RESTART is off so blocking calls
// return EINTR and the caller notices promptly.
void InstallInterruptHandlers();
// True once one of those signals arrived.
bool InterruptRequested();
// The signal number that arrived, or 0.
int InterruptSignal();
// The conventional exit code for the signal (128 + its number: 130 for
// SIGINT, 143 for SIGTERM, 129 for SIGHUP).
int InterruptExitCode();
// "SIGHUP", for messages.
const char* InterruptSignalName();
// For tests.
void ResetInterruptForTesting();

}  // namespace disktune
