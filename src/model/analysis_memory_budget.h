// The analyses' "memory_budget": a bench run with a tuned profile against
// the memory budget the profile was tuned for, per scenario (derived by
// reports/memory_budget.h).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace disktune {

// The analyses key the check is stored under.
inline constexpr const char* kMemoryBudgetKey = "memory_budget";

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

void to_json(nlohmann::json& j, const MemoryBudgetCheck& c);
void from_json(const nlohmann::json& j, MemoryBudgetCheck& c);

}  // namespace disktune
