// The probe flags of `probe` and `run` as a plan for the probe step
// (src/app/probe_step.h), checked before anything is created.
#pragma once

#include <optional>

#include "src/app/probe_step.h"
#include "src/cli/command.h"
#include "src/cli/probe_options.h"
#include "src/model/throttle_spec.h"

namespace disktune::cli {

// Checks that --json FILE can be written before anything runs for minutes.
Status CheckJsonDestination(const CommonOptions& common);

// The probe step's plan from the flags, and the --throttle it runs under
// (nullopt without one: app::PlanThrottle): every flag checked (the probe
// flags, --json's destination, what the probes cannot do under
// --throttle) before anything is created. The throttle's limits set the
// progress estimate's priors.
struct ProbeSetup {
  app::ProbePlan plan;
  std::optional<ThrottleSpec> throttle;
};
Result<ProbeSetup> PlanProbeStep(const CommonOptions& common,
                                 const ProbeFlags& flags);

}  // namespace disktune::cli
