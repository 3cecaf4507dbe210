#include "reports/analysis_registry.h"

namespace disktune {
namespace {

using model::Analyses;

template <auto Member>
bool Present(const Analyses& analyses) {
  return (analyses.*Member).has_value();
}

bool MemoryBudgetPresent(const Analyses& analyses) {
  return analyses.memory_budget && !analyses.memory_budget->rows.empty();
}

bool ChecksPresent(const Analyses& analyses) {
  return analyses.checks && !analyses.checks->empty();
}

constexpr std::array<AnalysisKind, kAnalysisKinds> kKinds = {{
    {AnalysisId::kThrottleByProbe, ThrottleByProbe::kKey,
     "src/model/analysis_throttle_by_probe.h",
     "the probe runner under --throttle", AnalysisPlace::kBesideProbeTables,
     &Present<&Analyses::throttle_by_probe>},
    {AnalysisId::kMemoryBudget, kMemoryBudgetKey,
     "src/model/analysis_memory_budget.h",
     "bench --profile with a tuned profile", AnalysisPlace::kAfterBenches,
     &MemoryBudgetPresent},
    {AnalysisId::kRandReadSaturation, RandReadSaturation::kKey,
     "src/model/analysis_rand_read_saturation.h", "the rand_read probe",
     AnalysisPlace::kAfterProbes, &Present<&Analyses::rand_read_saturation>},
    {AnalysisId::kPageCache, PageCacheCheck::kKey,
     "src/model/analysis_page_cache.h",
     "the probe runner, after the direct-I/O probes",
     AnalysisPlace::kAfterProbes, &Present<&Analyses::page_cache>},
    {AnalysisId::kLeveldb2011, Findings2011Check::kKey,
     "src/model/analysis_leveldb_2011.h", "bench --scenarios compare-2011",
     AnalysisPlace::kAfterProbes, &Present<&Analyses::leveldb_2011>, true},
    {AnalysisId::kDurability, DurabilityFindings::kKey,
     "src/model/analysis_durability.h", "the fsync probe",
     AnalysisPlace::kDurability, &Present<&Analyses::durability>},
    {AnalysisId::kWriteCache, WriteCacheViews::kKey,
     "src/model/analysis_write_cache.h", "the fsync probe",
     AnalysisPlace::kDurability, &Present<&Analyses::write_cache>},
    {AnalysisId::kChecks, kChecksKey, "src/model/analysis_checks.h",
     "the fsync probe (etcd)", AnalysisPlace::kDurability, &ChecksPresent},
    {AnalysisId::kWriteCacheAb, WriteCacheAb::kKey,
     "src/model/analysis_write_cache_ab.h",
     "the fsync probe under --write-cache-ab", AnalysisPlace::kDurability,
     &Present<&Analyses::write_cache_ab>},
    {AnalysisId::kFsMatrix, FsMatrix::kKey, "src/model/analysis_fs_matrix.h",
     "the fsync probe under --fs-matrix", AnalysisPlace::kDurability,
     &Present<&Analyses::fs_matrix>},
    {AnalysisId::kBytesWritten, BytesWritten::kKey,
     "src/model/analysis_bytes_written.h", "run (src/app/write_count.cc)",
     AnalysisPlace::kWrites, &Present<&Analyses::bytes_written>},
}};

constexpr bool InIdOrder() {
  for (size_t i = 0; i < kKinds.size(); i++) {
    if (static_cast<size_t>(kKinds[i].id) != i) return false;
  }
  return true;
}
static_assert(InIdOrder(), "kKinds is indexed by AnalysisId");

}  // namespace

const std::array<AnalysisKind, kAnalysisKinds>& AnalysisKinds() {
  return kKinds;
}

const AnalysisKind& KindOf(AnalysisId id) {
  return kKinds[static_cast<size_t>(id)];
}

const AnalysisKind* FindAnalysisKind(std::string_view key) {
  for (const AnalysisKind& k : kKinds) {
    if (key == k.key) return &k;
  }
  return nullptr;
}

bool SaidAsWritten(std::string_view key) {
  const AnalysisKind* k = FindAnalysisKind(key);
  return k == nullptr || k->as_written;
}

}  // namespace disktune
