#include "probes/durability_verdict.h"

#include <algorithm>
#include <map>

#include "probes/durability_findings.h"
#include "probes/fsync_point.h"
#include "probes/sync_tables.h"
#include "src/core/histogram.h"
#include "src/core/json_fields.h"
#include "src/model/fsync_names.h"

namespace disktune {

using json_fields::Str;

std::vector<DurabilityEvidence> CollectDurabilityEvidence(
    const std::vector<ProbeResult>& results) {
  std::vector<DurabilityEvidence> out;
  std::map<std::string, size_t> index;
  for (const auto& r : results) {
    if (r.probe != "fsync" || r.status != ProbeStatus::kOk || !r.latency_ns)
      continue;
    std::optional<SyncMethod> m = ParseSyncMethod(r.params.method);
    if (!m || !MethodAlwaysFlushes(*m)) continue;
    std::string scope = Str(r.params.extra, "scope");
    if (!index.count(scope)) {
      index[scope] = out.size();
      DurabilityEvidence e;
      e.scope = scope;
      e.disk = Str(r.params.extra, "disk");
      if (auto it = r.params.extra.find("rotational");
          it != r.params.extra.end() && it->is_boolean()) {
        e.rotational = it->get<bool>();
      }
      e.kernel_write_cache = Str(r.params.extra, "kernel_write_cache");
      std::string drive = Str(r.params.extra, "drive_write_cache");
      if (!drive.empty()) e.drive_cache_enabled = drive == "enabled";
      out.push_back(e);
    }
    DurabilityEvidence& e = out[index[scope]];
    auto syncs = r.metrics.find("syncs");
    auto flushes = r.metrics.find("flushes");
    if (syncs != r.metrics.end() && flushes != r.metrics.end()) {
      e.syncs += syncs->get<uint64_t>();
      e.flushes = e.flushes.value_or(0) + flushes->get<uint64_t>();
    } else if (!e.flushes) {
      e.syncs += r.samples.value_or(0);
    }
    if (!e.fastest_sync_p50_ns || r.latency_ns->p50 < *e.fastest_sync_p50_ns) {
      e.fastest_sync_p50_ns = r.latency_ns->p50;
      e.fastest_point = r.name;
    }
  }
  return out;
}

std::optional<NamedCheck> JudgeEtcd(const std::vector<ProbeResult>& results) {
  for (const auto& r : results) {
    if (!IsEtcdPoint(r) || r.status != ProbeStatus::kOk || !r.latency_ns)
      continue;
    // etcd's gate and its wal_fsync_duration_seconds time the fdatasync call
    // alone, as fio's "sync" latency does; the write() before it is not in it.
    uint64_t p99 = r.latency_ns->p99;
    uint64_t samples = r.latency_ns->samples;
    std::string figure = "metrics.sync_latency_ns.p99";
    auto sync = r.metrics.find("sync_latency_ns");
    if (sync != r.metrics.end() && sync->contains("p99")) {
      p99 = (*sync)["p99"].get<uint64_t>();
      samples = sync->value("samples", samples);
    } else {
      figure = "latency_ns.p99";
    }
    // A p99 on fewer than 1,000 syncs is one of the few largest values: no
    // verdict, whichever side of the threshold it falls.
    uint64_t needed = MinSamplesForQuantile(0.99);
    bool enough = samples >= needed;
    std::string verdict = !enough                  ? "insufficient"
                          : p99 < kEtcdThresholdNs ? "pass"
                                                   : "fail";
    NamedCheck c;
    c.rule =
        "p99 of fdatasync after a 2300 B write into a preallocated file under "
        "10 ms (etcd's disk gate: fio --rw=write --ioengine=sync "
        "--fdatasync=1 --size=22m --bs=2300, which preallocates its file as "
        "etcd does its WAL segments), on at least 1,000 syncs";
    c.measurement = r.name + " " + figure;
    c.value_ns = p99;
    c.threshold_ns = kEtcdThresholdNs;
    c.samples = samples;
    c.samples_needed = needed;
    c.verdict = verdict;
    c.pass = verdict == "pass";
    return c;
  }
  return std::nullopt;
}

void AnalyzeDurability(const std::vector<ProbeResult>& results,
                       model::Analyses* analyses) {
  if (auto d = JudgeScopes(results)) analyses->durability = std::move(*d);
  if (auto w = ReadScratchWriteCaches(results))
    analyses->write_cache = std::move(*w);
  if (auto ab = WriteCacheAbTable(results))
    analyses->write_cache_ab = std::move(*ab);
  if (auto fsm = FsMatrixTable(results)) analyses->fs_matrix = std::move(*fsm);
  if (auto etcd = JudgeEtcd(results)) analyses->PutCheck("etcd", *etcd);
}

}  // namespace disktune
