#include "probes/durability_verdict.h"

#include <algorithm>
#include <map>
#include <set>

#include "probes/fsync_names.h"
#include "probes/fsync_point.h"
#include "probes/write_cache.h"
#include "src/core/histogram.h"

namespace disktune {
namespace {

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

std::string Str(const nlohmann::json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : "";
}

nlohmann::json Figures(const ProbeResult& r) {
  nlohmann::json j = nlohmann::json::object();
  if (r.ops_per_sec) j["ops_per_sec"] = *r.ops_per_sec;
  if (r.latency_ns) {
    j["p50_ns"] = r.latency_ns->p50;
    j["p99_ns"] = r.latency_ns->p99;
  }
  if (r.samples) j["samples"] = *r.samples;
  if (auto f = r.metrics.find("flushes_per_sync"); f != r.metrics.end()) {
    j["flushes_per_sync"] = *f;
  }
  return j;
}

nlohmann::json EvidenceJson(const DurabilityEvidence& e) {
  nlohmann::json j = nlohmann::json::object();
  if (e.rotational) j["rotational"] = *e.rotational;
  if (!e.kernel_write_cache.empty())
    j["kernel_write_cache"] = e.kernel_write_cache;
  if (e.drive_cache_enabled) j["drive_cache_enabled"] = *e.drive_cache_enabled;
  j["syncs"] = e.syncs;
  if (e.flushes) j["flushes"] = *e.flushes;
  if (auto f = e.flushes_per_sync()) j["flushes_per_sync"] = *f;
  if (e.fastest_sync_p50_ns) {
    j["fastest_sync_p50_ns"] = *e.fastest_sync_p50_ns;
    j["fastest_point"] = e.fastest_point;
  }
  return j;
}

// A point of the family or a comparison, on the scratch directory or a
// filesystem of the matrix: which (filesystem, point) it is.
using PointId = std::pair<std::string, std::string>;

PointId IdOf(const ProbeResult& r) {
  return {r.params.filesystem, FsyncPointKey(r.params)};
}

nlohmann::json WriteCacheAbTable(const std::vector<ProbeResult>& results) {
  std::map<PointId, const ProbeResult*> as_found;
  for (const auto& r : results) {
    if (r.probe == "fsync" && r.params.write_cache == CacheState::kAsFound)
      as_found[IdOf(r)] = &r;
  }
  nlohmann::json runs = nlohmann::json::array();
  std::map<std::string, size_t> run_of;  // filesystem -> index in runs
  for (const auto& r : results) {
    if (r.probe != "fsync") continue;
    std::string prefix = FsyncFamilyPrefix(r.params.filesystem);
    if (r.status == ProbeStatus::kSkipped &&
        r.params.variant == kVariantWriteCacheAb) {
      runs.push_back(
          {{"results", prefix}, {"status", "skipped"}, {"reason", r.reason}});
      continue;
    }
    if (r.status != ProbeStatus::kOk ||
        r.params.write_cache == CacheState::kAsFound) {
      continue;
    }
    bool off = r.params.write_cache == CacheState::kOff;
    std::string state = CacheStateName(r.params.write_cache);
    if (!run_of.count(r.params.filesystem)) {
      run_of[r.params.filesystem] = runs.size();
      runs.push_back(
          {{"results", prefix},
           {"status", "ok"},
           {"switch", Str(r.params.extra, "write_cache_switch")},
           {"switch_kind", Str(r.params.extra, "write_cache_switch_kind")},
           {"as_found", off ? "on" : "off"},
           {"switched_to", state},
           {"points", nlohmann::json::array()}});
    }
    auto base = as_found.find(IdOf(r));
    if (base == as_found.end() || base->second->status != ProbeStatus::kOk)
      continue;
    const ProbeResult& on = off ? *base->second : r;
    const ProbeResult& cache_off = off ? r : *base->second;
    nlohmann::json p{{"point", FsyncPointKey(r.params)},
                     {"cache_on", Figures(on)},
                     {"cache_off", Figures(cache_off)}};
    if (on.latency_ns && cache_off.latency_ns && on.latency_ns->p50 > 0) {
      p["off_over_on_p50"] = static_cast<double>(cache_off.latency_ns->p50) /
                             static_cast<double>(on.latency_ns->p50);
    }
    runs[run_of[r.params.filesystem]]["points"].push_back(p);
  }
  return runs;
}

nlohmann::json FsMatrixTable(const std::vector<ProbeResult>& results) {
  nlohmann::json filesystems = nlohmann::json::array();
  std::set<std::string> seen;
  std::vector<std::string> order;
  std::map<std::string, nlohmann::json> rows;
  for (const auto& r : results) {
    const std::string& fs = r.params.filesystem;
    if (r.probe != "fsync" || fs.empty() ||
        r.params.variant == kVariantWriteCacheAb) {
      continue;
    }
    std::string key = FsyncPointKey(r.params);
    if (!seen.count(fs)) {
      seen.insert(fs);
      nlohmann::json f{{"filesystem", fs}};
      if (r.status == ProbeStatus::kSkipped && key.empty()) {
        f["status"] = "skipped";
        f["reason"] = r.reason;
      } else {
        f["status"] = "ok";
        f["mount_options"] = Str(r.params.extra, "mount_options");
        f["device"] = Str(r.params.extra, "cache_device");
      }
      filesystems.push_back(f);
    }
    if (key.empty() || r.status != ProbeStatus::kOk ||
        r.params.write_cache != CacheState::kAsFound) {
      continue;
    }
    if (!rows.count(key)) {
      order.push_back(key);
      rows[key] = nlohmann::json{{"point", key}};
    }
    rows[key][fs] = Figures(r);
  }
  nlohmann::json points = nlohmann::json::array();
  for (const auto& k : order) points.push_back(rows[k]);
  return {{"filesystems", filesystems}, {"points", points}};
}

}  // namespace

std::optional<double> DurabilityEvidence::flushes_per_sync() const {
  if (!flushes || syncs == 0) return std::nullopt;
  return static_cast<double>(*flushes) / static_cast<double>(syncs);
}

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

bool IsEtcdPoint(const ProbeResult& r) {
  const ProbeParams& p = r.params;
  return r.probe == "fsync" && p.method == "fdatasync" &&
         p.block_size_bytes == kEtcdWriteBytes && p.pattern == "append" &&
         p.writes_per_op == 1 && p.write_cache == CacheState::kAsFound &&
         p.filesystem.empty() && p.variant.empty();
}

std::optional<nlohmann::json> EtcdCheck(
    const std::vector<ProbeResult>& results) {
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
    return nlohmann::json{
        {"rule",
         "p99 of fdatasync after a 2300 B append under 10 ms (etcd's disk "
         "gate: fio "
         "--rw=write --ioengine=sync --fdatasync=1 --size=22m --bs=2300), on "
         "at least 1,000 syncs"},
        {"measurement", r.name + " " + figure},
        {"value_ns", p99},
        {"threshold_ns", kEtcdThresholdNs},
        {"samples", samples},
        {"samples_needed", needed},
        {"verdict", verdict},
        {"pass", verdict == "pass"}};
  }
  return std::nullopt;
}

