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

#include "src/model/bench_result.h"

namespace disktune {

struct MemoryBudgetRow {
  std::string engine;
  std::string scenario;
  uint64_t peak_rss_bytes = 0;
  std::string scope;  // "scenario" (VmHWM reset before it) or "process"
  std::optional<uint64_t> peak_anon_rss_bytes;
  // peak_anon_rss_bytes less the harness's anonymous RSS; set when both are.
  std::optional<uint64_t> engine_anon_bytes;
};

struct MemoryBudgetCheck {
  uint64_t budget_bytes = 0;
  std::string profile;  // the profile's path, as given
  std::vector<MemoryBudgetRow> rows;
  uint64_t max_peak_rss_bytes = 0;
  // The process's RssAnon before any engine opened.
  std::optional<uint64_t> harness_anon_rss_bytes;
  // The largest engine_anon_bytes; unset when no row has one (results
  // written before the anonymous share was sampled).
  std::optional<uint64_t> max_engine_anon_bytes;
  // max_engine_anon_bytes <= the budget; without it, max_peak_rss_bytes.
  bool within = true;
};

// Unset when no result has a peak RSS. `harness_anon_rss_bytes`: the
// process's RssAnon before the bench opened an engine.
std::optional<MemoryBudgetCheck> CheckMemoryBudget(
    const std::vector<bench::BenchResult>& benches, uint64_t budget_bytes,
    std::string profile, std::optional<uint64_t> harness_anon_rss_bytes);

void to_json(nlohmann::json& j, const MemoryBudgetCheck& c);
void from_json(const nlohmann::json& j, MemoryBudgetCheck& c);

// One sentence for people: "the engine's own memory 123.8 MiB at most
// (leveldb readrandom: peak anonymous RSS 132.5 MiB less the harness's
// 8.7 MiB) against the profile's memory budget of 128 MiB: within it; ...".
std::string MemoryBudgetText(const MemoryBudgetCheck& c);

// The analyses key the check is stored under.
inline constexpr const char* kMemoryBudgetKey = "memory_budget";

// The check a report's analyses hold; unset when they hold none.
std::optional<MemoryBudgetCheck> MemoryBudgetOf(const nlohmann::json& analyses);

}  // namespace disktune
