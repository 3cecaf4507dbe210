// Facts about the machine recorded in every report: host, kernel, CPU, memory.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "src/core/status.h"

namespace disktune {

struct SystemInfo {
  std::string hostname;
  std::string kernel;  // uname -r
  std::string os;      // PRETTY_NAME from /etc/os-release, "" if absent
  std::string cpu_model;
  int cpu_count = 0;  // online CPUs
  uint64_t memory_bytes = 0;
  uint64_t memory_available_bytes = 0;
  bool is_root = false;
  // The 1-minute load average when the run started (/proc/loadavg).
  std::optional<double> load_average_1m;
  // The same when its measurements ended (set by the command that measured),
  // so a verdict knows whether the machine was busy during them.
  std::optional<double> load_average_1m_after;
};

// A machine is busy above this 1-minute load average per CPU (Linux counts
// tasks waiting for a CPU and tasks in disk wait; a probe alone keeps it near
// one per CPU). Figures taken then carry scheduling delays (a short fsync
// waits for a CPU), far beyond the noise floors (benchmarks/README.md,
// "compare: noise before regressions").
inline constexpr double kBusyLoadPerCpu = 2.0;
// Whether `load` (a 1-minute load average) is beyond kBusyLoadPerCpu.
bool LoadIsBusy(const std::optional<double>& load, int cpu_count);
// Whether the load before or after the measurements was busy.
bool MachineWasBusy(const SystemInfo& s);

// /proc/loadavg's first field, or nullopt when it cannot be read.
std::optional<double> ReadLoadAverage1m();

SystemInfo ReadSystemInfo();

// MemTotal from /proc/meminfo; 0 when unreadable.
uint64_t PhysicalMemoryBytes();
// The one rule for every size that must be held in memory (block cache,
// write buffer, memory budget, the bench's key model): more than the
// machine's physical memory is refused, InvalidArgument naming `what`
// ("--cache-size 1EiB"), the memory and the limit. OK when MemTotal is
// unreadable. `advice` ends the line.
Status CheckFitsInMemory(const std::string& what, uint64_t bytes,
                         const std::string& advice =
                             "give at most that (it must be held in "
                             "memory)");

// Reads a small text file whole; trailing newline removed.
Result<std::string> ReadTextFile(const std::string& path);

// "2026-11-21T12:34:56Z"
std::string UtcTimestamp();
// "20261121-123456" (local time), for directory names.
std::string LocalStamp();

}  // namespace disktune
