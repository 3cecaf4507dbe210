#include "reports/memory_budget.h"

#include <algorithm>

#include "src/core/units.h"

namespace disktune {

std::optional<MemoryBudgetCheck> CheckMemoryBudget(
    const std::vector<bench::BenchResult>& benches, uint64_t budget_bytes,
    std::string profile) {
  MemoryBudgetCheck c;
  c.budget_bytes = budget_bytes;
  c.profile = std::move(profile);
  for (const bench::BenchResult& b : benches) {
    if (!b.metrics.peak_rss_bytes) continue;
    c.rows.push_back({b.engine, b.scenario, *b.metrics.peak_rss_bytes,
                      b.metrics.peak_rss_scope});
    c.max_peak_rss_bytes =
        std::max(c.max_peak_rss_bytes, *b.metrics.peak_rss_bytes);
  }
  if (c.rows.empty()) return std::nullopt;
  c.within = c.max_peak_rss_bytes <= c.budget_bytes;
  return c;
}

void to_json(nlohmann::json& j, const MemoryBudgetCheck& c) {
  j = nlohmann::json::object();
  j["budget_bytes"] = c.budget_bytes;
  j["profile"] = c.profile;
  j["max_peak_rss_bytes"] = c.max_peak_rss_bytes;
  j["within"] = c.within;
  j["rows"] = nlohmann::json::array();
  for (const MemoryBudgetRow& r : c.rows) {
    j["rows"].push_back({{"engine", r.engine},
                         {"scenario", r.scenario},
                         {"peak_rss_bytes", r.peak_rss_bytes},
                         {"scope", r.scope}});
  }
}

void from_json(const nlohmann::json& j, MemoryBudgetCheck& c) {
  j.at("budget_bytes").get_to(c.budget_bytes);
  c.profile = j.value("profile", "");
  j.at("max_peak_rss_bytes").get_to(c.max_peak_rss_bytes);
  j.at("within").get_to(c.within);
  c.rows.clear();
  for (const nlohmann::json& r : j.at("rows")) {
    c.rows.push_back(
        {r.at("engine").get<std::string>(), r.at("scenario").get<std::string>(),
         r.at("peak_rss_bytes").get<uint64_t>(), r.value("scope", "")});
  }
}

std::string MemoryBudgetText(const MemoryBudgetCheck& c) {
  const MemoryBudgetRow* top = &c.rows.front();
  for (const MemoryBudgetRow& r : c.rows) {
    if (r.peak_rss_bytes > top->peak_rss_bytes) top = &r;
  }
  return "peak RSS " + FormatBytes(static_cast<double>(top->peak_rss_bytes)) +
         " (" + top->engine + " " + top->scenario +
         "; the whole process: engine, key model and harness) against the "
         "profile's memory budget of " +
         FormatBytes(static_cast<double>(c.budget_bytes)) + ": " +
         (c.within ? "within it" : "OVER it");
}

std::optional<MemoryBudgetCheck> MemoryBudgetOf(
    const nlohmann::json& analyses) {
  auto it = analyses.find(kMemoryBudgetKey);
  if (it == analyses.end()) return std::nullopt;
  MemoryBudgetCheck c = it->get<MemoryBudgetCheck>();
  if (c.rows.empty()) return std::nullopt;
  return c;
}

}  // namespace disktune
