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
};

SystemInfo ReadSystemInfo();

// Reads a small text file whole; trailing newline removed.
Result<std::string> ReadTextFile(const std::string& path);

// "2026-11-21T12:34:56Z"
std::string UtcTimestamp();
// "20261121-123456" (local time), for directory names.
std::string LocalStamp();

}  // namespace disktune
