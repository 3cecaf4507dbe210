// Probe points as a probe run names and parametrises them, for tests that
// feed the rules and the model: the caller sets the figure.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "src/model/probe_result.h"

namespace disktune::testing {

// A block I/O point: `probe` ("rand_read", "seq_write", ...) at `block`
// bytes and queue depth `qd`.
inline ProbeResult BlockPoint(std::string name, std::string probe,
                              uint64_t block, int qd) {
  ProbeResult p;
  p.name = std::move(name);
  p.probe = std::move(probe);
  p.params.block_size_bytes = block;
  p.params.queue_depth = qd;
  return p;
}

// An fsync point: one fdatasync after each write of `block` bytes in
// `pattern` ("append", "overwrite"), its latency summary ready to fill.
inline ProbeResult FdatasyncPoint(std::string name, uint64_t block,
                                  std::string pattern) {
  ProbeResult p;
  p.name = std::move(name);
  p.probe = "fsync";
  p.params.method = "fdatasync";
  p.params.pattern = std::move(pattern);
  p.params.block_size_bytes = block;
  p.latency_ns = LatencySummary{};
  return p;
}

}  // namespace disktune::testing
