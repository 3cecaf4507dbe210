#include "src/tune/search.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

namespace disktune::tune {
namespace {

// Rung sizes for n candidates: n, ceil(n/eta), ... down to <= eta (the last
// rung picks the winner among those).
std::vector<size_t> RungSizes(size_t n, int eta) {
  std::vector<size_t> sizes = {n};
  while (sizes.back() > static_cast<size_t>(eta)) {
    size_t next = (sizes.back() + eta - 1) / eta;
    sizes.push_back(next);
  }
  return sizes;
}

// Scales of the rungs: each eta times the previous, the last at `top`,
// none below `min_scale`.
std::vector<double> RungScales(size_t rungs, double top, double min_scale,
                               int eta) {
  std::vector<double> s(rungs);
  for (size_t l = 0; l < rungs; l++) {
    double v = top / std::pow(eta, static_cast<double>(rungs - 1 - l));
    s[l] = std::max(min_scale, v);
  }
  return s;
}

double PlanCost(const std::vector<size_t>& sizes,
                const std::vector<double>& scales, const CostModel& cost) {
  double t = 0;
  for (size_t l = 0; l < sizes.size(); l++) {
    t += static_cast<double>(sizes[l]) * cost.Estimate(scales[l]);
  }
  return t;
}

// The largest top scale whose plan fits `budget_ns`, between min and max;
// min when none fits.
double FitTopScale(const std::vector<size_t>& sizes, const SearchBudget& b,
                   const CostModel& cost, double budget_ns) {
  double lo = b.min_scale, hi = b.max_scale;
  auto fits = [&](double top) {
    return PlanCost(sizes, RungScales(sizes.size(), top, b.min_scale, b.eta),
                    cost) <= budget_ns;
  };
  if (fits(hi)) return hi;
  for (int i = 0; i < 40; i++) {
    double mid = (lo + hi) / 2;
    (fits(mid) ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace

double CostModel::Estimate(double scale) const {
  if (curve_.empty()) return fixed_ns_ + per_scale_ns_ * scale;
  const auto& [s0, c0] = curve_.front();
  if (scale <= s0) {
    double f = std::clamp(fixed_ns_, 0.0, c0);
    return f + (c0 - f) * scale / s0;
  }
  for (size_t i = 1; i < curve_.size(); i++) {
    const auto& [sa, ca] = curve_[i - 1];
    const auto& [sb, cb] = curve_[i];
    if (scale <= sb) return ca + (cb - ca) * (scale - sa) / (sb - sa);
  }
  const auto& [sl, cl] = curve_.back();
  return cl * std::pow(scale / sl, growth_);
}

void CostModel::Observe(double scale, uint64_t cost_ns) {
  if (scale <= 0) return;
  points_.emplace_back(scale, static_cast<double>(cost_ns));

  // The curve: the mean at each scale (scales within 0.1% are one),
  // ascending and never decreasing.
  std::vector<std::pair<double, double>> sorted = points_;
  std::sort(sorted.begin(), sorted.end());
  curve_.clear();
  size_t in_group = 0;
  for (const auto& [x, y] : sorted) {
    if (!curve_.empty() && x <= curve_.back().first * 1.001) {
      double& mean = curve_.back().second;
      mean = (mean * static_cast<double>(in_group) + y) /
             static_cast<double>(in_group + 1);
      in_group++;
    } else {
      curve_.emplace_back(x, y);
      in_group = 1;
    }
  }
  for (size_t i = 1; i < curve_.size(); i++) {
    curve_[i].second = std::max(curve_[i].second, curve_[i - 1].second);
  }
  growth_ = 1.5;
  if (curve_.size() >= 2) {
    const auto& [sp, cp] = curve_[curve_.size() - 2];
    const auto& [sl, cl] = curve_.back();
    if (cp > 0 && cl > 0) {
      growth_ = std::clamp(std::log(cl / cp) / std::log(sl / sp), 1.5, 2.0);
    }
  }

  // The least-squares line, for the messages.
  double n = static_cast<double>(points_.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& [x, y] : points_) {
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  double den = n * sxx - sx * sx;
  if (points_.size() >= 2 && den > 1e-12 * n * sxx) {
    double b = (n * sxy - sx * sy) / den;
    double a = (sy - b * sx) / n;
    if (b > 0 && a >= 0) {
      fixed_ns_ = a;
      per_scale_ns_ = b;
      return;
    }
  }
  // One scale only, or a fit that makes no physical sense: keep the fixed
  // part and rescale the variable part to the mean observation.
  double variable = 0;
  for (const auto& [x, y] : points_) {
    variable += std::max(0.0, y - fixed_ns_) / x;
  }
  variable /= n;
  if (variable > 0) per_scale_ns_ = variable;
}

namespace {

// Single trials cannot rank configurations a few percent apart, so a
// rung's order alone does not drop the rules' first choice: a candidate
// within this share of the rung's best is "within the noise" (LevelDB,
// 8 vs 16 MiB write buffers at 0.8 of the write-heavy size: 8/16 = 1.17,
// 0.87, 0.98 in three interleaved pairs).
constexpr double kWithinNoise = 0.8;

// Whether `rung`'s candidate at position i may stand in for the best: not
// the reference (0, which the caller verifies against anyway), and its trial
// scored within the noise of `best_ops`.
bool NearBest(const Rung& rung, size_t i, double best_ops) {
  return rung.candidates[i] != 0 && rung.ops_per_sec[i] > 0 &&
         rung.ops_per_sec[i] >= kWithinNoise * best_ops;
}

// The position in `rung` of its most preferred candidate (the lowest index)
// near `best_ops` (NearBest); npos when there is none.
size_t PreferredWithinNoise(const Rung& rung, double best_ops) {
  size_t pos = std::string::npos;
  for (size_t i = 0; i < rung.candidates.size(); i++) {
    if (!NearBest(rung, i, best_ops)) continue;
    if (pos == std::string::npos || rung.candidates[i] < rung.candidates[pos])
      pos = i;
  }
  return pos;
}

// The position in `rung` of the candidate within the noise of its leader
// (at `lead_pos`) that holds the least memtable memory, when that is less
// than the leader's (ties: the more preferred); npos when there is none or
// `budget` does not compare memory.
size_t LeanerWithinNoise(const Rung& rung, size_t lead_pos,
                         const std::vector<TuneConfig>& candidates,
                         const SearchBudget& budget) {
  if (!budget.memtable_bytes) return std::string::npos;
  const double best_ops = rung.ops_per_sec[lead_pos];
  uint64_t least = budget.memtable_bytes(candidates[rung.candidates[lead_pos]]);
  size_t pos = std::string::npos;
  for (size_t i = 0; i < rung.candidates.size(); i++) {
    if (i == lead_pos || !NearBest(rung, i, best_ops)) continue;
    const uint64_t bytes =
        budget.memtable_bytes(candidates[rung.candidates[i]]);
    if (bytes < least || (pos != std::string::npos && bytes == least &&
                          rung.candidates[i] < rung.candidates[pos])) {
      least = bytes;
      pos = i;
    }
  }
  return pos;
}

// The last rung's leader against a partner within the noise: the leanest
// candidate (LeanerWithinNoise), else the rules' most preferred one:
// budget.tie_rounds more rounds of both, side by side, in alternating
// order; the leader stays the winner if the interval of its gain lies above
// 1, or if it holds less memtable memory than its partner. Sets out->tie
// and, on a tie, out->winner.
Status BreakTie(const std::vector<TuneConfig>& candidates,
                const SearchBudget& budget, uint64_t start, CostModel* cost,
                const TrialFn& trial, const std::function<uint64_t()>& now_ns,
                SearchOutcome* out) {
  const Rung& last = out->rungs.back();
  if (budget.tie_rounds <= 0) return Status::OK();
  size_t lead_pos = 0;
  for (size_t i = 1; i < last.candidates.size(); i++) {
    if (last.ops_per_sec[i] > last.ops_per_sec[lead_pos]) lead_pos = i;
  }
  if (last.ops_per_sec[lead_pos] <= 0) return Status::OK();
  const size_t lean_pos = LeanerWithinNoise(last, lead_pos, candidates, budget);
  const size_t pref_pos =
      lean_pos != std::string::npos
          ? lean_pos
          : PreferredWithinNoise(last, last.ops_per_sec[lead_pos]);
  // Nothing leaner comes near the leader, and the leader is the rules'
  // choice already or nothing the rules prefer comes near it (the reference
  // the caller verifies against anyway does not count): nothing to break.
  if (pref_pos == std::string::npos ||
      (lean_pos == std::string::npos &&
       last.candidates[pref_pos] >= last.candidates[lead_pos])) {
    return Status::OK();
  }
  const size_t lead = last.candidates[lead_pos];
  const size_t second = last.candidates[pref_pos];
  const double round_ns = 2.0 * cost->Estimate(last.scale);
  const double left = budget.tie_left_ns
                          ? budget.tie_left_ns()
                          : static_cast<double>(budget.budget_ns) -
                                static_cast<double>(now_ns() - start);
  if (round_ns * budget.tie_rounds > left) {
    out->notes.push_back(
        std::string("time ran short: the last rung's leader was not run "
                    "again against ") +
        (lean_pos != std::string::npos
             ? "a candidate near it that holds less memtable memory"
             : "the rules' more preferred candidate"));
    return Status::OK();
  }
  HeadToHead h;
  h.leader = lead;
  h.preferred = second;
  if (budget.memtable_bytes) {
    h.leader_memtable_bytes = budget.memtable_bytes(candidates[lead]);
    h.preferred_memtable_bytes = budget.memtable_bytes(candidates[second]);
  }
  h.scale = last.scale;
  std::vector<double> leader_ops = {last.ops_per_sec[lead_pos]};
  std::vector<double> preferred_ops = {last.ops_per_sec[pref_pos]};
  for (int r = 0; r < budget.tie_rounds; r++) {
    // Alternating, the preferred first in the first added round.
    const bool leader_first = r % 2 == 1;
    double ops[2] = {0, 0};  // leader, preferred
    for (int k = 0; k < 2; k++) {
      const bool is_leader = (k == 0) == leader_first;
      auto score = trial(candidates[is_leader ? lead : second], h.scale);
      out->trials++;
      if (!score.ok()) {
        if (score.status().IsAborted()) return score.status();
        out->notes.push_back("a tie round failed (" + score.status().message() +
                             "); the last rung's leader stands");
        return Status::OK();
      }
      cost->Observe(h.scale, score->Cost());
      ops[is_leader ? 0 : 1] = score->ops_per_sec;
    }
    leader_ops.push_back(ops[0]);
    preferred_ops.push_back(ops[1]);
  }
  h.gain = PairedGain(leader_ops, preferred_ops);
  // Level: the leaner of the two, else the rules' choice.
  if (!h.leader_stands()) out->winner = second;
  out->tie = std::move(h);
  return Status::OK();
}

}  // namespace

Result<SearchOutcome> SuccessiveHalving(
    const std::vector<TuneConfig>& candidates, const SearchBudget& budget,
    CostModel* cost, const TrialFn& trial,
    const std::function<uint64_t()>& now_ns) {
  SearchOutcome out;
  const uint64_t start = now_ns();
  const double budget_ns = static_cast<double>(budget.budget_ns);

  // Fit the candidate count first: a first rung at the smallest scale must
  // be affordable.
  size_t n = candidates.size();
  while (n > 1) {
    std::vector<size_t> sizes = RungSizes(n, budget.eta);
    double cost_min = PlanCost(sizes,
                               RungScales(sizes.size(), budget.min_scale,
                                          budget.min_scale, budget.eta),
                               *cost);
    if (cost_min <= budget_ns) break;
    n--;
  }
  if (n < candidates.size()) {
    out.truncated = true;
    out.notes.push_back(
        "the time budget allowed " + std::to_string(n) + " of " +
        std::to_string(candidates.size()) +
        " candidates (the rules' least preferred were left out)");
  }
  out.candidates = static_cast<int>(n);
  std::vector<size_t> alive(n);
  std::iota(alive.begin(), alive.end(), 0);
  if (n == 1) {
    out.winner = 0;
    out.elapsed_ns = now_ns() - start;
    return out;
  }

  std::vector<size_t> sizes = RungSizes(n, budget.eta);
  for (size_t l = 0; l < sizes.size(); l++) {
    // Re-plan what is left with what the trials so far taught the model.
    double spent = static_cast<double>(now_ns() - start);
    double left = budget_ns - spent;
    std::vector<size_t> rest(sizes.begin() + static_cast<long>(l), sizes.end());
    rest[0] = alive.size();
    double top = FitTopScale(rest, budget, *cost, left);
    std::vector<double> scales =
        RungScales(rest.size(), top, budget.min_scale, budget.eta);
    if (l > 0 && PlanCost(rest, scales, *cost) > left * 1.25) {
      out.truncated = true;
      out.notes.push_back("time ran short: the search stopped after " +
                          std::to_string(l) + " rung(s)");
      break;
    }
    Rung rung;
    rung.scale = scales[0];
    for (size_t idx : alive) {
      auto score = trial(candidates[idx], rung.scale);
      out.trials++;
      rung.candidates.push_back(idx);
      if (!score.ok()) {
        if (score.status().IsAborted()) return score.status();
        rung.ops_per_sec.push_back(0);
        rung.errors.push_back(score.status().message());
        continue;
      }
      cost->Observe(rung.scale, score->Cost());
      rung.ops_per_sec.push_back(score->ops_per_sec);
      rung.errors.emplace_back();
    }
    // The best 1/eta go on (failed trials never do).
    std::vector<size_t> order(rung.candidates.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return rung.ops_per_sec[a] > rung.ops_per_sec[b];
    });
    size_t keep = l + 1 < sizes.size() ? sizes[l + 1] : 1;
    alive.clear();
    for (size_t i = 0; i < order.size() && alive.size() < keep; i++) {
      if (rung.ops_per_sec[order[i]] > 0) {
        alive.push_back(rung.candidates[order[i]]);
      }
    }
    // The rules' first choice within the noise goes on too, for the last
    // rung's head-to-head to judge with paired rounds.
    if (l + 1 < sizes.size() && rung.ops_per_sec[order[0]] > 0) {
      size_t pref = PreferredWithinNoise(rung, rung.ops_per_sec[order[0]]);
      if (pref != std::string::npos &&
          std::find(alive.begin(), alive.end(), rung.candidates[pref]) ==
              alive.end()) {
        alive.push_back(rung.candidates[pref]);
      }
    }
    out.rungs.push_back(std::move(rung));
    if (alive.empty()) {
      return Status::IOError("every candidate's trial failed; first error: " +
                             out.rungs.back().errors.front());
    }
  }
  // The winner: the best of the last rung that ran, unless the tie's rounds
  // cannot tell it from the rules' more preferred candidate near it.
  const Rung& last = out.rungs.back();
  size_t best = 0;
  for (size_t i = 1; i < last.candidates.size(); i++) {
    if (last.ops_per_sec[i] > last.ops_per_sec[best]) best = i;
  }
  out.winner = last.candidates[best];
  Status tie = BreakTie(candidates, budget, start, cost, trial, now_ns, &out);
  if (!tie.ok()) return tie;
  out.elapsed_ns = now_ns() - start;
  return out;
}

}  // namespace disktune::tune
