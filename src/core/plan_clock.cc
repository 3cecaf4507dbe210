#include "src/core/plan_clock.h"

#include <algorithm>
#include <cmath>

namespace disktune {

void PlanClock::SetPrior(const std::string& kind, double ns_per_unit,
                         bool guess) {
  prior_[kind] = ns_per_unit;
  guess_[kind] = guess;
}

size_t PlanClock::Add(PlannedStep step) {
  steps_.push_back(std::move(step));
  return steps_.size() - 1;
}

void PlanClock::Done(size_t i, uint64_t ns, double work_done) {
  if (i >= steps_.size()) return;
  const PlannedStep& s = steps_[i];
  if (s.work <= 0) {
    fixed_expected_ += static_cast<double>(s.fixed_ns);
    fixed_measured_ += static_cast<double>(ns);
    return;
  }
  if (work_done <= 0) return;  // failed at once: says nothing of the rate
  // The work's own time: what the step took beyond its fixed part. A step
  // cut at its cap did fewer units in that time, one held to its minimum
  // did more: time over the units done is the rate either way.
  double fixed = static_cast<double>(s.fixed_ns) * FixedScale();
  auto g = guess_.find(s.kind);
  auto p = prior_.find(s.kind);
  if (g != guess_.end() && g->second && p != prior_.end()) {
    guess_expected_ += work_done * p->second;
    guess_measured_ += std::max(0.0, static_cast<double>(ns) - fixed);
  }
  Learnt& l = learnt_[s.kind];
  l.ns += std::max(0.0, static_cast<double>(ns) - fixed);
  l.work += work_done;
}

double PlanClock::RateOf(const std::string& kind) const {
  auto l = learnt_.find(kind);
  if (l != learnt_.end() && l->second.work > 0)
    return l->second.ns / l->second.work;
  auto p = prior_.find(kind);
  if (p == prior_.end()) return 0;
  auto g = guess_.find(kind);
  return g != guess_.end() && g->second ? p->second * GuessScale() : p->second;
}

double PlanClock::GuessScale() const {
  return guess_expected_ > 0 ? guess_measured_ / guess_expected_ : 1;
}

double PlanClock::FixedScale() const {
  if (fixed_expected_ <= 0) return 1;
  // Bounded: one step stalled by a page-cache flush should not triple the
  // rest of the run.
  return std::clamp(fixed_measured_ / fixed_expected_, 0.5, 3.0);
}

uint64_t PlanClock::ExpectedNs(size_t i) const {
  if (i >= steps_.size()) return 0;
  const PlannedStep& s = steps_[i];
  double t = static_cast<double>(s.fixed_ns) * FixedScale();
  if (s.work > 0 || s.min_ns > 0) {
    double w = s.work * RateOf(s.kind);
    w = std::clamp(w, static_cast<double>(s.min_ns),
                   static_cast<double>(std::max(s.min_ns, s.max_ns)));
    t += w;
  }
  return static_cast<uint64_t>(std::llround(t));
}

uint64_t PlanClock::RemainingWithin(size_t i, uint64_t ns_so_far,
                                    double work_so_far) const {
  if (i >= steps_.size()) return 0;
  const PlannedStep& s = steps_[i];
  double total = static_cast<double>(ExpectedNs(i));
  double fixed = static_cast<double>(s.fixed_ns) * FixedScale();
  double into_work = static_cast<double>(ns_so_far) - fixed;
  if (s.work > 0 && work_so_far > 0 && into_work > 0) {
    double w = s.work * into_work / work_so_far;
    w = std::clamp(w, static_cast<double>(s.min_ns),
                   static_cast<double>(std::max(s.min_ns, s.max_ns)));
    total = fixed + w;
  }
  double left = std::max(0.0, total - static_cast<double>(ns_so_far));
  return static_cast<uint64_t>(std::llround(left)) + RemainingNs(i + 1);
}

uint64_t PlanClock::RemainingNs(size_t i) const {
  uint64_t total = 0;
  for (size_t k = i; k < steps_.size(); k++) total += ExpectedNs(k);
  return total;
}

}  // namespace disktune
