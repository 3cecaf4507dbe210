// The report's "analyses": what was derived from the measurements, one
// optional value per kind (reports/analysis_registry.h lists the kinds, their
// keys and who writes each), and the keys no kind describes (a result written
// by a later version), kept as read and written back as they are. JSON only in
// AnalysesToJson / AnalysesFromJson, which the report's own JSON calls.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "src/core/status.h"
#include "src/model/analysis_bytes_written.h"
#include "src/model/analysis_checks.h"
#include "src/model/analysis_durability.h"
#include "src/model/analysis_fs_matrix.h"
#include "src/model/analysis_leveldb_2011.h"
#include "src/model/analysis_memory_budget.h"
#include "src/model/analysis_page_cache.h"
#include "src/model/analysis_rand_read_saturation.h"
#include "src/model/analysis_throttle_by_probe.h"
#include "src/model/analysis_write_cache.h"
#include "src/model/analysis_write_cache_ab.h"

namespace disktune::model {

struct Analyses {
  std::optional<ThrottleByProbe> throttle_by_probe;
  std::optional<MemoryBudgetCheck> memory_budget;
  std::optional<RandReadSaturation> rand_read_saturation;
  std::optional<PageCacheCheck> page_cache;
  std::optional<Findings2011Check> leveldb_2011;
  std::optional<DurabilityFindings> durability;
  std::optional<WriteCacheViews> write_cache;
  std::optional<NamedChecks> checks;
  std::optional<WriteCacheAb> write_cache_ab;
  std::optional<FsMatrix> fs_matrix;
  std::optional<BytesWritten> bytes_written;
  // Keys no kind describes, by key, as read (an object).
  nlohmann::json unknown = nlohmann::json::object();

  // Adds (or replaces) one named check under "checks".
  void PutCheck(const std::string& name, const NamedCheck& c);
};

// The "analyses" object: each kind that is set under its key, and the
// unknown keys as they were read.
nlohmann::json AnalysesToJson(const Analyses& a);
// Corruption naming the key ("analyses.page_cache: ...") when a known kind
// does not have its struct's shape, or when `j` is not an object.
Result<Analyses> AnalysesFromJson(const nlohmann::json& j);

}  // namespace disktune::model
