// Repairing after a run that was killed while it had device settings
// changed: used by `disktune restore` and before a measuring command opens
// its Session (open_session.h).
#pragma once

#include "src/cli/command.h"

namespace disktune::cli {

// Undoes the journal entries of runs that are gone, saying so on stderr,
// before anything is measured. Without root it only warns. Fails (so nothing
// is measured on a half-restored device) when an entry cannot be undone or
// the journal is unreadable.
Status RecoverFromKilledRun(CommandContext& ctx);

}  // namespace disktune::cli
