#include "src/model/analysis_durability.h"

#include "src/core/json_fields.h"

namespace disktune {

using namespace json_fields;  // NOLINT(google-build-using-namespace)

std::optional<double> DurabilityEvidence::flushes_per_sync() const {
  if (!flushes || syncs == 0) return std::nullopt;
  return static_cast<double>(*flushes) / static_cast<double>(syncs);
}

void to_json(nlohmann::json& j, const DurabilityEvidence& e) {
  j = nlohmann::json::object();
  PutOpt(j, "rotational", e.rotational);
  if (!e.kernel_write_cache.empty())
    j["kernel_write_cache"] = e.kernel_write_cache;
  PutOpt(j, "drive_cache_enabled", e.drive_cache_enabled);
  j["syncs"] = e.syncs;
  PutOpt(j, "flushes", e.flushes);
  PutOpt(j, "flushes_per_sync", e.flushes_per_sync());
  if (e.fastest_sync_p50_ns) {
    j["fastest_sync_p50_ns"] = *e.fastest_sync_p50_ns;
    j["fastest_point"] = e.fastest_point;
  }
}

void from_json(const nlohmann::json& j, DurabilityEvidence& e) {
  e.rotational = Opt<bool>(j, "rotational");
  e.kernel_write_cache = Str(j, "kernel_write_cache");
  e.drive_cache_enabled = Opt<bool>(j, "drive_cache_enabled");
  e.syncs = Opt<uint64_t>(j, "syncs").value_or(0);
  e.flushes = Opt<uint64_t>(j, "flushes");
  e.fastest_sync_p50_ns = Opt<uint64_t>(j, "fastest_sync_p50_ns");
  e.fastest_point = Str(j, "fastest_point");
}

void to_json(nlohmann::json& j, const DurabilityVerdict& v) {
  j = {{"id", v.id}, {"rule", v.rule}};
}

void from_json(const nlohmann::json& j, DurabilityVerdict& v) {
  v.id = Str(j, "id");
  v.rule = Str(j, "rule");
}

bool ScopeVerdict::good() const {
  return verdict.id == "flushes_reach_device" ||
         verdict.id == "power_loss_protection_likely";
}

void to_json(nlohmann::json& j, const ScopeVerdict& v) {
  j = {{"scope", v.scope},
       {"disk", v.disk},
       {"verdict", v.verdict.id},
       {"rule", v.verdict.rule}};
  if (v.evidence) j["evidence"] = *v.evidence;
}

void from_json(const nlohmann::json& j, ScopeVerdict& v) {
  v.scope = Str(j, "scope");
  v.disk = Str(j, "disk");
  v.verdict = {Str(j, "verdict"), Str(j, "rule")};
  v.evidence.reset();
  if (auto e = j.find("evidence"); e != j.end() && e->is_object()) {
    v.evidence = e->get<DurabilityEvidence>();
    v.evidence->scope = v.scope;
    v.evidence->disk = v.disk;
  }
}

void to_json(nlohmann::json& j, const DurabilityFindings& d) {
  j = {{"rules", d.rules}, {"verdicts", d.verdicts}};
}

void from_json(const nlohmann::json& j, DurabilityFindings& d) {
  d.rules = json_fields::List<DurabilityVerdict>(j, "rules");
  d.verdicts = json_fields::List<ScopeVerdict>(j, "verdicts");
}

}  // namespace disktune
