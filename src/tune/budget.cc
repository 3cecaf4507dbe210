#include "src/tune/budget.h"

#include <algorithm>
#include <utility>

namespace disktune::tune {

TuneBudget::TuneBudget(uint64_t time_budget_ns, uint64_t write_budget_bytes,
                       Counter now_ns, Counter bytes_written,
                       std::optional<uint64_t> start_ns)
    : time_budget_ns_(time_budget_ns),
      write_budget_bytes_(write_budget_bytes),
      now_ns_(std::move(now_ns)),
      bytes_(std::move(bytes_written)),
      start_ns_(start_ns ? *start_ns : now_ns_()),
      start_bytes_(bytes_()) {}

double TuneBudget::BytesToNs(uint64_t bytes) const {
  if (write_budget_bytes_ == 0) return 0;
  return static_cast<double>(bytes) * static_cast<double>(time_budget_ns_) /
         static_cast<double>(write_budget_bytes_);
}

double TuneBudget::WallNs() const {
  uint64_t now = now_ns_();
  return now > start_ns_ ? static_cast<double>(now - start_ns_) : 0.0;
}

uint64_t TuneBudget::BytesWritten() const {
  uint64_t b = bytes_();
  return b > start_bytes_ ? b - start_bytes_ : 0;
}

double TuneBudget::UsedNs() const {
  return std::max(WallNs(), BytesToNs(BytesWritten()));
}

double TuneBudget::RemainingNs() const {
  return std::max(0.0, static_cast<double>(time_budget_ns_) - UsedNs());
}

double TuneBudget::CostNs(uint64_t wall_ns, uint64_t bytes) const {
  return std::max(static_cast<double>(wall_ns), BytesToNs(bytes));
}

uint64_t TuneBudget::ClockNs() const {
  return start_ns_ + static_cast<uint64_t>(UsedNs());
}

bool TuneBudget::WritesBind() const {
  return BytesToNs(BytesWritten()) > WallNs();
}

}  // namespace disktune::tune
