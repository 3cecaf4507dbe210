// --throttle on probe, bench, tune and run: the throttled device
// (probes/throttled_device.h) for one command, with a scratch directory of
// its own inside the throttled filesystem, where the command measures.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "probes/probe.h"
#include "probes/throttled_device.h"
#include "src/core/progress.h"
#include "src/core/scratch_dir.h"
#include "src/model/environment.h"
#include "src/model/throttle_spec.h"

namespace disktune::app {

// nullopt without --throttle (`throttle` is the flag's text, "" = none).
// Bad syntax (InvalidArgument) and no root (PermissionDenied) are refused
// here, before anything is created.
Result<std::optional<ThrottleSpec>> PlanThrottle(const std::string& throttle);

// What the probes cannot do under `--throttle` (the flag's text; "" =
// none): --fs-matrix makes loop devices of its own on the throttled device,
// which the cgroup does not limit (their writes reach it around the cgroup)
// and whose syncs the class's sync floor does not reach; --write-cache-ab
// under a class with a floor compares two halves that both measure the
// floor (benchmarks/README.md, "What escapes the throttle", "Nested loop
// devices"). InvalidArgument in one line, before anything is made.
Status CheckThrottledProbes(const ProbeConfig& config,
                            const std::string& throttle);

// A --probe-result file's figures describe the disk they were measured on:
// a run under `throttle` (the flag's text; "" = none) reads only figures
// measured under the same limits and sync floor, and a run without one only
// figures measured without. InvalidArgument in one line otherwise (bad
// --throttle syntax is PlanThrottle's to refuse).
Status CheckProbeResultThrottle(const std::string& path,
                                const std::optional<ThrottleRecord>& measured,
                                const std::string& throttle);

class ThrottleSession {
 public:
  // Makes the device inside `outer` (an image of up to 3/4 of its free
  // space, at most 32 GiB, sparse), a scratch directory in it, and moves
  // this process into the cgroup.
  static Result<std::unique_ptr<ThrottleSession>> Start(
      const ThrottleSpec& spec, const ScratchDir& outer,
      ProgressSink* progress);
  ~ThrottleSession();
  ThrottleSession(const ThrottleSession&) = delete;
  ThrottleSession& operator=(const ThrottleSession&) = delete;

  // Where the command measures.
  const ScratchDir& scratch() const { return *inner_; }
  // Bytes at the device and charged to the cgroup so far (for a step's
  // share: the difference of two snapshots).
  ThrottleAccounting Snapshot() const { return device_->Snapshot(); }
  // The record so far (accounting since the device was made).
  ThrottleRecord Record() const { return device_->Record(); }

  // Removes the inner scratch directory, records the throttle (with what
  // escaped it) in `env`, leaves the cgroup and removes the device;
  // idempotent. The destructor does the same without recording.
  Status Finish(Environment* env);

 private:
  ThrottleSession() = default;
  std::unique_ptr<ThrottledDevice> device_;
  std::unique_ptr<ScratchDir> inner_;
};

}  // namespace disktune::app
