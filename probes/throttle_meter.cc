#include "probes/throttle_meter.h"

#include "src/core/device_registry.h"

namespace disktune {
namespace {

DeviceRegistry<ThrottleMeter>& Meters() {
  static DeviceRegistry<ThrottleMeter> meters;
  return meters;
}

}  // namespace

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

std::optional<ThrottleByProbe> ThrottleByProbeOf(
    const nlohmann::json& analyses) {
  auto it = analyses.find(ThrottleByProbe::kKey);
  if (it == analyses.end() || !it->is_object()) return std::nullopt;
  try {
    return it->get<ThrottleByProbe>();
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

std::string ProbeAccountingLine(const ProbeAccounting& p) {
  return "throttle, " + p.probe + " (" + std::to_string(p.points) +
         (p.points == 1 ? " point" : " points") +
         "): " + DescribeAccounting(p.accounting);
}

std::string FillAccountingLine(const ThrottleAccounting& a) {
  return "throttle, test file fill: " + DescribeAccounting(a);
}

void SetThrottleMeter(dev_t dev, ThrottleMeter meter) {
  if (!meter) {
    Meters().Erase(dev);
  } else {
    Meters().Set(dev, std::move(meter));
  }
}

ThrottleMeter ThrottleMeterOfFd(int fd) { return Meters().GetOfFd(fd); }

}  // namespace disktune
