#include "reports/memory_budget.h"

#include <algorithm>

#include "src/core/json_fields.h"
#include "src/core/units.h"

namespace disktune {
namespace {

std::string Bytes(uint64_t b) { return FormatBytes(static_cast<double>(b)); }

}  // namespace

std::optional<MemoryBudgetCheck> CheckMemoryBudget(
    const std::vector<bench::BenchResult>& benches, uint64_t budget_bytes,
    std::string profile, std::optional<uint64_t> harness_anon_rss_bytes) {
  MemoryBudgetCheck c;
  c.budget_bytes = budget_bytes;
  c.profile = std::move(profile);
  c.harness_anon_rss_bytes = harness_anon_rss_bytes;
  for (const bench::BenchResult& b : benches) {
    if (!b.metrics.peak_rss_bytes) continue;
    MemoryBudgetRow row{b.engine,
                        b.scenario,
                        *b.metrics.peak_rss_bytes,
                        b.metrics.peak_rss_scope,
                        b.metrics.peak_anon_rss_bytes,
                        std::nullopt};
    if (row.peak_anon_rss_bytes && harness_anon_rss_bytes) {
      uint64_t anon = *row.peak_anon_rss_bytes;
      row.engine_anon_bytes =
          anon > *harness_anon_rss_bytes ? anon - *harness_anon_rss_bytes : 0;
      c.max_engine_anon_bytes =
          std::max(c.max_engine_anon_bytes.value_or(0), *row.engine_anon_bytes);
    }
    c.max_peak_rss_bytes = std::max(c.max_peak_rss_bytes, row.peak_rss_bytes);
    c.rows.push_back(std::move(row));
  }
  if (c.rows.empty()) return std::nullopt;
  c.within =
      c.max_engine_anon_bytes.value_or(c.max_peak_rss_bytes) <= c.budget_bytes;
  return c;
}

std::string MemoryBudgetText(const MemoryBudgetCheck& c) {
  const MemoryBudgetRow* top_rss = &c.rows.front();
  const MemoryBudgetRow* top_engine = nullptr;
  for (const MemoryBudgetRow& r : c.rows) {
    if (r.peak_rss_bytes > top_rss->peak_rss_bytes) top_rss = &r;
    if (r.engine_anon_bytes &&
        (!top_engine || *r.engine_anon_bytes > *top_engine->engine_anon_bytes))
      top_engine = &r;
  }
  std::string budget = " against the profile's memory budget of " +
                       Bytes(c.budget_bytes) + ": " +
                       (c.within ? "within it" : "OVER it");
  std::string whole = "peak RSS " + Bytes(top_rss->peak_rss_bytes) + " (" +
                      top_rss->engine + " " + top_rss->scenario +
                      "; the whole process: engine, key model and harness";
  if (!top_engine) return whole + ")" + budget;
  return "the engine's own memory " + Bytes(*top_engine->engine_anon_bytes) +
         " at most (" + top_engine->engine + " " + top_engine->scenario +
         ": peak anonymous RSS " + Bytes(*top_engine->peak_anon_rss_bytes) +
         " less the harness's " + Bytes(*c.harness_anon_rss_bytes) + ")" +
         budget + "; " + whole +
         ", with file-backed pages such as memory-mapped tables, which the "
         "kernel reclaims as page cache)";
}

const MemoryBudgetCheck* MemoryBudgetOf(const model::Analyses& analyses) {
  const std::optional<MemoryBudgetCheck>& c = analyses.memory_budget;
  return c && !c->rows.empty() ? &*c : nullptr;
}

}  // namespace disktune
