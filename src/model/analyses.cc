#include "src/model/analyses.h"

#include <string>
#include <type_traits>

#include "src/core/json_input.h"

namespace disktune::model {
namespace {

using json = nlohmann::json;

// Each kind's member and its key, the one place both meet. `A` is Analyses
// or const Analyses.
template <typename A, typename Fn>
void ForEachKind(A& a, Fn&& fn) {
  fn(ThrottleByProbe::kKey, a.throttle_by_probe);
  fn(kMemoryBudgetKey, a.memory_budget);
  fn(RandReadSaturation::kKey, a.rand_read_saturation);
  fn(PageCacheCheck::kKey, a.page_cache);
  fn(Findings2011Check::kKey, a.leveldb_2011);
  fn(DurabilityFindings::kKey, a.durability);
  fn(WriteCacheViews::kKey, a.write_cache);
  fn(kChecksKey, a.checks);
  fn(WriteCacheAb::kKey, a.write_cache_ab);
  fn(FsMatrix::kKey, a.fs_matrix);
  fn(BytesWritten::kKey, a.bytes_written);
}

// Why `j` cannot be a T, before its from_json reads it; nullptr when it can.
// Every kind is an object; "checks" is an object of named checks, each one
// an object.
template <typename T>
const char* NotItsShape(const json& j, const T*) {
  return j.is_object() ? nullptr : "not an object";
}
const char* NotItsShape(const json& j, const NamedChecks*) {
  if (!j.is_object()) return "not an object";
  for (const json& c : j) {
    if (!c.is_object()) return "a check that is not an object";
  }
  return nullptr;
}

}  // namespace

void Analyses::PutCheck(const std::string& name, const NamedCheck& c) {
  if (!checks) checks.emplace();
  (*checks)[name] = c;
}

json AnalysesToJson(const Analyses& a) {
  json j = a.unknown.is_object() ? a.unknown : json::object();
  ForEachKind(a, [&j](const char* key, const auto& v) {
    if (v) j[key] = *v;
  });
  return j;
}

Result<Analyses> AnalysesFromJson(const json& j) {
  if (!j.is_object()) return Status::Corruption("analyses is not an object");
  Analyses a;
  Status bad;
  ForEachKind(a, [&j, &bad](const char* key, auto& v) {
    auto it = j.find(key);
    if (!bad.ok() || it == j.end()) return;
    using T = typename std::decay_t<decltype(v)>::value_type;
    if (const char* why = NotItsShape(*it, static_cast<const T*>(nullptr))) {
      bad = Status::Corruption(std::string("analyses.") + key +
                               " does not have its kind's shape: " + why);
      return;
    }
    try {
      v = it->template get<T>();
    } catch (const json::exception& e) {
      bad = Status::Corruption(
          std::string("analyses.") + key +
          " does not have its kind's shape: " + DescribeJsonError(e));
    }
  });
  if (!bad.ok()) return bad;
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool known = false;
    ForEachKind(a, [&](const char* key, auto&) { known |= it.key() == key; });
    if (!known) a.unknown[it.key()] = it.value();
  }
  return a;
}

}  // namespace disktune::model
