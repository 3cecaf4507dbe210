#include "src/predict/calibrate.h"

#include <sys/statfs.h>

#include "src/core/scratch_dir.h"
#include "src/core/sysinfo.h"

namespace disktune::predict {
namespace {

constexpr long kTmpfsMagic = 0x01021994;  // TMPFS_MAGIC, linux/magic.h

// A step with fewer ops than this is too short to time once: the plan is run
// kShortRepeats times and its fastest run stands for the CPU; the other
// steps take their median run (the rule: benchmarks/README.md, "Prediction
// design records"). Only a plan whose
// single run took under kShortPlanNs is repeated, so a large plan is never
// run twice for the sake of its one short step.
constexpr uint64_t kMinCalibrationOps = 1000;
constexpr int kShortRepeats = 5;
constexpr uint64_t kShortPlanNs = 5'000'000'000;

bool HasShortStep(const std::vector<bench::BenchResult>& results,
                  uint64_t* total_ns) {
  bool shortstep = false;
  *total_ns = 0;
  for (const bench::BenchResult& r : results) {
    *total_ns += r.metrics.elapsed_ns;
    if (r.status == bench::RunStatus::kOk && r.metrics.ops > 0 &&
        r.metrics.ops < kMinCalibrationOps) {
      shortstep = true;
    }
  }
  return shortstep;
}

// Ops per second of the run that stands for the CPU: a short step's fastest
// run, any other step's median run (the only run when not repeated). The
// fastest of five of a long step is faster than the one run it predicts.
double CalibratedOpsPerSec(const bench::BenchResult& r) {
  if (!r.repeats.has_value()) return r.metrics.ops_per_sec;
  if (r.metrics.ops < kMinCalibrationOps) return r.repeats->ops_per_sec.max;
  return r.repeats->ops_per_sec.median;
}

bool InMemory(const std::string& dir) {
  struct statfs st {};
  return statfs(dir.c_str(), &st) == 0 && st.f_type == kTmpfsMagic;
}

}  // namespace

const CalibrationPoint* Calibration::Find(const std::string& engine,
                                          const std::string& scenario,
                                          int step) const {
  for (const CalibrationPoint& p : points) {
    if (p.engine == engine && p.step == step && p.scenario == scenario) {
      return &p;
    }
  }
  for (const CalibrationPoint& p : points) {
    if (p.engine == engine && p.scenario == scenario) return &p;
  }
  return nullptr;
}

Result<Calibration> Calibrate(const bench::BenchRequest& request,
                              const std::string& memory_dir) {
  if (!InMemory(memory_dir)) {
    return Status::NotSupported(
        memory_dir + " is not a tmpfs: the CPU calibration needs memory");
  }
  auto scratch = ScratchDir::Create(memory_dir, "calibration dir");
  if (!scratch.ok()) return scratch.status();
  bench::BenchRequest req = request;
  req.repeat = 1;
  req.db_root = (*scratch)->Join("calibrate");
  // A -cold step runs as itself with the cache kept: its reopen, and the
  // flushes and compactions the reopen starts, happen in memory as on the
  // disk, and only the eviction is skipped.
  req.user.page_cache = bench::PageCachePolicy::kKeep;
  req.results = [](std::string_view) {};
  req.progress = [](std::string_view) {};
  auto results = bench::RunBench(req);
  if (!results.ok()) return results.status();
  uint64_t total_ns = 0;
  if (HasShortStep(*results, &total_ns) && total_ns < kShortPlanNs) {
    req.repeat = kShortRepeats;
    results = bench::RunBench(req);
    if (!results.ok()) return results.status();
  }
  Calibration c;
  c.cpu_model = ReadSystemInfo().cpu_model;
  c.dir = memory_dir;
  for (const bench::BenchResult& r : *results) {
    const double ops_per_sec = CalibratedOpsPerSec(r);
    if (r.status != bench::RunStatus::kOk || ops_per_sec <= 0) continue;
    CalibrationPoint p;
    p.engine = r.engine;
    p.scenario = r.scenario;
    p.step = r.step;
    p.num = r.params.num;
    p.ops = r.metrics.ops;
    p.cpu_ns = 1e9 / ops_per_sec;
    if (r.metrics.write_call_bytes && r.metrics.ops > 0) {
      p.write_call_bytes_per_op =
          static_cast<double>(*r.metrics.write_call_bytes) /
          static_cast<double>(r.metrics.ops);
    }
    c.points.push_back(p);
  }
  c.results = std::move(*results);
  return c;
}

}  // namespace disktune::predict
