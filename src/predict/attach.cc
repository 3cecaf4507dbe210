#include "src/predict/attach.h"

#include <cmath>

#include "src/predict/engine_facts.h"

namespace disktune::predict {

using nlohmann::json;

std::optional<Workload> WorkloadFor(const bench::BenchResult& r,
                                    uint64_t memory_bytes) {
  auto kind = KindOf(r.scenario);
  if (!kind || !HasModel(r.engine) || r.params.entries_per_batch != 1 ||
      r.params.threads != 1) {
    return std::nullopt;
  }
  Workload w;
  w.kind = *kind;
  w.num = r.params.num;
  w.ops = r.metrics.ops > 0 ? r.metrics.ops : r.params.ops;
  w.key_bytes = r.params.key_size_bytes;
  w.value_bytes = r.params.value_size_bytes;
  w.compression_ratio = r.params.compression_ratio;
  w.memory_bytes = memory_bytes;
  const uint64_t entry = w.key_bytes + w.value_bytes;
  if (r.metrics.live_data_bytes && entry > 0) {
    w.distinct_entries = *r.metrics.live_data_bytes / entry;
  } else if (w.kind == Kind::kFillSeq) {
    w.distinct_entries = w.ops;
  } else {
    // Uniform keys with replacement: 1 - e^(-writes / num) of them distinct.
    double n = static_cast<double>(std::max<uint64_t>(1, w.num));
    w.distinct_entries = static_cast<uint64_t>(
        n * (1 - std::exp(-static_cast<double>(w.ops) / n)));
  }
  return w;
}

std::optional<double> CalibratedWriteAmplification(
    const Workload& w, const CalibrationPoint& cal) {
  const bool writes = w.kind == Kind::kFillSeq || w.kind == Kind::kFillRandom ||
                      w.kind == Kind::kOverwrite;
  const double user = static_cast<double>(w.key_bytes + w.value_bytes);
  if (!writes || !cal.write_call_bytes_per_op || user <= 0) return std::nullopt;
  return *cal.write_call_bytes_per_op / user;
}

bench::Prediction MakePrediction(const Workload& w, const EngineFacts& f,
                                 const DiskFigures& disk,
                                 const CalibrationPoint& calibrated,
                                 const std::string& calibrated_cpu) {
  Estimate e = Predict(w, f, disk);
  bench::Prediction p;
  p.ops_per_sec = e.ops_per_sec;
  p.bound = BoundName(e.bound);
  for (const Ceiling& c : e.ceilings) {
    p.ceilings_ops_per_sec.emplace_back(BoundName(c.bound), c.ops_per_sec);
  }
  json engine = {{"cpu_ns_per_op", f.cpu_ns},
                 {"cpu_calibrated_on", calibrated_cpu},
                 {"calibration_scenario", calibrated.scenario},
                 {"calibration_num", calibrated.num},
                 {"calibration_ops", calibrated.ops},
                 {"write_buffer_bytes", f.shape.write_buffer_bytes},
                 {"table_file_bytes", f.shape.table_file_bytes},
                 {"level1_bytes", f.shape.level1_bytes},
                 {"fanout", f.shape.fanout},
                 {"block_bytes", f.shape.block_bytes},
                 {"syncs_table_files", f.shape.syncs_table_files}};
  if (f.measured_write_amplification) {
    engine["measured_write_amplification"] = *f.measured_write_amplification;
  }
  p.inputs = {{"disk", DiskFiguresToJson(disk)},
              {"engine", engine},
              {"workload",
               {{"num", w.num},
                {"ops", w.ops},
                {"key_bytes", w.key_bytes},
                {"value_bytes", w.value_bytes},
                {"compression_ratio", w.compression_ratio},
                {"distinct_entries", w.distinct_entries},
                {"memory_bytes", w.memory_bytes}}},
              {"derived", e.derived}};
  return p;
}

json DiskFiguresToJson(const DiskFigures& disk) {
  json points = json::object();
  for (const auto& [figure, name] : disk.source) points[figure] = name;
  json j = {{"sync_latency_ns", disk.sync_ns},
            {"read_latency_ns", disk.read_ns},
            {"read_iops", disk.read_iops},
            {"seq_read_bytes_per_sec", disk.seq_read_Bps},
            {"seq_write_bytes_per_sec", disk.seq_write_Bps},
            {"probe_points", points}};
  if (disk.table_sync_ns > 0) {
    j["table_sync_latency_ns"] = disk.table_sync_ns;
    j["table_sync_bytes"] = disk.table_sync_bytes;
  }
  // What each request costs, when known (model.h, S).
  const std::pair<const char*, double> per_request[] = {
      {"read_iops_limit", disk.read_iops_limit},
      {"write_iops_limit", disk.write_iops_limit},
      {"request_bytes", disk.request_bytes},
      {"read_ahead_bytes", disk.read_ahead_bytes}};
  for (const auto& [key, value] : per_request) {
    if (value > 0) j[key] = value;
  }
  for (const DiskFigures::Capped& c : disk.capped) {
    j["capped_by_throttle"][c.figure] = {{"measured", c.measured},
                                         {"limit", c.limit}};
  }
  return j;
}

std::optional<bench::Prediction> PredictStep(const bench::BenchResult& r,
                                             const DiskFigures& disk,
                                             const Calibration& calibration,
                                             uint64_t memory_bytes,
                                             std::string* why_not) {
  why_not->clear();
  auto w = WorkloadFor(r, memory_bytes);
  if (!w) {
    if (HasModel(r.engine) && KindOf(r.scenario)) {
      *why_not =
          "no prediction: the model covers one thread, one entry per write";
    }
    return std::nullopt;
  }
  const CalibrationPoint* cal = calibration.Find(r.engine, r.scenario, r.step);
  if (!cal) {
    *why_not = "no prediction: the in-memory calibration of " + r.scenario +
               " did not run";
    return std::nullopt;
  }
  EngineFacts f;
  f.engine = r.engine;
  f.cpu_ns = cal->cpu_ns;
  f.shape = *ShapeFor(r.engine, r.engine_settings);
  f.measured_write_amplification = CalibratedWriteAmplification(*w, *cal);
  return MakePrediction(*w, f, disk, *cal, calibration.cpu_model);
}

void AttachPredictions(const DiskFigures& disk, const Calibration& calibration,
                       const SystemInfo& system,
                       std::vector<bench::BenchResult>* results) {
  std::string why_not;
  for (bench::BenchResult& r : *results) {
    if (r.status != bench::RunStatus::kOk) continue;
    std::optional<bench::Prediction> predicted = PredictStep(
        r, disk, calibration, system.memory_available_bytes, &why_not);
    if (!predicted) {
      if (!why_not.empty()) r.notes.push_back(why_not);
      continue;
    }
    bench::Prediction& p = *predicted;
    if (p.ops_per_sec > 0) {
      p.measured_over_predicted = r.metrics.ops_per_sec / p.ops_per_sec;
      p.miss_cause = MissCause(r, p, calibration.cpu_model, system);
    }
    r.prediction = std::move(p);
  }
}

}  // namespace disktune::predict
