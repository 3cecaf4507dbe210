#include "probes/sync_tables.h"

#include <set>

#include "probes/fsync_point.h"
#include "src/core/json_fields.h"
#include "src/model/fsync_names.h"

namespace disktune {

using namespace json_fields;  // NOLINT(google-build-using-namespace)

namespace {

SyncFigures Figures(const ProbeResult& r) {
  SyncFigures f;
  f.ops_per_sec = r.ops_per_sec;
  if (r.latency_ns) {
    f.p50_ns = r.latency_ns->p50;
    f.p99_ns = r.latency_ns->p99;
  }
  f.samples = r.samples;
  f.flushes_per_sync = Opt<double>(r.metrics, "flushes_per_sync");
  return f;
}

// A point of the family or a comparison, on the scratch directory or a
// filesystem of the matrix: which (filesystem, point) it is.
using PointId = std::pair<std::string, std::string>;

PointId IdOf(const ProbeResult& r) {
  return {r.params.filesystem, FsyncPointKey(r.params)};
}

}  // namespace

std::optional<WriteCacheAb> WriteCacheAbTable(
    const std::vector<ProbeResult>& results) {
  std::map<PointId, const ProbeResult*> as_found;
  for (const auto& r : results) {
    if (r.probe == "fsync" && r.params.write_cache == CacheState::kAsFound)
      as_found[IdOf(r)] = &r;
  }
  WriteCacheAb table;
  std::vector<WriteCacheAbRun>& runs = table.runs;
  std::map<std::string, size_t> run_of;  // filesystem -> index in runs
  for (const auto& r : results) {
    if (r.probe != "fsync") continue;
    std::string prefix = FsyncFamilyPrefix(r.params.filesystem);
    if (r.status == ProbeStatus::kSkipped &&
        r.params.variant == kVariantWriteCacheAb) {
      WriteCacheAbRun skipped;
      skipped.results = prefix;
      skipped.status = "skipped";
      skipped.reason = r.reason;
      runs.push_back(std::move(skipped));
      continue;
    }
    if (r.status != ProbeStatus::kOk ||
        r.params.write_cache == CacheState::kAsFound) {
      continue;
    }
    bool off = r.params.write_cache == CacheState::kOff;
    if (!run_of.count(r.params.filesystem)) {
      run_of[r.params.filesystem] = runs.size();
      WriteCacheAbRun run;
      run.results = prefix;
      run.status = "ok";
      run.switch_used = Str(r.params.extra, "write_cache_switch");
      run.switch_kind = Str(r.params.extra, "write_cache_switch_kind");
      run.as_found = off ? "on" : "off";
      run.switched_to = CacheStateName(r.params.write_cache);
      runs.push_back(std::move(run));
    }
    auto base = as_found.find(IdOf(r));
    if (base == as_found.end() || base->second->status != ProbeStatus::kOk)
      continue;
    const ProbeResult& on = off ? *base->second : r;
    const ProbeResult& cache_off = off ? r : *base->second;
    WriteCacheAbPoint p{FsyncPointKey(r.params), Figures(on),
                        Figures(cache_off), std::nullopt};
    if (on.latency_ns && cache_off.latency_ns && on.latency_ns->p50 > 0) {
      p.off_over_on_p50 = static_cast<double>(cache_off.latency_ns->p50) /
                          static_cast<double>(on.latency_ns->p50);
    }
    runs[run_of[r.params.filesystem]].points.push_back(std::move(p));
  }
  if (runs.empty()) return std::nullopt;
  return table;
}

std::optional<FsMatrix> FsMatrixTable(const std::vector<ProbeResult>& results) {
  FsMatrix m;
  std::set<std::string> seen;
  std::map<std::string, size_t> row_of;  // point -> index in m.points
  for (const auto& r : results) {
    const std::string& fs = r.params.filesystem;
    if (r.probe != "fsync" || fs.empty() ||
        r.params.variant == kVariantWriteCacheAb) {
      continue;
    }
    std::string key = FsyncPointKey(r.params);
    if (!seen.count(fs)) {
      seen.insert(fs);
      FsMatrixFilesystem f;
      f.filesystem = fs;
      if (r.status == ProbeStatus::kSkipped && key.empty()) {
        f.status = "skipped";
        f.reason = r.reason;
      } else {
        f.status = "ok";
        f.mount_options = Str(r.params.extra, "mount_options");
        f.device = Str(r.params.extra, "cache_device");
      }
      m.filesystems.push_back(std::move(f));
    }
    if (key.empty() || r.status != ProbeStatus::kOk ||
        r.params.write_cache != CacheState::kAsFound) {
      continue;
    }
    if (!row_of.count(key)) {
      row_of[key] = m.points.size();
      m.points.push_back({key, {}});
    }
    m.points[row_of[key]].by_filesystem[fs] = Figures(r);
  }
  if (m.filesystems.empty()) return std::nullopt;
  return m;
}

}  // namespace disktune
