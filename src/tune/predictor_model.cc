#include "src/tune/predictor_model.h"

#include <algorithm>

#include "src/predict/calibrate.h"
#include "src/predict/engine_facts.h"
#include "src/predict/model.h"

namespace disktune::tune {
namespace {

bool IsWrite(predict::Kind k) {
  return k == predict::Kind::kFillSeq || k == predict::Kind::kFillRandom ||
         k == predict::Kind::kOverwrite || k == predict::Kind::kFillSync;
}

// The engine's shape with what `c` sets.
std::optional<predict::LsmShape> ShapeOf(const EngineModel& m,
                                         const TuneConfig& c) {
  auto s = predict::ShapeFor(std::string(m.id));
  if (!s) return std::nullopt;
  if (c.write_buffer_bytes()) s->write_buffer_bytes = c.write_buffer_bytes();
  if (c.max_file_bytes()) s->table_file_bytes = c.max_file_bytes();
  if (c.block_size_bytes()) s->block_bytes = c.block_size_bytes();
  if (auto l1 = c.Get(KnobId::kMaxBytesForLevelBase); l1 && *l1 > 0) {
    s->level1_bytes = static_cast<uint64_t>(*l1);
  }
  return s;
}

predict::Workload StepWorkload(const RuleInput& in, const TuneConfig& c,
                               predict::Kind kind) {
  const Workload& w = in.workload;
  predict::Workload pw;
  pw.kind = kind;
  pw.num = w.num;
  pw.ops = w.num;
  if (kind == predict::Kind::kOverwrite && w.writes) pw.ops = *w.writes;
  if (!IsWrite(kind) && w.reads) pw.ops = *w.reads;
  pw.key_bytes = in.shape.key_bytes;
  pw.value_bytes = in.shape.value_bytes;
  pw.compression_ratio =
      c.compression() == Compression::kNone ? 1.0 : in.shape.compression_ratio;
  pw.distinct_entries = in.shape.live_entries;
  pw.memory_bytes = in.facts.memory_bytes;
  return pw;
}

class Predictor : public ThroughputModel {
 public:
  explicit Predictor(PredictorCalibration cal) : cal_(std::move(cal)) {}
  std::string name() const override { return "predictor"; }
  double error_share() const override { return kPredictorErrorShare; }

  std::optional<double> PredictOpsPerSec(const RuleInput& in,
                                         const TuneConfig& c) const override {
    auto disk = PredictorFigures(in.facts);
    auto shape = ShapeOf(*in.engine, c);
    auto base_shape = ShapeOf(*in.engine, cal_.baseline);
    if (!disk || !shape || !base_shape) return std::nullopt;
    const Workload& w = in.workload;
    double ops = 0, seconds = 0;
    for (const std::string& scenario : w.scenarios) {
      const bool scored =
          w.measured.empty() || std::find(w.measured.begin(), w.measured.end(),
                                          scenario) != w.measured.end();
      if (!scored) continue;
      auto kind = predict::KindOf(scenario);
      const StepCost* cost = Find(scenario);
      if (!kind || cost == nullptr) return std::nullopt;
      predict::Workload pw = StepWorkload(in, c, *kind);
      predict::EngineFacts f;
      f.engine = std::string(in.engine->id);
      f.cpu_ns = cost->cpu_ns;
      f.shape = *shape;
      if (cost->write_bytes_per_op && IsWrite(*kind)) {
        // The baseline as calibrated: at the calibration's scale.
        predict::Workload base = StepWorkload(in, cal_.baseline, *kind);
        base.distinct_entries = static_cast<uint64_t>(
            static_cast<double>(base.distinct_entries) * cal_.scale);
        const double measured =
            *cost->write_bytes_per_op /
            static_cast<double>(base.key_bytes + base.value_bytes);
        f.measured_write_amplification =
            measured * predict::FormulaDeviceBytesPerOp(pw, *shape) /
            predict::FormulaDeviceBytesPerOp(base, *base_shape);
      }
      const predict::Estimate e = predict::Predict(pw, f, *disk);
      if (e.ops_per_sec <= 0) return std::nullopt;
      ops += static_cast<double>(pw.ops);
      seconds += static_cast<double>(pw.ops) / e.ops_per_sec;
    }
    if (ops <= 0 || seconds <= 0) return std::nullopt;
    return ops / seconds;
  }

 private:
  const StepCost* Find(const std::string& scenario) const {
    for (const StepCost& s : cal_.steps) {
      if (s.scenario == scenario) return &s;
    }
    return nullptr;
  }

  PredictorCalibration cal_;
};

}  // namespace

std::optional<predict::DiskFigures> PredictorFigures(const DeviceFacts& f) {
  if (f.model_figures) return f.model_figures;
  if (!f.seq_write_bytes_per_sec || !f.rand_read_4k_p50_ns) return std::nullopt;
  predict::DiskFigures d;
  d.seq_write_Bps = *f.seq_write_bytes_per_sec;
  d.read_ns = static_cast<double>(*f.rand_read_4k_p50_ns);
  d.read_iops = f.rand_read_iops.value_or(1e9 / std::max(1.0, d.read_ns));
  // Without a sequential-read figure, a 4 KiB read per 4 KiB is the floor.
  d.seq_read_Bps = f.seq_read_bytes_per_sec.value_or(4096 * d.read_iops);
  // Without a sync figure, no sync ceiling (a sync as fast as memory).
  d.sync_ns = static_cast<double>(f.fdatasync_p50_ns.value_or(1));
  return d;
}

std::unique_ptr<ThroughputModel> PredictorModel(PredictorCalibration cal) {
  return std::make_unique<Predictor>(std::move(cal));
}

Result<PredictorCalibration> CalibratePredictor(
    const bench::BenchRequest& request, const TuneConfig& baseline,
    const std::vector<std::string>& scored, double scale) {
  auto cal = predict::Calibrate(request);
  if (!cal.ok()) return cal.status();
  PredictorCalibration out;
  out.baseline = baseline;
  out.scale = scale;
  for (const predict::CalibrationPoint& p : cal->points) {
    if (!scored.empty() &&
        std::find(scored.begin(), scored.end(), p.scenario) == scored.end()) {
      continue;
    }
    out.steps.push_back({p.scenario, p.cpu_ns, p.write_call_bytes_per_op});
  }
  if (out.steps.empty()) {
    return Status::NotSupported("no scored step ran in memory");
  }
  return out;
}

}  // namespace disktune::tune
