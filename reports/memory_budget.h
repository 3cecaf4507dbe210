// A bench run with a tuned profile, against the memory budget the profile
// was tuned for: the peak resident set of each scenario beside the budget.
// The figure is the whole process's (engine, the harness's key model,
// buffers), so it is an upper bound on what the engine itself held.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/bench/bench_result.h"

namespace disktune {

struct MemoryBudgetRow {
  std::string engine;
  std::string scenario;
  uint64_t peak_rss_bytes = 0;
  std::string scope;  // "scenario" (VmHWM reset before it) or "process"
};

struct MemoryBudgetCheck {
  uint64_t budget_bytes = 0;
  std::string profile;  // the profile's path, as given
  std::vector<MemoryBudgetRow> rows;
  uint64_t max_peak_rss_bytes = 0;
  bool within = true;  // every row's peak RSS <= the budget
};

// Unset when no result has a peak RSS.
std::optional<MemoryBudgetCheck> CheckMemoryBudget(
    const std::vector<bench::BenchResult>& benches, uint64_t budget_bytes,
    std::string profile);

void to_json(nlohmann::json& j, const MemoryBudgetCheck& c);
void from_json(const nlohmann::json& j, MemoryBudgetCheck& c);

// One sentence for people: "peak RSS 98.1 MiB (overwrite) against the
// profile's memory budget of 128 MiB: within it".
std::string MemoryBudgetText(const MemoryBudgetCheck& c);

// The analyses key the check is stored under.
inline constexpr const char* kMemoryBudgetKey = "memory_budget";

// The check a report's analyses hold; unset when they hold none.
std::optional<MemoryBudgetCheck> MemoryBudgetOf(const nlohmann::json& analyses);

}  // namespace disktune
