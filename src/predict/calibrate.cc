#include "src/predict/calibrate.h"

#include <sys/statfs.h>

#include <sstream>

#include "src/core/scratch_dir.h"
#include "src/core/sysinfo.h"

namespace disktune::predict {
namespace {

constexpr long kTmpfsMagic = 0x01021994;  // TMPFS_MAGIC, linux/magic.h

bool InMemory(const std::string& dir) {
  struct statfs st {};
  return statfs(dir.c_str(), &st) == 0 && st.f_type == kTmpfsMagic;
}

std::string WarmList(const std::string& list) {
  std::stringstream in(list);
  std::string item, out;
  while (std::getline(in, item, ',')) {
    out += (out.empty() ? "" : ",") + WarmTwin(item);
  }
  return out;
}

}  // namespace

std::string WarmTwin(const std::string& scenario) {
  const std::string cold = "-cold";
  if (scenario.size() > cold.size() &&
      scenario.compare(scenario.size() - cold.size(), cold.size(), cold) == 0) {
    return scenario.substr(0, scenario.size() - cold.size());
  }
  return scenario;
}

const CalibrationPoint* Calibration::Find(const std::string& engine,
                                          const std::string& scenario,
                                          int step) const {
  const std::string warm = WarmTwin(scenario);
  for (const CalibrationPoint& p : points) {
    if (p.engine == engine && p.step == step && p.scenario == warm) return &p;
  }
  for (const CalibrationPoint& p : points) {
    if (p.engine == engine && p.scenario == warm) return &p;
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
  for (std::string& s : req.scenarios) s = WarmList(s);
  req.results = [](std::string_view) {};
  req.progress = [](std::string_view) {};
  auto results = bench::RunBench(req);
  if (!results.ok()) return results.status();
  Calibration c;
  c.cpu_model = ReadSystemInfo().cpu_model;
  c.dir = memory_dir;
  for (const bench::BenchResult& r : *results) {
    if (r.status != bench::RunStatus::kOk || r.metrics.ops_per_sec <= 0) {
      continue;
    }
    c.points.push_back({r.engine, r.scenario, r.step, r.params.num,
                        r.metrics.ops, 1e9 / r.metrics.ops_per_sec});
  }
  c.results = std::move(*results);
  return c;
}

}  // namespace disktune::predict
