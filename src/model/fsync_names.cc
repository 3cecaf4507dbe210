#include "src/model/fsync_names.h"

namespace disktune {

std::string FsyncFamilyKey(SyncMethod method, uint64_t write_bytes,
                           FileMode mode) {
  return std::string(SyncMethodName(method)) + "." +
         std::to_string(write_bytes) + "." + FileModeName(mode);
}

std::string FsyncFamilyPrefix(const std::string& filesystem) {
  return filesystem.empty() ? "fsync" : "fsync.fs." + filesystem;
}

std::string FsyncPointKey(const ProbeParams& p) {
  if (!p.variant.empty()) return p.variant;
  if (p.method.empty() || !p.block_size_bytes || p.pattern.empty()) return "";
  return p.method + "." + std::to_string(*p.block_size_bytes) + "." + p.pattern;
}

std::string FsyncResultSuffix(const ProbeParams& p) {
  std::string out;
  auto add = [&out](const std::string& part) {
    if (part.empty()) return;
    out += (out.empty() ? "" : ".") + part;
  };
  if (!p.filesystem.empty()) add("fs." + p.filesystem);
  if (p.write_cache != CacheState::kAsFound)
    add(std::string("cache_") + CacheStateName(p.write_cache));
  add(FsyncPointKey(p));
  return out;
}

}  // namespace disktune
