// One trial of the tuner: a candidate config run on a scaled copy of the
// workload, shared by calibration, search, knob check and A/B.
//
// The scaled copy: the key space and op counts are multiplied by a scale
// s <= 1 and the block cache by s too, so the cache holds the same share of
// the data as at full size; write buffers and table files keep their real
// sizes. A test replaces the bench run with TuneRequest::env.trial.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "src/bench/runner.h"
#include "src/core/progress.h"
#include "src/core/scratch_dir.h"
#include "src/tune/budget.h"
#include "src/tune/fidelity.h"
#include "src/tune/knobs.h"
#include "src/tune/search.h"
#include "src/tune/tuner.h"
#include "src/tune/workload.h"

namespace disktune::tune {

class Trials {
 public:
  Trials(const TuneRequest& req, const Workload& w, const DataShape& shape,
         const ScratchDir& scratch, const TuneBudget& budget,
         ProgressSink* progress)
      : req_(req),
        w_(w),
        shape_(shape),
        budget_(budget),
        model_(ModelFor(req.engine)),
        scratch_(scratch),
        root_(scratch.HandlePath("tune")),
        root_shown_(scratch.Join("tune")),
        progress_(progress) {}

  // The full-size config as the trial at `scale` runs it. Only the block
  // cache shrinks with the data, so it holds the same share of it (the hit
  // ratio is what a cache changes). Write buffers and table files keep
  // their real sizes: LevelDB's level sizes (10 MB, 100 MB, ...) and the
  // memtable's cost per insert are absolute, and a write buffer scaled
  // down with the data was measured to rank buffers in the opposite order
  // to the full workload. Open files follow the (fewer) tables.
  TuneConfig Scaled(const TuneConfig& full, double scale) const {
    const EngineModel& m = model_;
    TuneConfig t = full;
    double cache = std::round(static_cast<double>(full.cache_bytes()) * scale);
    t.Set(KnobId::kCacheBytes,
          std::max(kMinCacheBytes, static_cast<uint64_t>(cache)));
    if (full.max_open_files()) {
      double ratio =
          static_cast<double>(EstimateTableCount(ShapeAt(scale), t)) /
          static_cast<double>(EstimateTableCount(shape_, full));
      int mof = static_cast<int>(std::ceil(*full.max_open_files() * ratio));
      t.Set(KnobId::kMaxOpenFiles,
            std::clamp(mof, m.min_open_files, m.max_open_files));
    }
    return t;
  }

  // Trial tables at `scale` (for the open-files rule's reproducibility).
  uint64_t TablesAt(const TuneConfig& full, double scale) const {
    return EstimateTableCount(ShapeAt(scale), Scaled(full, scale));
  }

  // Levels below level 0 the trial's tables fill at `scale` (1 = full size).
  int DepthAt(const TuneConfig& full, double scale) const {
    return LsmDepth(model_, EstimateDbBytes(ShapeAt(scale), full));
  }
  // The smallest scale at least `min_scale` whose trial fills as many levels
  // as the full size, a little above the boundary so that rounding the
  // copy to whole keys stays there (depth grows with the scale).
  double FirstScaleAtFullDepth(const TuneConfig& full, double min_scale) const {
    const int depth = DepthAt(full, 1.0);
    double lo = min_scale, hi = 1.0;
    if (DepthAt(full, lo) >= depth) return lo;
    for (int i = 0; i < 40; i++) {
      double mid = (lo + hi) / 2;
      (DepthAt(full, mid) >= depth ? hi : lo) = mid;
    }
    return std::min(1.0, hi * 1.01);
  }

  // What a copy at `scale` is for `full` (fidelity.h).
  CopyFidelity FidelityAt(const TuneConfig& full, double scale) const {
    return FidelityOf(model_, shape_, ShapeAt(scale), full, Scaled(full, scale),
                      scale);
  }
  // The smallest scale at least `min_scale` whose copy is faithful for
  // `full` (fidelity.h), a little above the boundary so that rounding the
  // copy to whole keys stays there; 1 when only the full size is.
  double FirstFaithfulScale(const TuneConfig& full, double min_scale) const {
    if (FidelityAt(full, min_scale).faithful()) return min_scale;
    double lo = min_scale, hi = 1.0;
    for (int i = 0; i < 40; i++) {
      double mid = (lo + hi) / 2;
      (FidelityAt(full, mid).faithful() ? hi : lo) = mid;
    }
    return hi >= 0.99 ? 1.0 : std::min(1.0, hi * 1.01);
  }

  // Runs `full` at `scale`: through the request's TuneEnv::trial when set,
  // else as a bench run in the scratch directory (removed afterwards).
  // Aborted on SIGINT/SIGTERM. `label` is the progress line; its estimate
  // of the time left is the time budget's rest.
  Result<TrialScore> Run(const TuneConfig& full, double scale,
                         const std::string& label);

  // The bench run a trial of `full` at `scale` is (Run without TuneEnv).
  bench::BenchRequest Request(const TuneConfig& full, double scale) const;

  int trials() const { return trials_; }
  // The longest removal of a trial's copy so far (TrialScore::cleanup_ns).
  uint64_t longest_cleanup_ns() const { return longest_cleanup_ns_; }

 private:
  uint64_t LeftNs() const;

  DataShape ShapeAt(double scale) const {
    DataShape small = shape_;
    small.live_entries = std::max<uint64_t>(
        1, static_cast<uint64_t>(static_cast<double>(shape_.live_entries) *
                                 scale));
    return small;
  }

  const TuneRequest& req_;
  const Workload& w_;
  const DataShape& shape_;
  const TuneBudget& budget_;
  const EngineModel& model_;
  const ScratchDir& scratch_;
  std::string root_;        // through the scratch handle
  std::string root_shown_;  // for messages
  ProgressSink* progress_;
  int trials_ = 0;
  uint64_t longest_cleanup_ns_ = 0;
};

}  // namespace disktune::tune
