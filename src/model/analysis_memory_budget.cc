#include "src/model/analysis_memory_budget.h"

#include "src/core/json_fields.h"

namespace disktune {

void to_json(nlohmann::json& j, const MemoryBudgetCheck& c) {
  j = nlohmann::json::object();
  j["budget_bytes"] = c.budget_bytes;
  j["profile"] = c.profile;
  j["max_peak_rss_bytes"] = c.max_peak_rss_bytes;
  PutOpt(j, "harness_anon_rss_bytes", c.harness_anon_rss_bytes);
  PutOpt(j, "max_engine_anon_bytes", c.max_engine_anon_bytes);
  j["within"] = c.within;
  j["rows"] = nlohmann::json::array();
  for (const MemoryBudgetRow& r : c.rows) {
    nlohmann::json row = {{"engine", r.engine},
                          {"scenario", r.scenario},
                          {"peak_rss_bytes", r.peak_rss_bytes},
                          {"scope", r.scope}};
    PutOpt(row, "peak_anon_rss_bytes", r.peak_anon_rss_bytes);
    PutOpt(row, "engine_anon_bytes", r.engine_anon_bytes);
    j["rows"].push_back(std::move(row));
  }
}

void from_json(const nlohmann::json& j, MemoryBudgetCheck& c) {
  j.at("budget_bytes").get_to(c.budget_bytes);
  c.profile = j.value("profile", "");
  j.at("max_peak_rss_bytes").get_to(c.max_peak_rss_bytes);
  c.harness_anon_rss_bytes =
      json_fields::Opt<uint64_t>(j, "harness_anon_rss_bytes");
  c.max_engine_anon_bytes =
      json_fields::Opt<uint64_t>(j, "max_engine_anon_bytes");
  j.at("within").get_to(c.within);
  c.rows.clear();
  for (const nlohmann::json& r : j.at("rows")) {
    MemoryBudgetRow row{r.at("engine").get<std::string>(),
                        r.at("scenario").get<std::string>(),
                        r.at("peak_rss_bytes").get<uint64_t>(),
                        r.value("scope", ""),
                        json_fields::Opt<uint64_t>(r, "peak_anon_rss_bytes"),
                        json_fields::Opt<uint64_t>(r, "engine_anon_bytes")};
    c.rows.push_back(std::move(row));
  }
}

}  // namespace disktune
