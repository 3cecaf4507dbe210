#include "src/app/fillsync_on_fs.h"

#include <algorithm>

#include "engines/engine.h"
#include "src/bench/runner.h"
#include "src/core/signals.h"
#include "src/model/fsync_names.h"

namespace disktune::app {
namespace {

constexpr const char* kEngine = "leveldb";

// ProbeParams::variant of every result the workload gives.
std::string Variant() { return std::string("fillsync.") + kEngine; }

std::string ResultName(const std::string& fs) {
  return FsyncFamilyPrefix(fs) + "." + Variant();
}

ProbeResult Marked(ProbeResult r) {
  r.params.variant = Variant();
  return r;
}

ProbeResult ToProbeResult(const std::string& fs, const bench::BenchResult& b) {
  std::string name = ResultName(fs);
  if (b.status == bench::RunStatus::kSkipped)
    return Marked(ProbeResult::Skipped("fsync", name, b.error));
  if (b.status == bench::RunStatus::kFailed || b.metrics.ops == 0)
    return Marked(ProbeResult::Failed("fsync", name, b.error));
  ProbeResult r = Marked({});
  r.probe = "fsync";
  r.name = name;
  r.params.pattern = "append";
  r.params.io_engine = b.engine;
  r.params.method = b.engine + " fillsync";
  r.params.block_size_bytes = b.params.value_size_bytes;
  r.params.extra["scenario"] = "fillsync";
  r.params.extra["entries"] = b.params.ops;
  r.params.extra["note"] =
      "db_bench's fillsync: one synced Put per entry on a fresh database";
  if (b.status == bench::RunStatus::kPartial) {
    r.params.extra["partial"] = b.error;
  }
  r.ops_per_sec = b.metrics.ops_per_sec;
  r.latency_ns = b.metrics.latency_ns;
  r.samples = b.metrics.ops;
  r.elapsed_ns = b.metrics.elapsed_ns;
  r.bytes = b.metrics.bytes;
  r.metrics["micros_per_op"] = b.metrics.micros_per_op;
  if (b.metrics.device_write_bytes)
    r.metrics["device_write_bytes"] = *b.metrics.device_write_bytes;
  if (b.metrics.write_amplification)
    r.metrics["write_amplification"] = *b.metrics.write_amplification;
  return r;
}

}  // namespace

FilesystemWorkload FillsyncWorkload(bool quick) {
  const auto& engines = AvailableEngines();
  if (std::none_of(engines.begin(), engines.end(),
                   [](const EngineInfo& e) { return e.id == kEngine; })) {
    return {};
  }
  return [quick](const std::string& dir, const std::string& fs,
                 std::vector<ProbeResult>* results) -> Status {
    bench::BenchRequest req;
    req.engines = {kEngine};
    req.scenarios = {"fillsync"};
    req.quick = quick;
    req.db_root = dir;
    req.available = AvailableEngines();
    req.factory = NewEngine;
    Result<std::vector<bench::BenchResult>> out = bench::RunBench(req);
    if (!out.ok()) {
      results->push_back(Marked(ProbeResult::Failed("fsync", ResultName(fs),
                                                    out.status().message())));
      return Status::OK();
    }
    for (const auto& b : *out) results->push_back(ToProbeResult(fs, b));
    return InterruptRequested() ? Status::Aborted("fillsync interrupted")
                                : Status::OK();
  };
}

}  // namespace disktune::app