void AnalyzeDurability(const std::vector<ProbeResult>& results,
                       nlohmann::json* analyses) {
  nlohmann::json& a = *analyses;
  std::vector<DurabilityEvidence> evidence = CollectDurabilityEvidence(results);
  if (!evidence.empty()) {
    nlohmann::json rules = nlohmann::json::array();
    for (const auto& r : DurabilityRules())
      rules.push_back({{"id", r.id}, {"rule", r.rule}});
    nlohmann::json verdicts = nlohmann::json::array();
    for (const auto& e : evidence) {
      DurabilityVerdict v = JudgeDurability(e);
      verdicts.push_back({{"scope", e.scope},
                          {"disk", e.disk},
                          {"verdict", v.id},
                          {"rule", v.rule},
                          {"evidence", EvidenceJson(e)}});
    }
    a["durability"] = {{"rules", rules}, {"verdicts", verdicts}};
  }

  std::vector<std::string> disks;
  for (const auto& r : results) {
    // The devices under the scratch directory, the cache as found.
    if (r.probe != "fsync" || !r.params.filesystem.empty() ||
        r.params.write_cache != CacheState::kAsFound) {
      continue;
    }
    for (const char* key : {"cache_device", "disk"}) {
      std::string d = Str(r.params.extra, key);
      if (!d.empty() &&
          std::find(disks.begin(), disks.end(), d) == disks.end()) {
        disks.push_back(d);
      }
    }
  }
  if (!disks.empty()) {
    nlohmann::json devices = nlohmann::json::array();
    for (const auto& d : disks) devices.push_back(ReadWriteCacheView(d));
    a["write_cache"] = {{"devices", devices}};
  }

  nlohmann::json ab = WriteCacheAbTable(results);
  if (!ab.empty()) a["write_cache_ab"] = {{"runs", ab}};
  nlohmann::json fsm = FsMatrixTable(results);
  if (!fsm["filesystems"].empty()) a["fs_matrix"] = fsm;
  if (std::optional<nlohmann::json> etcd = EtcdCheck(results)) {
    if (!a.contains("checks")) a["checks"] = nlohmann::json::object();
    a["checks"]["etcd"] = *etcd;
  }
}

}  // namespace disktune
