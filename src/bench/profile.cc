#include "src/bench/profile.h"

#include <cerrno>
#include <fstream>
#include <set>
#include <sstream>

#include "src/core/json_input.h"
#include "src/model/knob_spec.h"

namespace disktune::bench {
namespace {

Status CheckKeys(const nlohmann::json& j, const std::set<std::string>& allowed,
                 const std::string& where) {
  if (!j.is_object())
    return Status::InvalidArgument(where + " must be an object");
  for (const auto& [k, v] : j.items()) {
    if (!allowed.count(k)) {
      std::string list;
      for (const std::string& a : allowed)
        list += (list.empty() ? "" : ", ") + a;
      return Status::InvalidArgument(where + ": unknown key '" + k +
                                     "'; known: " + list);
    }
  }
  return Status::OK();
}

template <typename T>
Status Get(const nlohmann::json& j, const char* key, std::optional<T>* out,
           const std::string& where) {
  auto it = j.find(key);
  if (it == j.end()) return Status::OK();
  bool ok = std::is_same_v<T, bool>     ? it->is_boolean()
            : std::is_same_v<T, double> ? it->is_number()
                                        : it->is_number_integer();
  if (!ok) {
    return Status::InvalidArgument(where + "." + key + " has the wrong type");
  }
  *out = it->get<T>();
  return Status::OK();
}

}  // namespace

Result<BenchProfile> ParseBenchProfile(const nlohmann::json& j) {
  DT_RETURN_IF_ERROR(CheckKeys(j,
                               {"profile_version", "name", "description",
                                "engine", "engine_options", "workload"},
                               "profile"));
  if (!j.contains("profile_version") ||
      !j["profile_version"].is_number_integer() ||
      j["profile_version"].get<int>() != kProfileVersion) {
    return Status::InvalidArgument("profile: profile_version must be " +
                                   std::to_string(kProfileVersion));
  }
  BenchProfile p;
  if (j.contains("name") && j["name"].is_string()) p.name = j["name"];
  if (j.contains("engine")) {
    if (!j["engine"].is_string()) {
      return Status::InvalidArgument("profile.engine must be a string");
    }
    p.engine = j["engine"].get<std::string>();
  }
  Overrides& o = p.overrides;
  if (j.contains("engine_options")) {
    const nlohmann::json& e = j["engine_options"];
    const std::string w = "profile.engine_options";
    std::set<std::string> keys = {"in_memory", "sync"};
    for (const KnobSpec& k : Knobs()) keys.emplace(k.json_key);
    DT_RETURN_IF_ERROR(CheckKeys(e, keys, w));
    DT_RETURN_IF_ERROR(KnobsFromJson(e, w, &o.knobs));
    DT_RETURN_IF_ERROR(Get(e, "in_memory", &o.in_memory, w));
    DT_RETURN_IF_ERROR(Get(e, "sync", &o.sync, w));
  }
  if (j.contains("workload")) {
    const nlohmann::json& wl = j["workload"];
    const std::string w = "profile.workload";
    DT_RETURN_IF_ERROR(CheckKeys(
        wl,
        {"scenarios", "num", "reads", "writes", "threads", "value_size_bytes",
         "key_size_bytes", "compression_ratio", "seed"},
        w));
    if (wl.contains("scenarios")) {
      if (!wl["scenarios"].is_array()) {
        return Status::InvalidArgument(w + ".scenarios must be a list");
      }
      for (const auto& s : wl["scenarios"]) {
        if (!s.is_string()) {
          return Status::InvalidArgument(w + ".scenarios must hold names");
        }
        p.scenarios.push_back(s.get<std::string>());
      }
    }
    DT_RETURN_IF_ERROR(Get(wl, "num", &o.num, w));
    DT_RETURN_IF_ERROR(Get(wl, "reads", &o.reads, w));
    DT_RETURN_IF_ERROR(Get(wl, "writes", &o.writes, w));
    DT_RETURN_IF_ERROR(Get(wl, "threads", &o.threads, w));
    DT_RETURN_IF_ERROR(Get(wl, "value_size_bytes", &o.value_size, w));
    DT_RETURN_IF_ERROR(Get(wl, "key_size_bytes", &o.key_size, w));
    DT_RETURN_IF_ERROR(Get(wl, "compression_ratio", &o.compression_ratio, w));
    DT_RETURN_IF_ERROR(Get(wl, "seed", &o.seed, w));
  }
  DT_RETURN_IF_ERROR(ValidateOverrides(o).WithContext("profile"));
  return p;
}

Result<BenchProfile> ReadBenchProfile(const std::string& path) {
  Result<nlohmann::json> j = ReadJsonInput(path, "--profile");
  if (!j.ok()) return j.status();
  auto p =
      GuardJson("--profile " + path, [&] { return ParseBenchProfile(*j); });
  if (!p.ok()) return p.status().WithContext("--profile " + path);
  return p;
}

}  // namespace disktune::bench
