// The probe step of `probe` and `run` (and the few points `bench` measures
// for its predictions): the probes in the Session's scratch directory, with
// the environment the Session collected, into a report.
#pragma once

#include <vector>

#include "probes/probe.h"
#include "src/app/session.h"
#include "src/core/progress.h"
#include "src/core/status.h"
#include "src/model/report.h"

namespace disktune::app {

// What the flags chose, checked before the Session opens: the probes and
// their configuration (already planned for the throttle, PlanForThrottle).
struct ProbePlan {
  ProbeConfig config;
  std::vector<const Probe*> probes;
};

// Checks the space the test file needs (naming --file-size), then runs the
// plan in session.scratch() with progress lines on `progress`, and fills
// the report: the session's environment, the configuration, the results,
// analyses, warnings and the probes' own bytes. The test file is unlinked
// afterwards (unless `keep`) so its space goes back to the steps after
// it. On Aborted the report holds what was measured, marked "interrupted".
Status RunProbeStep(const ProbePlan& plan, const Session& session,
                    ProgressSink* progress, bool keep, Report* report);

}  // namespace disktune::app
