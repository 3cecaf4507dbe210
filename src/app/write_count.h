// What a command wrote, counted two ways from its start: the sectors the disk
// under --dir completed writing (what reached the device, but every writer's)
// and the kernel's count for this process (/proc/self/io; it counts a large
// folio whole each time a small write re-dirties it, so it can exceed what
// the disk received).
#pragma once

#include <cstdint>
#include <optional>

#include "probes/flush_counters.h"
#include "src/bench/process_stats.h"
#include "src/core/status.h"
#include "src/model/device_info.h"
#include "src/model/report.h"

namespace disktune {

class WriteCount {
 public:
  // Starts counting for `disk`, the disk under --dir as the Session
  // resolved it (session.h); an error counts the process's writes only.
  explicit WriteCount(const Result<DeviceInfo>& disk);

  // What the disk completed writing since the start; nullopt when its
  // counters cannot be read.
  std::optional<uint64_t> DiskBytesSoFar() const;

  // Puts what was written so far into the report: analyses.bytes_written
  // (both counts, as far as each is readable) and report->bytes_written
  // (the disk's count when readable, else the process's).
  void Record(Report* report) const;

 private:
  Result<DeviceInfo> disk_;
  std::optional<FlushCounters> disk_before_;
  bench::ProcessSnapshot io_before_;
};

}  // namespace disktune
