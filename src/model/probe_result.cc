#include "src/model/probe_result.h"

#include "src/core/enum_names.h"
#include "src/core/json_fields.h"
#include "src/model/legacy_names.h"

namespace disktune {
namespace {

void GetStr(const nlohmann::json& j, const char* key, std::string& v) {
  auto it = j.find(key);
  if (it != j.end()) v = it->get<std::string>();
}

constexpr EnumName<CacheState> kCacheStateNames[] = {
    {CacheState::kOn, "on"},
    {CacheState::kOff, "off"},
    {CacheState::kAsFound, "as_found"},
};

constexpr EnumName<ProbeStatus> kProbeStatusNames[] = {
    {ProbeStatus::kOk, "ok"},
    {ProbeStatus::kSkipped, "skipped"},
    {ProbeStatus::kFailed, "failed"},
};

constexpr EnumName<MeasuredBy> kMeasuredByNames[] = {
    {MeasuredBy::kNative, "native"},
    {MeasuredBy::kFio, "fio"},
};

}  // namespace

const char* CacheStateName(CacheState s) {
  return NameOf(kCacheStateNames, s, "as_found");
}

const char* ProbeStatusName(ProbeStatus s) {
  return NameOf(kProbeStatusNames, s, "failed");
}

const char* MeasuredByName(MeasuredBy m) {
  return NameOf(kMeasuredByNames, m, "native");
}

std::optional<MeasuredBy> ParseMeasuredBy(const std::string& name) {
  return ParseName(kMeasuredByNames, name);
}

ProbeResult ProbeResult::Skipped(std::string probe, std::string name,
                                 std::string reason) {
  ProbeResult r;
  r.probe = std::move(probe);
  r.name = std::move(name);
  r.status = ProbeStatus::kSkipped;
  r.reason = std::move(reason);
  return r;
}

ProbeResult ProbeResult::Failed(std::string probe, std::string name,
                                std::string error) {
  ProbeResult r;
  r.probe = std::move(probe);
  r.name = std::move(name);
  r.status = ProbeStatus::kFailed;
  r.error = std::move(error);
  return r;
}

void to_json(nlohmann::json& j, const ProbeParams& p) {
  j = nlohmann::json::object();
  PutOpt(j, "block_size_bytes", p.block_size_bytes);
  PutOpt(j, "queue_depth", p.queue_depth);
  PutStr(j, "pattern", p.pattern);
  PutOpt(j, "direct", p.direct);
  PutOpt(j, "file_size_bytes", p.file_size_bytes);
  PutOpt(j, "duration_ns", p.duration_ns);
  PutOpt(j, "warmup_ns", p.warmup_ns);
  PutStr(j, "io_engine", p.io_engine);
  PutStr(j, "method", p.method);
  if (p.writes_per_op != 1) j["writes_per_op"] = p.writes_per_op;
  if (p.write_cache != CacheState::kAsFound)
    j["write_cache"] = CacheStateName(p.write_cache);
  PutStr(j, "filesystem", p.filesystem);
  PutStr(j, "variant", p.variant);
  for (auto it = p.extra.begin(); it != p.extra.end(); ++it)
    j[it.key()] = it.value();
}

void from_json(const nlohmann::json& j, ProbeParams& p) {
  static const char* kKnown[] = {
      "block_size_bytes", "queue_depth",   "pattern",     "direct",
      "file_size_bytes",  "duration_ns",   "warmup_ns",   "io_engine",
      "method",           "writes_per_op", "write_cache", "filesystem",
      "variant"};
  GetIf(j, "block_size_bytes", &p.block_size_bytes);
  GetIf(j, "queue_depth", &p.queue_depth);
  GetStr(j, "pattern", p.pattern);
  GetIf(j, "direct", &p.direct);
  GetIf(j, "file_size_bytes", &p.file_size_bytes);
  GetIf(j, "duration_ns", &p.duration_ns);
  GetIf(j, "warmup_ns", &p.warmup_ns);
  GetStr(j, "io_engine", p.io_engine);
  GetStr(j, "method", p.method);
  p.writes_per_op = j.value("writes_per_op", 1);
  std::string cache = j.value("write_cache", "");
  p.write_cache = cache == "on"    ? CacheState::kOn
                  : cache == "off" ? CacheState::kOff
                                   : CacheState::kAsFound;
  GetStr(j, "filesystem", p.filesystem);
  GetStr(j, "variant", p.variant);
  p.extra = nlohmann::json::object();
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool known = false;
    for (const char* k : kKnown) known |= it.key() == k;
    if (!known) p.extra[it.key()] = it.value();
  }
}

