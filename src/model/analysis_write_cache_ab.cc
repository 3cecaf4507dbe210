#include "src/model/analysis_write_cache_ab.h"

#include "src/core/json_fields.h"

namespace disktune {

using namespace json_fields;  // NOLINT(google-build-using-namespace)

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

}  // namespace disktune
