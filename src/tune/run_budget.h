// What `disktune run` gives its tuner: the time, and under --quick the
// write budget the run's own limit leaves after the probes and the bench.
#pragma once

#include <cstdint>
#include <optional>

namespace disktune::tune {

// `run --quick`'s tuner time (`tune --quick` has its own, tuner.h).
inline constexpr uint64_t kRunQuickTuneBudgetNs = 60ull * 1000000000ull;
// run --quick writes at most this much in all (probes, bench, tuner): a
// tune's writes alone can exceed it (benchmarks/README.md, "Write budget
// records").
inline constexpr uint64_t kRunQuickWriteLimitBytes = 4ull << 30;
// Under --throttle (an emulated slow disk) the limit is half, so the whole
// run stays within minutes there (benchmarks/README.md, "run --quick,
// probe --quick and Ctrl-C on hdd").
inline constexpr uint64_t kRunQuickThrottledWriteLimitBytes = 2ull << 30;
// Kept back from the tuner's share: the bench's and the tuner's pages still
// in writeback when the share is computed, and other writers on the disk.
inline constexpr uint64_t kRunQuickWriteReserveBytes = 256ull << 20;
// The tuner's share when the disk's own count cannot be read.
inline constexpr uint64_t kRunQuickFallbackTuneWriteBytes = 1ull << 30;

// The tuner's time budget in `run`: 60 s with --quick, else the tuner's
// default (a --time-budget flag overrides either).
uint64_t RunTuneTimeBudgetNs(bool quick);

// The tuner's write budget under --quick: what the 4 GiB limit leaves after
// `disk_bytes`, what the disk counted so far (the probes' writes are
// synced, so the count is current), less the reserve; never below the
// tuner's minimum (budget.h). Unknown disk count: the fallback share.
uint64_t QuickTuneWriteBudget(std::optional<uint64_t> disk_bytes,
                              uint64_t limit_bytes = kRunQuickWriteLimitBytes);

}  // namespace disktune::tune
