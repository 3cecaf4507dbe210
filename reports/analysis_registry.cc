#include "reports/analysis_registry.h"

#include "probes/durability_findings.h"
#include "probes/named_check.h"
#include "probes/page_cache_check.h"
#include "probes/rand_read_saturation.h"
#include "probes/sync_tables.h"
#include "probes/throttle_meter.h"
#include "reports/bytes_written.h"
#include "reports/findings_2011.h"
#include "reports/memory_budget.h"

namespace disktune {
namespace {

using json = nlohmann::json;

template <auto Of>
bool Present(const json& analyses) {
  return static_cast<bool>(Of(analyses));
}

bool ChecksPresent(const json& analyses) { return !ChecksOf(analyses).empty(); }

constexpr std::array<AnalysisKind, kAnalysisKinds> kKinds = {{
    {AnalysisId::kThrottleByProbe, ThrottleByProbe::kKey,
     "probes/throttle_meter.h", "the probe runner under --throttle",
     AnalysisPlace::kBesideProbeTables, &Present<ThrottleByProbeOf>},
    {AnalysisId::kMemoryBudget, kMemoryBudgetKey, "reports/memory_budget.h",
     "bench --profile with a tuned profile", AnalysisPlace::kAfterBenches,
     &Present<MemoryBudgetOf>},
    {AnalysisId::kRandReadSaturation, RandReadSaturation::kKey,
     "probes/rand_read_saturation.h", "the rand_read probe",
     AnalysisPlace::kAfterProbes, &Present<FindRandReadSaturation>},
    {AnalysisId::kPageCache, PageCacheCheck::kKey, "probes/page_cache_check.h",
     "the probe runner, after the direct-I/O probes",
     AnalysisPlace::kAfterProbes, &Present<PageCacheCheckOf>},
    {AnalysisId::kLeveldb2011, Findings2011Check::kKey,
     "reports/findings_2011.h", "bench --scenarios compare-2011",
     AnalysisPlace::kAfterProbes, &Present<Findings2011Of>, true},
    {AnalysisId::kDurability, DurabilityFindings::kKey,
     "probes/durability_findings.h", "the fsync probe",
     AnalysisPlace::kDurability, &Present<DurabilityFindingsOf>},
    {AnalysisId::kWriteCache, WriteCacheViews::kKey,
     "probes/durability_findings.h", "the fsync probe",
     AnalysisPlace::kDurability, &Present<WriteCacheViewsOf>},
    {AnalysisId::kChecks, kChecksKey, "probes/named_check.h",
     "the fsync probe (etcd)", AnalysisPlace::kDurability, &ChecksPresent},
    {AnalysisId::kWriteCacheAb, WriteCacheAb::kKey, "probes/sync_tables.h",
     "the fsync probe under --write-cache-ab", AnalysisPlace::kDurability,
     &Present<WriteCacheAbOf>},
    {AnalysisId::kFsMatrix, FsMatrix::kKey, "probes/sync_tables.h",
     "the fsync probe under --fs-matrix", AnalysisPlace::kDurability,
     &Present<FsMatrixOf>},
    {AnalysisId::kBytesWritten, BytesWritten::kKey, "reports/bytes_written.h",
     "run (src/app/write_count.cc)", AnalysisPlace::kWrites,
     &Present<BytesWrittenOf>},
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
