// The measured search: successive halving over the candidates the rules
// left. Every candidate runs a short trial on a small scaled copy of the
// workload; the best third goes on to a trial three times larger, and so on,
// until a few remain at the largest scale the time budget allows. Cheap
// trials weed out the clearly bad; the expensive ones are spent on the few
// that might win.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/core/status.h"
#include "src/tune/knobs.h"
#include "src/tune/verify.h"

namespace disktune::tune {

// What one trial measured: the scored steps' throughput.
struct TrialScore {
  double ops_per_sec = 0;
  uint64_t elapsed_ns = 0;  // wall time of the trial's run (setup included)
  // Wall time removing the trial's copy after the run (not in elapsed_ns).
  uint64_t cleanup_ns = 0;
  // What the trial used of the tuner's budget (TuneBudget::CostNs), its
  // copy's removal included: more than that when writes bind. 0 =
  // elapsed_ns + cleanup_ns.
  uint64_t cost_ns = 0;
  uint64_t Cost() const {
    return cost_ns > 0 ? cost_ns : elapsed_ns + cleanup_ns;
  }
};

// Runs `config` (full-size values) on the workload scaled by `scale`.
// Aborted stops the search (interrupt); any other error marks the candidate
// failed.
using TrialFn =
    std::function<Result<TrialScore>(const TuneConfig& config, double scale)>;

// A trial's cost (TrialScore::Cost) as a function of scale, learnt from
// the trials run so far. Until the first one: fixed + per_scale x scale,
// the caller's guess. Then: the mean cost at each scale seen, linear
// between them (never decreasing), and beyond the largest a power law whose
// exponent is the growth between the two largest scales, clamped to
// [1.5, 2] (1.5 while only one scale has been seen). An LSM's work per key
// grows with its size (more levels, a cache that holds less of the data),
// and its writes grow faster still, since small copies live in the
// memtable and are deleted before writeback. Wall time grows more slowly,
// but the floor stays at 1.5: a floor of 1 planned A/Bs on copies too
// large for their pairs (benchmarks/README.md, Tuner design records: The
// cost model's exponent).
class CostModel {
 public:
  CostModel(double fixed_ns, double per_scale_ns)
      : fixed_ns_(fixed_ns), per_scale_ns_(per_scale_ns) {}
  double Estimate(double scale) const;
  void Observe(double scale, uint64_t cost_ns);
  // The least-squares line through every observation (for messages).
  double fixed_ns() const { return fixed_ns_; }
  double per_scale_ns() const { return per_scale_ns_; }

 private:
  double fixed_ns_;
  double per_scale_ns_;
  std::vector<std::pair<double, double>> points_;  // (scale, ns)
  std::vector<std::pair<double, double>> curve_;   // (scale, mean ns), sorted
  double growth_ = 1.5;
};

struct SearchBudget {
  uint64_t budget_ns = 0;
  double min_scale = 0.01;  // smallest trial worth ranking
  double max_scale = 1.0;   // the verification scale: no trial beyond it
  int eta = 3;
  // Rounds added to the last rung's single trials when its leader is not the
  // most preferred of the candidates within the noise of it (0 = none; at
  // least 0.8 of its score): the two run side by side, and the leader wins
  // only if its gain over the other is significant; a tie goes to the more
  // preferred, the rules' choice (with memtable_bytes set: to the leaner,
  // below). Single trials at one scale cannot rank
  // configurations a few percent apart (LevelDB, 8 vs 16 MiB write buffers
  // at 0.8 of the write-heavy size: 8/16 = 1.17, 0.87, 0.98 in three
  // interleaved pairs; at full size 16 MiB led every pair), so every rung
  // but the last also passes on its most preferred candidate within the
  // noise of its best, beyond the best 1/eta. Candidate 0 (the reference
  // the caller verifies against anyway) is never the preferred one. Skipped
  // when the rounds do not fit in tie_left_ns() (asked when the last rung
  // ends; unset: what is left of budget_ns). The rungs are planned without
  // them.
  int tie_rounds = 0;
  std::function<double()> tie_left_ns;
  // The memtable memory a candidate holds (write buffers x how many the
  // engine keeps; unset: not compared). When set, the leader's partner in
  // the tie rounds is the candidate within the noise of it that holds the
  // least memtable memory, if that is less than the leader's: the leader
  // then stands only if it is significantly faster, and a level result goes
  // to the leaner one (the same throughput for less memory; benchmarks/
  // README.md, Tuner design records: The leaner of two level candidates).
  // Otherwise the partner is the rules' preferred, as above, and a level
  // result goes to whichever of the two holds less memtable memory (the
  // rules' choice when they hold the same).
  std::function<uint64_t(const TuneConfig&)> memtable_bytes;
};

struct Rung {
  double scale = 0;
  std::vector<size_t> candidates;   // indices into the candidate list
  std::vector<double> ops_per_sec;  // 0 = failed
  std::vector<std::string> errors;
};

// The last rung's leader against the most preferred candidate within the
// noise of it.
struct HeadToHead {
  size_t leader = 0;     // index into the candidate list
  size_t preferred = 0;  // ranked earlier by the rules, or leaner
  // Their memtable memory (SearchBudget::memtable_bytes; both 0 when it
  // is unset). The partner is the leaner one whenever it holds less (the
  // leanest within the noise is asked first); otherwise the rules' choice.
  uint64_t leader_memtable_bytes = 0;
  uint64_t preferred_memtable_bytes = 0;
  bool leaner() const {
    return preferred_memtable_bytes < leader_memtable_bytes;
  }
  bool leader_leaner() const {
    return leader_memtable_bytes < preferred_memtable_bytes;
  }
  // The leader stays the winner: significantly faster, or as fast for less
  // memory.
  bool leader_stands() const { return gain.significant() || leader_leaner(); }
  double scale = 0;
  // Leader over preferred, paired round by round (the rung's trials are
  // the first pair); the leader stands when it is significant.
  Gain gain;
};

struct SearchOutcome {
  size_t winner = 0;  // index into the candidate list
  std::vector<Rung> rungs;
  int trials = 0;
  int candidates = 0;       // considered (after any truncation)
  uint64_t elapsed_ns = 0;  // by the search's clock (the tuner's budget)
  bool truncated = false;   // the budget cut candidates or rungs
  std::optional<HeadToHead> tie;
  std::vector<std::string> notes;
};

// `candidates` is ordered by preference; when the budget cannot afford a
// first rung of all of them at min_scale, the least preferred are left out
// (noted). REQUIRES: !candidates.empty().
Result<SearchOutcome> SuccessiveHalving(
    const std::vector<TuneConfig>& candidates, const SearchBudget& budget,
    CostModel* cost, const TrialFn& trial,
    const std::function<uint64_t()>& now_ns);

}  // namespace disktune::tune
