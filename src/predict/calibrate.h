// The CPU cost per op of each scenario, measured on this CPU by running the
// same steps with the database in memory (/dev/shm): every read hits memory,
// every write and sync returns at memory speed, so what remains is the
// engine's own work (and its background threads' share of the CPUs).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/bench/runner.h"
#include "src/core/status.h"

namespace disktune::predict {

struct CalibrationPoint {
  std::string engine;
  // As run in memory: a -cold step runs as itself, its reopen included,
  // with the page cache kept.
  std::string scenario;
  int step = 0;  // the step of the plan it stands for
  uint64_t num = 0;
  uint64_t ops = 0;
  double cpu_ns = 0;  // wall ns per op, in memory
  // Bytes the engine passed to write calls per op, in memory (WAL, tables,
  // manifest): what a device must take for each op once it keeps up.
  std::optional<double> write_call_bytes_per_op;
};

struct Calibration {
  std::string cpu_model;
  std::string dir;  // where the in-memory databases lived
  std::vector<CalibrationPoint> points;
  // The in-memory run's own results (each step as run, its cache kept).
  std::vector<bench::BenchResult> results;

  // The point for this engine, scenario and step; else for this engine and
  // scenario.
  const CalibrationPoint* Find(const std::string& engine,
                               const std::string& scenario, int step) const;
};

// Runs `request` (its engines, scenarios and overrides; repeat 1) in a
// scratch directory under `memory_dir` that it removes afterwards. Error
// when the directory is not in memory (not tmpfs) or has no room, or the run
// fails; the caller then predicts nothing.
Result<Calibration> Calibrate(const bench::BenchRequest& request,
                              const std::string& memory_dir = "/dev/shm");

}  // namespace disktune::predict