void to_json(nlohmann::json& j, const FioComparison& f) {
  j = nlohmann::json{{"status", f.status}};
  PutStr(j, "reason", f.reason);
  PutStr(j, "command", f.command);
  PutOpt(j, "iops", f.iops);
  PutOpt(j, "bytes_per_sec", f.bytes_per_sec);
  PutOpt(j, "latency_ns", f.latency_ns);
  PutOpt(j, "samples", f.samples);
  PutOpt(j, "bytes", f.bytes);
  PutOpt(j, "elapsed_ns", f.elapsed_ns);
  PutOpt(j, "context_switches", f.context_switches);
  nlohmann::json ratio = nlohmann::json::object();
  PutOpt(ratio, "iops", f.iops_ratio);
  PutOpt(ratio, "bytes_per_sec", f.bytes_per_sec_ratio);
  PutOpt(ratio, "latency_p50", f.latency_p50_ratio);
  PutOpt(ratio, "latency_p99", f.latency_p99_ratio);
  if (!ratio.empty()) j["native_over_fio"] = ratio;
}

void from_json(const nlohmann::json& j, FioComparison& f) {
  GetStr(j, "status", f.status);
  GetStr(j, "reason", f.reason);
  GetStr(j, "command", f.command);
  GetIf(j, "iops", &f.iops);
  GetIf(j, "bytes_per_sec", &f.bytes_per_sec);
  GetIf(j, "latency_ns", &f.latency_ns);
  GetIf(j, "samples", &f.samples);
  GetIf(j, "bytes", &f.bytes);
  GetIf(j, "elapsed_ns", &f.elapsed_ns);
  GetIf(j, "context_switches", &f.context_switches);
  if (auto it = j.find("native_over_fio"); it != j.end()) {
    GetIf(*it, "iops", &f.iops_ratio);
    GetIf(*it, "bytes_per_sec", &f.bytes_per_sec_ratio);
    GetIf(*it, "latency_p50", &f.latency_p50_ratio);
    GetIf(*it, "latency_p99", &f.latency_p99_ratio);
  }
}

void to_json(nlohmann::json& j, const ProbeResult& r) {
  j = nlohmann::json{{"probe", r.probe},
                     {"name", r.name},
                     {"params", r.params},
                     {"status", ProbeStatusName(r.status)}};
  PutStr(j, "reason", r.reason);
  PutStr(j, "error", r.error);
  if (r.measured_by) j["measured_by"] = MeasuredByName(*r.measured_by);
  PutStr(j, "measured_by_reason", r.measured_by_reason);
  PutOpt(j, "iops", r.iops);
  PutOpt(j, "ops_per_sec", r.ops_per_sec);
  PutOpt(j, "bytes_per_sec", r.bytes_per_sec);
  PutOpt(j, "latency_ns", r.latency_ns);
  PutOpt(j, "samples", r.samples);
  PutOpt(j, "bytes", r.bytes);
  PutOpt(j, "elapsed_ns", r.elapsed_ns);
  if (!r.metrics.empty()) j["metrics"] = r.metrics;
  PutOpt(j, "fio", r.fio);
  PutOpt(j, "repeats", r.repeats);
}

void from_json(const nlohmann::json& j, ProbeResult& r) {
  r.probe = j.at("probe").get<std::string>();
  r.name = j.at("name").get<std::string>();
  if (auto it = j.find("params"); it != j.end())
    r.params = it->get<ProbeParams>();
  FillParamsFromLegacyName(&r);
  std::string st = j.at("status").get<std::string>();
  r.status = st == "ok"        ? ProbeStatus::kOk
             : st == "skipped" ? ProbeStatus::kSkipped
                               : ProbeStatus::kFailed;
  GetStr(j, "reason", r.reason);
  GetStr(j, "error", r.error);
  if (auto it = j.find("measured_by"); it != j.end() && it->is_string())
    r.measured_by = ParseMeasuredBy(it->get<std::string>());
  GetStr(j, "measured_by_reason", r.measured_by_reason);
  GetIf(j, "iops", &r.iops);
  GetIf(j, "ops_per_sec", &r.ops_per_sec);
  GetIf(j, "bytes_per_sec", &r.bytes_per_sec);
  GetIf(j, "latency_ns", &r.latency_ns);
  GetIf(j, "samples", &r.samples);
  GetIf(j, "bytes", &r.bytes);
  GetIf(j, "elapsed_ns", &r.elapsed_ns);
  if (auto it = j.find("metrics"); it != j.end()) r.metrics = *it;
  GetIf(j, "fio", &r.fio);
  GetIf(j, "repeats", &r.repeats);
}

}  // namespace disktune
