// fio as a second opinion: runs the job equivalent to a native probe point on
// the same file (io_uring, same block size, depth, pattern and duration) and
// compares the figures.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "probes/probe_result.h"
#include "src/core/status.h"

namespace disktune {

struct FioJob {
  std::string file;
  uint64_t file_size_bytes = 0;
  bool write = false;
  bool random = false;
  uint64_t block_size = 4096;
  int queue_depth = 1;
  bool direct = true;
  uint64_t warmup_ns = 0;
  uint64_t duration_ns = 0;
};

std::vector<std::string> FioCommand(const FioJob& job);

// Parses fio's --output-format=json for the first job into a comparison
// (without ratios). Corruption when the text is not fio JSON.
Result<FioComparison> ParseFioJson(const std::string& text, bool write);

// Runs fio; status "skipped" when fio is not installed, "failed" with fio's
// message when it fails. Aborted on SIGINT/SIGTERM.
Result<FioComparison> RunFio(const FioJob& job);

// Fills in the native/fio ratios from `native`.
void AddFioRatios(const ProbeResult& native, FioComparison* fio);

}  // namespace disktune
