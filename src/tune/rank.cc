#include "src/tune/rank.h"

#include <algorithm>
#include <cmath>

#include "src/tune/fidelity.h"

namespace disktune::tune {
namespace {

class Estimate : public ThroughputModel {
 public:
  std::string name() const override { return "internal estimate"; }
  double error_share() const override { return 0.5; }

  std::optional<double> PredictOpsPerSec(const RuleInput& in,
                                         const TuneConfig& c) const override {
    const DeviceFacts& f = in.facts;
    if (!f.rand_read_4k_p50_ns || !f.seq_write_bytes_per_sec) {
      return std::nullopt;
    }
    const EngineModel& m = *in.engine;
    const uint64_t db = EstimateDbBytes(in.shape, c);
    const int levels = std::max(1, ExpectedLevels(m, c, db));
    // CPU per op: ~2 us (the order of an in-memory LevelDB get or put).
    const double cpu_s = 2e-6;
    const WorkloadTraits& t = in.traits;
    // Reads: the share of the data the cache holds is served from memory;
    // the rest costs a device read per level checked (a filter skips all
    // but ~1% of the levels the key is not in).
    const double held =
        std::min(1.0, static_cast<double>(c.cache_bytes()) /
                          std::max(1.0, static_cast<double>(db)));
    const double probes =
        1 + (levels - 1) * (c.bloom_bits_per_key() > 0 ? 0.01 : 1.0);
    const double read_s =
        (1 - held) * probes * static_cast<double>(*f.rand_read_4k_p50_ns) / 1e9;
    // Writes: each byte is rewritten about once per level (leveled
    // compaction at fanout 10 rewrites more, but the figure only ranks),
    // and LevelDB syncs each table file it finishes.
    const double entry =
        static_cast<double>(db) / std::max<double>(1.0, in.shape.live_entries);
    double write_s = entry * levels / *f.seq_write_bytes_per_sec;
    if (m.id == "leveldb" && f.fdatasync_p50_ns) {
      write_s += entry * levels *
                 (static_cast<double>(*f.fdatasync_p50_ns) / 1e9) /
                 static_cast<double>(std::max<uint64_t>(c.max_file_bytes(), 1));
    }
    const double reads = t.point_read_share + t.scan_share;
    const double per_op = cpu_s + reads * read_s + t.write_share * write_s;
    return 1 / per_op;
  }
};

}  // namespace

std::unique_ptr<ThroughputModel> InternalEstimate() {
  return std::make_unique<Estimate>();
}

Ranking RankCandidates(const ThroughputModel& model, const RuleInput& in,
                       const std::vector<TuneConfig>& candidates) {
  Ranking r;
  r.model = model.name();
  double best = 0;
  for (const TuneConfig& c : candidates) {
    r.predicted.push_back(model.PredictOpsPerSec(in, c));
    if (r.predicted.back()) best = std::max(best, *r.predicted.back());
  }
  const double floor = best * (1 - model.error_share());
  for (size_t i = 0; i < candidates.size(); i++) {
    const auto& p = r.predicted[i];
    if (i == 0 || !p || *p >= floor) {
      r.kept.push_back(i);
    } else {
      r.left_out.push_back(i);
    }
  }
  return r;
}

}  // namespace disktune::tune
