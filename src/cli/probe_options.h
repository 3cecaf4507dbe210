// The probe flags, shared by `probe` and `run` (which probes first).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "probes/probe.h"
#include "src/core/status.h"

namespace disktune::cli {

struct ProbeFlags {
  bool quick = false;
  std::vector<std::string> probes;  // ids; empty = the defaults
  std::string file_size;
  std::string duration;
  std::string warmup;
  std::vector<int> queue_depths;
  bool with_fio = false;
  bool fio_first = false;
  std::string measure_with;  // auto / native / fio; empty = auto
  bool buffered = false;
  std::optional<uint64_t> seed;
  int repeat = 1;
  // Durability (the fsync probe).
  bool write_cache_ab = false;
  bool kernel_cache_switch = false;
  std::vector<std::string> fs_matrix;
  std::vector<std::string> fsync_methods;
  std::vector<std::string> fsync_sizes;
  std::vector<std::string> fsync_modes;
  std::string fsync_duration;
};

void AddProbeFlags(CLI::App* cmd, ProbeFlags* flags);
// Defaults for quick/full, overridden by the flags given. One-line errors.
Result<ProbeConfig> BuildProbeConfig(const ProbeFlags& flags);

}  // namespace disktune::cli
