// A Session: where one command measures, resolved once. It opens the
// scratch directory under --dir, resolves the disk under it, and, under
// --throttle, makes the throttled device inside it; it collects the
// environment of the place the steps measure (the throttled device when
// there is one, else the disk under --dir) once. The probe, bench and tune
// steps take it (or what they need from it) instead of resolving the
// device again; the write count counts the disk under --dir, where the
// throttled device's image lives too.
//
// Destroyed in reverse order of opening: the throttled device (its scratch
// directory, mount, loop device and cgroup), then the scratch directory, on
// every exit path.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "src/app/throttle_session.h"
#include "src/app/write_count.h"
#include "src/core/progress.h"
#include "src/core/scratch_dir.h"
#include "src/core/status.h"
#include "src/model/device_info.h"
#include "src/model/environment.h"
#include "src/model/throttle_spec.h"

namespace disktune::app {

struct SessionOptions {
  std::string dir;    // --dir: where the scratch directory is made ("" = .)
  bool keep = false;  // --keep: the scratch files stay at the end
  // --throttle, as PlanThrottle returned it (it has checked root).
  std::optional<ThrottleSpec> throttle;
};

// Opens the scratch directory under `dir` (journaled so `restore` removes
// it after a SIGKILL) and keeps it when `keep`; as each command opened it.
Result<std::unique_ptr<ScratchDir>> OpenScratch(const std::string& dir,
                                                bool keep);

class Session {
 public:
  // REQUIRES: a killed run's journal entries are put back already (the
  // caller says so on its stderr: src/cli/restore_command.h). `progress`
  // gets the throttle's line; it must outlive the call only.
  static Result<std::unique_ptr<Session>> Open(const SessionOptions& options,
                                               ProgressSink* progress);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Where the steps measure: the throttled device's scratch directory
  // under --throttle, else the scratch directory under --dir.
  const ScratchDir& scratch() const;
  // The disk under --dir (what the write count reads), as resolved once.
  const Result<DeviceInfo>& disk() const { return disk_; }
  // The environment of scratch(): its filesystem and device, collected at
  // Open (the start of other processes' I/O count: foreign_io.h), and under
  // --throttle the class's record as it was at Open.
  const Environment& environment() const { return environment_; }
  // The throttled device; null without --throttle. REQUIRES for it and
  // for scratch(): FinishThrottle has not run.
  ThrottleSession* throttled() const { return throttled_.get(); }

  // What was written since Open, before the throttled device was made.
  const WriteCount& writes_since_open() const { return *since_open_; }
  // A count that starts now (a command that counts only its steps).
  WriteCount CountWritesFromNow() const { return WriteCount(disk_); }

  // Removes the throttled device, recording the throttle in `env` (may be
  // null); OK without one. Idempotent.
  Status FinishThrottle(Environment* env);

 private:
  Session() = default;
  std::unique_ptr<ScratchDir> scratch_;
  Result<DeviceInfo> disk_ = Status::NotFound("not resolved");
  std::optional<WriteCount> since_open_;
  std::unique_ptr<ThrottleSession> throttled_;
  Environment environment_;
};

}  // namespace disktune::app
