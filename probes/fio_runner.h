// fio as a second opinion: runs the job equivalent to a native probe point on
// the same file (io_uring, same block size, depth, pattern and duration) and
// compares the figures.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/core/status.h"
#include "src/model/probe_result.h"

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
  // Bytes the job may move, warm-up included (0 = no cap): a byte cap ends
  // the job early as the native write points' max_bytes does (fio's io_size,
  // not time-based then).
  uint64_t max_bytes = 0;
  // --iomem=mmaphuge: the buffers in reserved huge pages (vm.nr_hugepages),
  // physically contiguous, as the native loop's (probes/uring_job.cc).
  bool huge_pages = false;
};

// True when the reserved huge pages free now hold a job's buffers
// (queue_depth x block_size, with a page of slack for fio's alignment).
bool FioHugePagesFit(int queue_depth, uint64_t block_size);

std::vector<std::string> FioCommand(const FioJob& job);

// Parses fio's --output-format=json for the first job into a comparison
// (without ratios): rates, total latency, I/O count, bytes, runtime and the
// job's context switches. Corruption when the text is not fio JSON.
Result<FioComparison> ParseFioJson(const std::string& text, bool write);

// Runs fio; status "skipped" when fio is not installed, "failed" with fio's
// message when it fails. Aborted on SIGINT/SIGTERM.
Result<FioComparison> RunFio(const FioJob& job);

// Whether fio is on PATH (probe --measure-with auto measures with it then).
bool FioInstalled();

// Fills a point's figures from fio's (fio measured it): rates, latency,
// samples, bytes, elapsed time and context switches; sets measured_by fio.
// NotSupported (the result untouched) when fio did not succeed or
// completed no I/O.
Status FillFromFio(const FioComparison& fio, ProbeResult* r);

// Fills in the native/fio ratios from `native`.
void AddFioRatios(const ProbeResult& native, FioComparison* fio);

}  // namespace disktune
