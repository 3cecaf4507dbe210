// Model-guided ranking: a throughput model predicts each candidate's ops/s
// at full size from the device facts, and the measured trials go only to
// the candidates it cannot separate from the best (within its own error);
// the rest are left out, each with its prediction, before any trial runs.
//
// ThroughputModel is the seam where the predictor (probe figures + engine
// facts -> predicted figure and its bound) plugs in. Until then the tuner
// uses InternalEstimate(), a coarse model of where a workload's time goes,
// whose error is wide, so it leaves out only what it predicts far behind.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/tune/knobs.h"
#include "src/tune/rules.h"

namespace disktune::tune {

class ThroughputModel {
 public:
  virtual ~ThroughputModel() = default;
  // "internal estimate", "predictor", ... (for the profile).
  virtual std::string name() const = 0;
  // Predicted ops/s of the scored steps for `c` at full size on the device
  // `in.facts` describe; nullopt = no prediction for this config.
  virtual std::optional<double> PredictOpsPerSec(const RuleInput& in,
                                                 const TuneConfig& c) const = 0;
  // The model's error as a share of its prediction (0.25 = 25%): a
  // candidate predicted within it of the best cannot be told from it.
  virtual double error_share() const = 0;
};

// Where the time goes, per scored op: device reads not served by the block
// cache (4 KiB read latency, one per level a read checks, filters
// skipping all but ~1%), and for writes the bytes compaction writes
// (levels x the entry's size over the write bandwidth) plus one
// fdatasync per table file LevelDB finishes. CPU is a constant per op. Its
// error is taken as 50%: it was not fitted to measurements.
std::unique_ptr<ThroughputModel> InternalEstimate();

struct Ranking {
  std::string model;
  std::vector<std::optional<double>> predicted;  // per candidate
  std::vector<size_t> kept;      // measured (the baseline always)
  std::vector<size_t> left_out;  // predicted behind the best beyond error
};
// Candidate 0 is the baseline and is always kept, as is any candidate the
// model has no prediction for.
Ranking RankCandidates(const ThroughputModel& model, const RuleInput& in,
                       const std::vector<TuneConfig>& candidates);

}  // namespace disktune::tune
