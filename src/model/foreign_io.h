// Other I/O on the device during the measurements, as data: the
// snapshots, the figures derived from them, the rule that judges them and
// their JSON form (probes/foreign_io.h takes the snapshots). a gate missed
// while another process was reading or writing the same disk is not a verdict
// on the disk (issue: verdicts that know their conditions).
//
// Before and after the measurements the window records the disk's bytes
// (/sys/block/<disk>/stat, sectors read and written), the bytes this process
// and its reaped children caused (getrusage blocks in and out, which are
// /proc/<pid>/io's read_bytes and write_bytes) and the bytes every other
// live process caused (/proc/<pid>/io; all of them as root, the user's own
// otherwise). Foreign I/O is the smaller of (the disk's bytes minus this
// process's) and (the other processes' bytes): the first also counts the
// filesystem's own journal writes for our syncs, the second I/O to other
// disks, and each bounds the other.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace disktune {

// The run is busy with foreign I/O when other processes moved at least
// this share of the device's bytes and at least this rate on average
// (1 MiB/s is 256 random 4 KiB I/Os a second: more than a 7,200 rpm disk
// serves). README, "Reading the verdict".
inline constexpr double kForeignIoShare = 0.10;
inline constexpr double kForeignIoBytesPerSec = 1024.0 * 1024.0;

struct IoSnapshot {
  uint64_t at_ns = 0;  // monotonic clock
  uint64_t device_read_bytes = 0, device_write_bytes = 0;
  uint64_t device_read_ios = 0, device_write_ios = 0;
  uint64_t own_bytes = 0;     // this process and its reaped children
  uint64_t others_bytes = 0;  // the other live processes, summed
};

struct ForeignIo {
  std::string disk;  // "vda"
  IoSnapshot before;
  std::optional<IoSnapshot> after;
  // Derived when `after` is taken (or read back).
  double seconds = 0;
  uint64_t device_bytes = 0, own_bytes = 0, others_bytes = 0;
  uint64_t foreign_bytes = 0;
  double device_ios_per_sec = 0;
  bool busy = false;
  std::string reason;  // "other I/O on vda: ..." when busy
  // Each other process's bytes at `before`: those that started later count
  // from zero. Not serialized.
  std::map<int, uint64_t> others_at_start;
};

// The rule, on the derived figures (seconds, device/own/others bytes):
// fills foreign_bytes, device_ios_per_sec, busy and reason.
void JudgeForeignIo(ForeignIo* w);

void to_json(nlohmann::json& j, const ForeignIo& w);
void from_json(const nlohmann::json& j, ForeignIo& w);

}  // namespace disktune
