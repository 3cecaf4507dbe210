// The probe part of `probe` and `run`: collects the environment in the
// scratch directory, runs the probes and fills the report.
#pragma once

#include "reports/report.h"
#include "src/cli/command.h"
#include "src/cli/probe_options.h"
#include "src/core/scratch_dir.h"

namespace disktune::cli {

// Checks that --json FILE can be written before anything runs for minutes.
Status CheckJsonDestination(const CommonOptions& common);

// Runs in `scratch` (`run` shares its one with the bench and the tuner, and
// has repaired what a killed run left: RecoverFromKilledRun), or, when it is
// null, repairs that itself and runs in a scratch directory of its own,
// opened on --dir and removed on every return. On Aborted the report holds what
// was measured, marked "interrupted". Progress goes to `progress` when given
// (`run`'s, which counts the phases after the probes), else to its own.
Status RunProbeSession(const CommonOptions& common, const ProbeFlags& flags,
                       CommandContext& ctx, const ScratchDir* scratch,
                       Report* report, ProgressSink* progress = nullptr);

}  // namespace disktune::cli
