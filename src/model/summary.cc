#include "src/model/summary.h"

#include "src/core/json_fields.h"

namespace disktune {

using namespace json_fields;  // NOLINT(google-build-using-namespace)
using nlohmann::json;

const std::vector<ServiceGates>& Services() {
  static const std::vector<ServiceGates> k = {
      {"etcd", "etcd",
       "etcd fdatasyncs its WAL before acknowledging a raft entry; its "
       "documentation asks for an fdatasync p99 under 10 ms"},
      {"leveldb", "leveldb-wal",
       "LevelDB with sync writes appends each batch to its log and "
       "fdatasyncs it before Write returns"},
      {"rocksdb", "leveldb-wal",
       "RocksDB with sync writes appends each batch to its WAL and "
       "fdatasyncs it the same way"},
  };
  return k;
}

std::string ServiceList() {
  std::string out;
  for (const ServiceGates& s : Services())
    out += (out.empty() ? "" : ", ") + std::string(s.service);
  return out;
}

namespace {

json GateJson(const SummaryGate& g) {
  json j = {{"expression", g.expression}, {"outcome", g.outcome}};
  PutStr(j, "resolved", g.resolved);
  PutStr(j, "part", g.part);
  PutStr(j, "measured", g.measured);
  PutOpt(j, "value", g.value);
  PutOpt(j, "samples", g.samples);
  PutOpt(j, "samples_needed", g.samples_needed);
  PutStr(j, "detail", g.detail);
  return j;
}

SummaryGate GateFrom(const json& j) {
  SummaryGate g;
  g.expression = Str(j, "expression");
  g.outcome = Str(j, "outcome");
  g.resolved = Str(j, "resolved");
  g.part = Str(j, "part");
  g.measured = Str(j, "measured");
  g.value = Opt<double>(j, "value");
  g.samples = Opt<uint64_t>(j, "samples");
  g.samples_needed = Opt<uint64_t>(j, "samples_needed");
  g.detail = Str(j, "detail");
  return g;
}

}  // namespace

void to_json(json& j, const Summary& s) {
  j = json::object();
  j["service"] = s.service;
  j["service_from"] = s.service_from;
  j["gate_set"] = s.gate_set;
  j["verdict"] = s.verdict;
  j["headline"] = s.headline;
  j["gates_passed"] = s.gates_passed;
  j["gates_total"] = s.gates.size();
  j["gates"] = json::array();
  for (const SummaryGate& g : s.gates) j["gates"].push_back(GateJson(g));
  if (s.durability) {
    const SummaryDurability& d = *s.durability;
    json dj = {{"verdict", d.verdict}, {"title", d.title}};
    PutOpt(dj, "reaches_stable_storage", d.reaches_stable_storage);
    PutOpt(dj, "flushes_per_sync", d.flushes_per_sync);
    PutStr(dj, "disk", d.disk);
    PutOpt(dj, "volatile_cache", d.volatile_cache);
    j["durability"] = dj;
  }
  j["bounds"] = json::array();
  for (const SummaryBound& b : s.bounds) {
    j["bounds"].push_back(
        {{"engine", b.engine}, {"scenario", b.scenario}, {"bound", b.bound}});
  }
  json set = {{"action", s.set.action}, {"reason", s.set.reason}};
  PutStr(set, "profile_path", s.set.profile_path);
  if (!s.set.changes.empty()) set["changes"] = s.set.changes;
  j["set"] = set;
  json c = {{"cpu_count", s.conditions.cpu_count},
            {"busy_above_load", s.conditions.busy_above_load},
            {"busy", s.conditions.busy}};
  PutStr(c, "other_io", s.conditions.other_io);
  PutOpt(c, "load_average_1m_before", s.conditions.load_average_1m_before);
  PutOpt(c, "load_average_1m_after", s.conditions.load_average_1m_after);
  j["conditions"] = c;
}

void from_json(const json& j, Summary& s) {
  s.service = Str(j, "service");
  s.service_from = Str(j, "service_from");
  s.gate_set = Str(j, "gate_set");
  s.verdict = Str(j, "verdict");
  s.headline = Str(j, "headline");
  s.gates_passed = Opt<int>(j, "gates_passed").value_or(0);
  if (auto it = j.find("gates"); it != j.end() && it->is_array()) {
    for (const json& g : *it) {
      if (g.is_object()) s.gates.push_back(GateFrom(g));
    }
  }
  if (auto it = j.find("durability"); it != j.end() && it->is_object()) {
    SummaryDurability d;
    d.verdict = Str(*it, "verdict");
    d.title = Str(*it, "title");
    d.reaches_stable_storage = Opt<bool>(*it, "reaches_stable_storage");
    d.flushes_per_sync = Opt<double>(*it, "flushes_per_sync");
    d.disk = Str(*it, "disk");
    d.volatile_cache = Opt<bool>(*it, "volatile_cache");
    s.durability = d;
  }
  if (auto it = j.find("bounds"); it != j.end() && it->is_array()) {
    for (const json& b : *it) {
      if (!b.is_object()) continue;
      s.bounds.push_back(
          {Str(b, "engine"), Str(b, "scenario"), Str(b, "bound")});
    }
  }
  if (auto it = j.find("set"); it != j.end() && it->is_object()) {
    s.set.action = Str(*it, "action");
    s.set.reason = Str(*it, "reason");
    s.set.profile_path = Str(*it, "profile_path");
    if (auto c = it->find("changes"); c != it->end() && c->is_array()) {
      for (const json& e : *c) {
        if (e.is_string()) s.set.changes.push_back(e.get<std::string>());
      }
    }
  }
  if (auto it = j.find("conditions"); it != j.end() && it->is_object()) {
    SummaryConditions& c = s.conditions;
    c.cpu_count = Opt<int>(*it, "cpu_count").value_or(0);
    c.busy_above_load = Opt<double>(*it, "busy_above_load").value_or(0);
    c.busy = Opt<bool>(*it, "busy").value_or(false);
    c.other_io = Str(*it, "other_io");
    c.load_average_1m_before = Opt<double>(*it, "load_average_1m_before");
    c.load_average_1m_after = Opt<double>(*it, "load_average_1m_after");
  }
}

}  // namespace disktune
