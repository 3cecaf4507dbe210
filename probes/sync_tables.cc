#include "probes/sync_tables.h"

#include <set>

#include "probes/fsync_names.h"
#include "probes/fsync_point.h"
#include "src/core/json_fields.h"

namespace disktune {

using namespace json_fields;  // NOLINT(google-build-using-namespace)

void to_json(nlohmann::json& j, const SyncFigures& f) {
  j = nlohmann::json::object();
  PutOpt(j, "ops_per_sec", f.ops_per_sec);
  PutOpt(j, "p50_ns", f.p50_ns);
  PutOpt(j, "p99_ns", f.p99_ns);
  PutOpt(j, "samples", f.samples);
  PutOpt(j, "flushes_per_sync", f.flushes_per_sync);
}

void from_json(const nlohmann::json& j, SyncFigures& f) {
  f.ops_per_sec = Opt<double>(j, "ops_per_sec");
  f.p50_ns = Opt<uint64_t>(j, "p50_ns");
  f.p99_ns = Opt<uint64_t>(j, "p99_ns");
  f.samples = Opt<uint64_t>(j, "samples");
  f.flushes_per_sync = Opt<double>(j, "flushes_per_sync");
}

void to_json(nlohmann::json& j, const WriteCacheAbPoint& p) {
  j = {
      {"point", p.point}, {"cache_on", p.cache_on}, {"cache_off", p.cache_off}};
  PutOpt(j, "off_over_on_p50", p.off_over_on_p50);
}

void from_json(const nlohmann::json& j, WriteCacheAbPoint& p) {
  p.point = Str(j, "point");
  p.cache_on = Opt<SyncFigures>(j, "cache_on").value_or(SyncFigures{});
  p.cache_off = Opt<SyncFigures>(j, "cache_off").value_or(SyncFigures{});
  p.off_over_on_p50 = Opt<double>(j, "off_over_on_p50");
}

void to_json(nlohmann::json& j, const WriteCacheAbRun& r) {
  j = {{"results", r.results}, {"status", r.status}};
  if (r.status != "ok") {
    j["reason"] = r.reason;
    return;
  }
  j["switch"] = r.switch_used;
  j["switch_kind"] = r.switch_kind;
  j["as_found"] = r.as_found;
  j["switched_to"] = r.switched_to;
  j["points"] = r.points;
}

void from_json(const nlohmann::json& j, WriteCacheAbRun& r) {
  r.results = Str(j, "results");
  r.status = Str(j, "status");
  r.reason = Str(j, "reason");
  r.switch_used = Str(j, "switch");
  r.switch_kind = Str(j, "switch_kind");
  r.as_found = Str(j, "as_found");
  r.switched_to = Str(j, "switched_to");
  r.points = json_fields::List<WriteCacheAbPoint>(j, "points");
}

void to_json(nlohmann::json& j, const WriteCacheAb& a) {
  j = {{"runs", a.runs}};
}

void from_json(const nlohmann::json& j, WriteCacheAb& a) {
  a.runs = json_fields::List<WriteCacheAbRun>(j, "runs");
}

void to_json(nlohmann::json& j, const FsMatrixFilesystem& f) {
  j = {{"filesystem", f.filesystem}, {"status", f.status}};
  if (f.status == "ok") {
    j["mount_options"] = f.mount_options;
    j["device"] = f.device;
  } else {
    j["reason"] = f.reason;
  }
}

void from_json(const nlohmann::json& j, FsMatrixFilesystem& f) {
  f.filesystem = Str(j, "filesystem");
  f.status = Str(j, "status");
  f.reason = Str(j, "reason");
  f.mount_options = Str(j, "mount_options");
  f.device = Str(j, "device");
}

void to_json(nlohmann::json& j, const FsMatrixPoint& p) {
  j = {{"point", p.point}};
  for (const auto& [fs, figures] : p.by_filesystem) j[fs] = figures;
}

void from_json(const nlohmann::json& j, FsMatrixPoint& p) {
  p.point = Str(j, "point");
  p.by_filesystem.clear();
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() != "point" && it->is_object())
      p.by_filesystem[it.key()] = it->get<SyncFigures>();
  }
}

void to_json(nlohmann::json& j, const FsMatrix& m) {
  j = {{"filesystems", m.filesystems}, {"points", m.points}};
}

void from_json(const nlohmann::json& j, FsMatrix& m) {
  m.filesystems = json_fields::List<FsMatrixFilesystem>(j, "filesystems");
  m.points = json_fields::List<FsMatrixPoint>(j, "points");
}

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

std::optional<WriteCacheAb> WriteCacheAbOf(const nlohmann::json& analyses) {
  return json_fields::Find<WriteCacheAb>(analyses, WriteCacheAb::kKey);
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

std::optional<FsMatrix> FsMatrixOf(const nlohmann::json& analyses) {
  return json_fields::Find<FsMatrix>(analyses, FsMatrix::kKey);
}

}  // namespace disktune
