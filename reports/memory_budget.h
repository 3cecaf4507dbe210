// A bench run with a tuned profile, against the memory budget the profile
// was tuned for. The budget covers what the engine holds itself (write
// buffers, block cache, index and filter blocks): anonymous memory. So the
// check is the engine's share: the peak anonymous RSS of each scenario less
// what the process held before any engine opened (the harness). The whole
// resident set's peak is shown beside it; it also counts file-backed pages
// (an engine's memory-mapped tables, the program's code) that the kernel
// reclaims as page cache.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/model/analyses.h"
#include "src/model/analysis_memory_budget.h"
#include "src/model/bench_result.h"

namespace disktune {

// Unset when no result has a peak RSS. `harness_anon_rss_bytes`: the
// process's RssAnon before the bench opened an engine.
std::optional<MemoryBudgetCheck> CheckMemoryBudget(
    const std::vector<bench::BenchResult>& benches, uint64_t budget_bytes,
    std::string profile, std::optional<uint64_t> harness_anon_rss_bytes);

// One sentence for people: "the engine's own memory 123.8 MiB at most
// (leveldb readrandom: peak anonymous RSS 132.5 MiB less the harness's
// 8.7 MiB) against the profile's memory budget of 128 MiB: within it; ...".
std::string MemoryBudgetText(const MemoryBudgetCheck& c);

// The check a report's analyses hold; nullptr when they hold none or one
// without rows.
const MemoryBudgetCheck* MemoryBudgetOf(const model::Analyses& analyses);

}  // namespace disktune
