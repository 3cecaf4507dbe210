#include "probes/durability_findings.h"

#include <algorithm>

#include "src/core/json_fields.h"

namespace disktune {

using namespace json_fields;  // NOLINT(google-build-using-namespace)

std::optional<DurabilityFindings> JudgeScopes(
    const std::vector<ProbeResult>& results) {
  std::vector<DurabilityEvidence> evidence = CollectDurabilityEvidence(results);
  if (evidence.empty()) return std::nullopt;
  DurabilityFindings d;
  for (const auto& r : DurabilityRules()) d.rules.push_back({r.id, r.rule});
  for (const auto& e : evidence)
    d.verdicts.push_back({e.scope, e.disk, JudgeDurability(e), e});
  return d;
}

std::optional<WriteCacheViews> ReadScratchWriteCaches(
    const std::vector<ProbeResult>& results) {
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
  if (disks.empty()) return std::nullopt;
  WriteCacheViews w;
  for (const auto& d : disks) w.devices.push_back(ReadWriteCacheView(d));
  return w;
}

}  // namespace disktune
