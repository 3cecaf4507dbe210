#include "src/model/analysis_throttle_by_probe.h"

namespace disktune {

void ThrottleByProbe::Add(const std::string& probe, int points,
                          const ThrottleAccounting& a) {
  for (ProbeAccounting& p : probes) {
    if (p.probe != probe) continue;
    p.points += points;
    p.accounting = p.accounting + a;
    return;
  }
  probes.push_back({probe, points, a});
}

ThrottleAccounting ThrottleByProbe::Sum() const {
  ThrottleAccounting s = test_file_fill.value_or(ThrottleAccounting{});
  for (const ProbeAccounting& p : probes) s = s + p.accounting;
  return s;
}

void to_json(nlohmann::json& j, const ThrottleByProbe& t) {
  nlohmann::json probes = nlohmann::json::array();
  for (const ProbeAccounting& p : t.probes) {
    nlohmann::json e = p.accounting;
    e["probe"] = p.probe;
    e["points"] = p.points;
    probes.push_back(std::move(e));
  }
  j = {{"probes", probes}};
  if (t.test_file_fill) j["test_file_fill"] = *t.test_file_fill;
}

void from_json(const nlohmann::json& j, ThrottleByProbe& t) {
  t.probes.clear();
  for (const nlohmann::json& e : j.at("probes")) {
    ProbeAccounting p;
    p.probe = e.at("probe").get<std::string>();
    p.points = e.value("points", 0);
    p.accounting = e.get<ThrottleAccounting>();
    t.probes.push_back(std::move(p));
  }
  if (auto it = j.find("test_file_fill"); it != j.end() && it->is_object())
    t.test_file_fill = it->get<ThrottleAccounting>();
}

}  // namespace disktune
