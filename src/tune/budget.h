// The tuner's budget: time, and optionally bytes written.
//
// Bytes are turned into time at the budget's own exchange rate (time budget
// / write budget), so the planner keeps reasoning in one unit: the budget is
// used up by whichever runs out first, wall time or writes, and a trial's
// cost is the larger of its wall time and its bytes at that rate. A plan
// that fits what is left therefore fits both limits.
//
// Bytes are the process's own count (/proc/self/io write_bytes less
// cancelled_write_bytes, bench::ProcessWriteBytes): taken when a page is
// dirtied, so it does not lag behind writeback the way the disk's sector
// count does, and a trial database deleted before writeback counts only
// what reached the disk. How closely the two counts agree on a tune:
// benchmarks/README.md, "Write budget records".
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

namespace disktune::tune {

// A floor, so that calibration and the A/B's 6 smallest trials are not
// most of the budget. Measured: a write-heavy LevelDB tune of 64 MiB of
// data with this budget wrote 53 MiB in all, its A/B at scale 0.06.
inline constexpr uint64_t kMinWriteBudgetBytes = 64ull << 20;

class TuneBudget {
 public:
  using Counter = std::function<uint64_t()>;
  // write_budget_bytes 0 = no write limit. `now_ns` and `bytes_written` are
  // read at construction as the start; `start_ns` (by `now_ns`'s clock),
  // when given, is the start of the time instead.
  TuneBudget(uint64_t time_budget_ns, uint64_t write_budget_bytes,
             Counter now_ns, Counter bytes_written,
             std::optional<uint64_t> start_ns = std::nullopt);

  // Budget time used: the larger of wall time and bytes at the rate.
  double UsedNs() const;
  double RemainingNs() const;
  // What a stretch of work that took `wall_ns` and wrote `bytes` costs.
  double CostNs(uint64_t wall_ns, uint64_t bytes) const;
  // A clock that advances as the budget is used (for the search).
  uint64_t ClockNs() const;

  uint64_t BytesWritten() const;
  uint64_t ReadBytes() const { return bytes_(); }
  // True once writes, not time, account for most of what was used (never
  // without a write limit).
  bool WritesBind() const;

 private:
  double BytesToNs(uint64_t bytes) const;
  double WallNs() const;  // since construction

  uint64_t time_budget_ns_;
  uint64_t write_budget_bytes_;
  Counter now_ns_;
  Counter bytes_;
  uint64_t start_ns_;
  uint64_t start_bytes_;
};

}  // namespace disktune::tune
