#include "src/model/sync_method.h"

namespace disktune {
namespace {

struct MethodName {
  SyncMethod method;
  const char* name;
};
constexpr MethodName kMethodNames[] = {
    {SyncMethod::kFsync, "fsync"},
    {SyncMethod::kFdatasync, "fdatasync"},
    {SyncMethod::kODsync, "o_dsync"},
    {SyncMethod::kOSync, "o_sync"},
    {SyncMethod::kODirectDsync, "o_direct_dsync"},
    {SyncMethod::kUringFdatasync, "io_uring_fdatasync"},
    {SyncMethod::kNone, "none"},
};

}  // namespace

const char* SyncMethodName(SyncMethod m) {
  for (const auto& mn : kMethodNames) {
    if (mn.method == m) return mn.name;
  }
  return "none";
}

std::optional<SyncMethod> ParseSyncMethod(std::string_view name) {
  for (const auto& mn : kMethodNames) {
    if (name == mn.name) return mn.method;
  }
  return std::nullopt;
}

const std::vector<SyncMethod>& DurableSyncMethods() {
  static const std::vector<SyncMethod> kAll = {
      SyncMethod::kFsync,        SyncMethod::kFdatasync,
      SyncMethod::kODsync,       SyncMethod::kOSync,
      SyncMethod::kODirectDsync, SyncMethod::kUringFdatasync};
  return kAll;
}

bool MethodAlwaysFlushes(SyncMethod m) {
  return m != SyncMethod::kODirectDsync && m != SyncMethod::kNone;
}

}  // namespace disktune
