// The probe part of `probe` and `run`: opens the scratch directory, collects
// the environment, runs the probes and fills the report. Removes the scratch
// files on every return (the ScratchDir is scoped to this call).
#pragma once

#include "reports/report.h"
#include "src/cli/command.h"
#include "src/cli/probe_options.h"

namespace disktune::cli {

// Checks that --json FILE can be written before anything runs for minutes.
Status CheckJsonDestination(const CommonOptions& common);

// On Aborted the report holds what was measured, marked "interrupted".
Status RunProbeSession(const CommonOptions& common, const ProbeFlags& flags,
                       CommandContext& ctx, Report* report);

}  // namespace disktune::cli
