#include "probes/probe.h"

#include "probes/block_io_probes.h"
#include "probes/fsync_probe.h"
#include "src/core/clock.h"
#include "src/core/enum_names.h"

namespace disktune {

ProbeConfig ProbeConfig::Defaults(bool quick) {
  ProbeConfig c;
  c.quick = quick;
  // Quick: ~14 points of 1.25 s on a 256 MiB file fit well inside a minute.
  // Full: 4 s points on 1 GiB, large enough that a small device cache cannot
  // hold the whole file, and inside three minutes.
  c.file_size_bytes = quick ? (256ull << 20) : (1ull << 30);
  c.duration_ns = quick ? 1000000000ull : 4000000000ull;
  c.warmup_ns = quick ? 250000000ull : 1000000000ull;
  c.seed = 20110727;  // fixed by default so two runs are comparable; --seed
                      // changes it
  c.queue_depths = {1, 2, 4, 8, 16, 32, 64, 128};
  return c;
}

namespace {

constexpr EnumName<MeasureWith> kMeasureWithNames[] = {
    {MeasureWith::kAuto, "auto"},
    {MeasureWith::kNative, "native"},
    {MeasureWith::kFio, "fio"},
};

}  // namespace

const char* MeasureWithName(MeasureWith m) {
  return NameOf(kMeasureWithNames, m, "auto");
}

std::optional<MeasureWith> ParseMeasureWith(const std::string& name) {
  return ParseName(kMeasureWithNames, name);
}

void to_json(nlohmann::json& j, const ProbeConfig& c) {
  j = nlohmann::json{{"quick", c.quick},
                     {"file_size_bytes", c.file_size_bytes},
                     {"duration_ns", c.duration_ns},
                     {"warmup_ns", c.warmup_ns},
                     {"buffered", c.buffered},
                     {"with_fio", c.with_fio},
                     {"measure_with", MeasureWithName(c.measure_with)},
                     {"seed", c.seed},
                     {"queue_depths", c.queue_depths}};
  if (c.repeat > 1) j["repeat"] = c.repeat;
  if (c.with_fio) j["fio_order"] = c.fio_first ? "fio_first" : "native_first";
  if (c.write_cache_ab) j["write_cache_ab"] = true;
  if (c.kernel_switch) j["kernel_switch"] = true;
  if (!c.fs_matrix.empty()) j["fs_matrix"] = c.fs_matrix;
  if (!c.fsync_methods.empty()) j["fsync_methods"] = c.fsync_methods;
  if (!c.fsync_sizes.empty()) j["fsync_sizes"] = c.fsync_sizes;
  if (!c.fsync_modes.empty()) j["fsync_modes"] = c.fsync_modes;
  if (c.fsync_duration_ns > 0) j["fsync_duration_ns"] = c.fsync_duration_ns;
}

void ProbeContext::StartPoint(const std::string& name, int index_in_probe) {
  const int index = point_base + index_in_probe;
  const size_t step = static_cast<size_t>(clock_base + index);
  // A second line for the open point (the --fs-matrix workload before the
  // next filesystem's points) does not restart its clock.
  if (open_step_ != step) {
    EndPoint();
    open_step_ = step;
    open_start_ns_ = NowNanos();
  }
  if (progress)
    progress->Step(name, index, point_total, clock.RemainingNs(step));
}

void ProbeContext::UpdatePoint(const std::string& name, double work_so_far) {
  if (!open_step_ || progress == nullptr) return;
  const size_t step = *open_step_;
  progress->Step(
      name, static_cast<int>(step) - clock_base, point_total,
      clock.RemainingWithin(step, NowNanos() - open_start_ns_, work_so_far));
}

void ProbeContext::EndPoint(double work_done) {
  if (!open_step_) return;
  clock.Done(*open_step_, NowNanos() - open_start_ns_, work_done);
  open_step_.reset();
}

void ProbeContext::EndPoint() {
  if (!open_step_ || *open_step_ >= clock.size()) {
    open_step_.reset();
    return;
  }
  EndPoint(clock.step(*open_step_).work);
}

void Probe::PlanPoints(const ProbeConfig& config,
                       std::vector<PlannedStep>* steps) const {
  PlannedStep s;
  s.kind = "point";
  s.fixed_ns = config.warmup_ns + config.duration_ns;
  steps->insert(steps->end(), PointCount(config), s);
}

void BlockIoProbe::PlanPoints(const ProbeConfig& config,
                              std::vector<PlannedStep>* steps) const {
  PlannedStep s;
  s.kind = "block";
  s.fixed_ns = BlockPointNanos(config);
  steps->insert(steps->end(), PointCount(config), s);
}

Status BlockIoProbe::Run(ProbeContext& ctx,
                         std::vector<ProbeResult>* results) const {
  std::vector<BlockPoint> points = points_(*ctx.config);
  for (size_t i = 0; i < points.size(); i++) {
    ctx.StartPoint(BlockPointName(points[i]), static_cast<int>(i));
    ProbeResult r;
    DT_RETURN_IF_ERROR(RunBlockPoint(ctx, points[i], &r));
    ctx.EndPoint();
    results->push_back(std::move(r));
  }
  return Status::OK();
}

const std::vector<std::unique_ptr<Probe>>& AllProbes() {
  static const std::vector<std::unique_ptr<Probe>>* probes = [] {
    auto* v = new std::vector<std::unique_ptr<Probe>>();
    v->push_back(std::make_unique<BlockIoProbe>(
        "seq_read", "sequential direct reads, 4 KiB and 1 MiB at queue depth 1",
        SeqReadPoints));
    v->push_back(
        std::make_unique<BlockIoProbe>("rand_read",
                                       "4 KiB random direct reads at queue "
                                       "depth 1..128, and the saturation point",
                                       RandReadPoints, AnalyzeRandRead));
    v->push_back(std::make_unique<BlockIoProbe>(
        "seq_write", "sequential direct writes, 1 MiB at queue depth 1 and 32",
        SeqWritePoints));
    v->push_back(std::make_unique<BlockIoProbe>(
        "rand_write", "4 KiB random direct writes at queue depth 1 and 32",
        RandWritePoints));
    v->push_back(std::make_unique<FsyncProbe>());
    return v;
  }();
  return *probes;
}

std::vector<std::string> DefaultProbeIds() {
  std::vector<std::string> ids;
  for (const auto& p : AllProbes()) ids.emplace_back(p->id());
  return ids;
}

Result<std::vector<const Probe*>> SelectProbes(
    const std::vector<std::string>& ids) {
  std::vector<const Probe*> out;
  for (const auto& id : ids) {
    const Probe* found = nullptr;
    for (const auto& p : AllProbes()) {
      if (p->id() == id) found = p.get();
    }
    if (!found) {
      std::string valid;
      for (const auto& p : AllProbes())
        valid += (valid.empty() ? "" : ", ") + std::string(p->id());
      return Status::InvalidArgument("unknown probe '" + id +
                                     "'; valid: " + valid);
    }
    out.push_back(found);
  }
  return out;
}

}  // namespace disktune
