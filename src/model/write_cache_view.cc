#include "src/model/write_cache_view.h"

#include "src/core/json_fields.h"

namespace disktune {

void to_json(nlohmann::json& j, const WriteCacheView& v) {
  j = nlohmann::json{{"disk", v.disk}};
  if (!v.kernel_view.empty()) j["kernel_view"] = v.kernel_view;
  if (v.fua) j["fua"] = *v.fua;
  nlohmann::json d = nlohmann::json::object();
  if (!v.drive.source.empty()) d["source"] = v.drive.source;
  if (v.drive.enabled) d["enabled"] = *v.drive.enabled;
  if (v.drive.volatile_cache_present) {
    d["volatile_cache_present"] = *v.drive.volatile_cache_present;
  }
  if (!v.drive.raw.empty()) d["raw"] = v.drive.raw;
  if (!v.drive.note.empty()) d["note"] = v.drive.note;
  d["switchable"] = v.drive.switchable;
  j["drive"] = d;
}

void from_json(const nlohmann::json& j, WriteCacheView& v) {
  using json_fields::Opt;
  using json_fields::Str;
  v.disk = Str(j, "disk");
  v.kernel_view = Str(j, "kernel_view");
  v.fua = Opt<bool>(j, "fua");
  auto d = j.find("drive");
  if (d == j.end() || !d->is_object()) return;
  v.drive.source = Str(*d, "source");
  v.drive.enabled = Opt<bool>(*d, "enabled");
  v.drive.volatile_cache_present = Opt<bool>(*d, "volatile_cache_present");
  v.drive.raw = Str(*d, "raw");
  v.drive.note = Str(*d, "note");
  v.drive.switchable = Opt<bool>(*d, "switchable").value_or(false);
}

}  // namespace disktune
