#include "src/model/legacy_names.h"

#include <string>
#include <string_view>

namespace disktune {

void FillParamsFromLegacyName(ProbeResult* r) {
  if (r->probe != "fsync") return;
  std::string_view name = r->name;
  ProbeParams& p = r->params;
  constexpr std::string_view kFs = "fsync.fs.";
  std::string_view rest;  // the name after its "fsync.[fs.<fs>.]" prefix
  if (name.starts_with(kFs)) {
    std::string_view tail = name.substr(kFs.size());
    size_t dot = tail.find('.');
    if (p.filesystem.empty()) p.filesystem = std::string(tail.substr(0, dot));
    rest = dot == std::string_view::npos ? "" : tail.substr(dot + 1);
  } else if (name.starts_with("fsync.")) {
    rest = name.substr(6);
  }
  if (p.write_cache == CacheState::kAsFound) {
    if (rest.starts_with("cache_off.")) p.write_cache = CacheState::kOff;
    if (rest.starts_with("cache_on.")) p.write_cache = CacheState::kOn;
  }
  if (!p.variant.empty()) return;
  if (rest.starts_with("pg.") || rest.starts_with("fillsync.")) {
    p.variant = std::string(rest);
  } else if (name.ends_with(".write_cache_ab")) {
    p.variant = kVariantWriteCacheAb;
  }
}

}  // namespace disktune
