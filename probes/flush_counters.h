// Completed-flush counters of block devices (/sys/block/X/stat fields 16-17),
// read before and after a durability point to tell whether syncs reached the
// device as flush requests.
//
// The counters are device-wide: other writers on the same disk add flushes
// too, so a count is an upper bound for the probe's own flushes. A count of
// zero is exact: no sync of ours reached the device as a flush.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/core/status.h"
#include "src/model/device_info.h"

namespace disktune {

struct FlushCounters {
  uint64_t flushes = 0;          // field 16: flush requests completed
  uint64_t flush_ms = 0;         // field 17: time spent on them
  uint64_t writes = 0;           // field 5: write requests completed
  uint64_t sectors_written = 0;  // field 7: 512-byte sectors written
};

// Reads /sys/block/<disk>/stat. NotSupported for a kernel older than 5.5
// (fewer than 17 fields: flushes are not counted there).
Result<FlushCounters> ReadFlushCounters(const std::string& disk);
// Parses the text of a stat file (exposed for tests).
Result<FlushCounters> ParseDiskStat(const std::string& text);

// The whole disks a directory's I/O passes through, top first: the
// filesystem's own device (loop0, dm-0, or the disk of a partition) and the
// physical disk at the end of the chain ("loop0", "vda").
std::vector<std::string> FlushDisks(const DeviceInfo& device);

// Counters of several disks at one moment.
class FlushSnapshot {
 public:
  static FlushSnapshot Take(const std::vector<std::string>& disks);
  // Per disk, this minus `before`; disks unreadable in either are left out.
  std::map<std::string, FlushCounters> Since(const FlushSnapshot& before) const;

 private:
  std::map<std::string, FlushCounters> counters_;
};

// The metrics a durability point reports for `syncs` synchronisation
// requests: flushes, flushes_per_sync and flush_time_ms on `disks.back()` (the
// physical disk), and each disk's count under flushes_by_device. Nothing when
// the counters could not be read.
void AddFlushMetrics(const std::vector<std::string>& disks,
                     const std::map<std::string, FlushCounters>& delta,
                     uint64_t syncs, nlohmann::json* metrics);

}  // namespace disktune
