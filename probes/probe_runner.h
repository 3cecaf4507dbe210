// Runs a list of probes against a scratch directory: preflight checks, the
// shared test file, each probe's points, the analyses, and the check that
// O_DIRECT reads really bypassed the page cache.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "probes/probe.h"
#include "src/model/analyses.h"
#include "src/model/environment.h"

namespace disktune {

class ScratchDir;

struct ProbeRunOutput {
  std::vector<ProbeResult> results;
  model::Analyses analyses;
  std::vector<std::string> warnings;
  uint64_t bytes_written =
      0;  // by the probes' own files (test file fill + writes)
  // The test file left in the scratch directory ("" when none was made).
  std::string test_file;
};

// The run's plan for the progress estimate: the test file's fill (when
// `fill_bytes` > 0, as step 0), then each point of each round in run order,
// with the priors of config.sync_io_ns and config.fill_bytes_per_sec.
PlanClock PlanProbeRun(const std::vector<const Probe*>& probes,
                       const ProbeConfig& config, uint64_t fill_bytes);

// A throttled run's priors from its limits: the fill at the write bandwidth
// limit; a sync I/O at the write IOPS limit, unless the class has a sync
// floor. Without a floor, the 32-sync calibration would run inside the
// throttle's first time slice, at the backing disk's speed; with one, the
// floor sets each sync's pace and the calibration, on the floored device,
// measures it (benchmarks/README.md, "Progress estimates").
void PlanForThrottle(const ThrottleSpec& spec, ProbeConfig* config);

// Errors (with one clear message) only for what stops the whole run: no
// space for the test file, an unwritable directory, O_DIRECT refused when every
// selected probe needs it and --buffered was not given, an interrupt (Aborted;
// `out` then holds the results so far).
Status RunProbes(const std::vector<const Probe*>& probes,
                 const ProbeConfig& config, const ScratchDir& scratch,
                 const Environment& env, ProgressSink* progress,
                 ProbeRunOutput* out,
                 const FilesystemWorkload& fs_workload = {});

// One warning line per cause of failure (a full disk fails every fsync point
// at once: one line, with the first few points' names and a count).
std::vector<std::string> SummarizeFailures(
    const std::vector<ProbeResult>& results);
// True when some point failed and none succeeded (skipped ones aside).
bool EveryPointFailed(const std::vector<ProbeResult>& results);

}  // namespace disktune
