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
namespace {

using json_fields::Str;

// At least this many device flushes per sync: syncs reach the device. A sync
// normally causes one flush, a journal commit often two; 0.5 allows for
// commits that several syncs share.
constexpr double kReachAtLeast = 0.5;
// Fewer than this: syncs do not reach it (what is left is other writers).
constexpr double kDroppedBelow = 0.1;
// Half a revolution of the fastest spindle (15,000 rpm: 4 ms per turn).
constexpr uint64_t kRotationalFloorNs = 2000000;
// Faster than flash can be programmed and its mapping committed.
constexpr uint64_t kPlpBelowNs = 200000;

struct Rule {
  DurabilityRule text;
  bool (*holds)(const DurabilityEvidence&);
};

bool WriteThrough(const DurabilityEvidence& e) {
  return e.kernel_write_cache == "write through";
}

const std::vector<Rule>& Rules() {
  static const std::vector<Rule> kRules = {
      {{"unsafe_write_through",
        "the kernel's view is 'write through' while the drive reports its "
        "volatile write cache enabled: the kernel sends no flushes, so "
        "acknowledged syncs sit in volatile memory and can be lost on power "
        "failure"},
       [](const DurabilityEvidence& e) {
         return WriteThrough(e) && e.drive_cache_enabled.value_or(false);
       }},
      {{"kernel_write_through",
        "the kernel's view is 'write through': it sends no flushes, so syncs "
        "are fast; they are durable only if the device really has no volatile "
        "cache (on a loop device, the fsync of the backing file is skipped)"},
       [](const DurabilityEvidence& e) { return WriteThrough(e); }},
      {{"flushes_dropped",
        "the kernel's view is 'write back' but the disk completed fewer than "
        "0.1 flushes per sync: syncs never reach the device as flushes; a "
        "layer "
        "in between (hypervisor, a nobarrier mount, a driver) drops them and "
        "data in a volatile cache can be lost on power failure"},
       [](const DurabilityEvidence& e) {
         auto f = e.flushes_per_sync();
         return f && *f < kDroppedBelow;
       }},
      {{"cache_absorbs_flushes",
        "a rotational disk completed syncs with a p50 under 2 ms: a sync "
        "waits about one revolution (7,200 rpm allows ~120 commits/s; 15,000 "
        "rpm turns in 4 ms), so a cache absorbs the flushes (battery-backed "
        "controller, hypervisor, or a drive ignoring them); durable only if "
        "that cache survives power loss"},
       [](const DurabilityEvidence& e) {
         return e.rotational.value_or(false) && e.fastest_sync_p50_ns &&
                *e.fastest_sync_p50_ns < kRotationalFloorNs;
       }},
      {{"power_loss_protection_likely",
        "a non-rotational device completed at least 0.5 flushes per sync with "
        "a sync p50 under 200 us: flushes reach it yet finish faster than "
        "flash is programmed, which suggests power-loss protection (a "
        "capacitor-backed cache); confirm with the model's datasheet"},
       [](const DurabilityEvidence& e) {
         auto f = e.flushes_per_sync();
         return e.rotational == false && f && *f >= kReachAtLeast &&
                e.fastest_sync_p50_ns && *e.fastest_sync_p50_ns < kPlpBelowNs;
       }},
      {{"flushes_reach_device",
        "the disk completed at least 0.5 flushes per sync: syncs reach the "
        "device and wait for it; the latencies are its real commit cost"},
       [](const DurabilityEvidence& e) {
         auto f = e.flushes_per_sync();
         return f && *f >= kReachAtLeast;
       }},
      {{"partial_flushes",
        "the disk completed between 0.1 and 0.5 flushes per sync: only some "
        "syncs reached the device as flushes (commits batched, or a layer "
        "absorbing some)"},
       [](const DurabilityEvidence& e) { return e.flushes.has_value(); }},
      {{"not_counted",
        "flushes were not counted (no block device, or Linux before 5.5): "
        "whether syncs reach the device cannot be told"},
       [](const DurabilityEvidence&) { return true; }},
  };
  return kRules;
}

}  // namespace

const std::vector<DurabilityRule>& DurabilityRules() {
  static const std::vector<DurabilityRule>* rules = [] {
    auto* v = new std::vector<DurabilityRule>();
    for (const Rule& r : Rules()) v->push_back(r.text);
    return v;
  }();
  return *rules;
}

DurabilityVerdict JudgeDurability(const DurabilityEvidence& e) {
  for (const Rule& r : Rules()) {
    if (r.holds(e)) return {r.text.id, r.text.rule};
  }
  return {"not_counted", ""};  // unreachable: the last rule always holds
}

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
