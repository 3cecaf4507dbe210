#include "probes/rand_read_saturation.h"

namespace disktune {

void to_json(nlohmann::json& j, const RandReadSaturation& s) {
  j = nlohmann::json::object();
  j["rule"] = s.rule;
  j["queue_depth"] = s.queue_depth;
  j["iops"] = s.iops;
  if (s.latency_ns) j["latency_ns"] = *s.latency_ns;
  j["best_queue_depth"] = s.best_queue_depth;
  j["best_iops"] = s.best_iops;
}

void from_json(const nlohmann::json& j, RandReadSaturation& s) {
  s.rule = j.value("rule", "");
  s.queue_depth = j.value("queue_depth", 0);
  s.iops = j.value("iops", 0.0);
  s.latency_ns.reset();
  if (auto it = j.find("latency_ns"); it != j.end() && it->is_object())
    s.latency_ns = it->get<LatencySummary>();
  s.best_queue_depth = j.value("best_queue_depth", 0);
  s.best_iops = j.value("best_iops", 0.0);
}

std::optional<RandReadSaturation> FindSaturation(
    const std::vector<ProbeResult>& results) {
  auto usable = [](const ProbeResult& r) {
    return r.probe == "rand_read" && r.status == ProbeStatus::kOk && r.iops &&
           r.params.queue_depth;
  };
  const ProbeResult* best = nullptr;
  for (const auto& r : results) {
    if (usable(r) && (!best || *r.iops > *best->iops)) best = &r;
  }
  if (!best) return std::nullopt;
  const double threshold = 0.95 * *best->iops;
  const ProbeResult* sat = nullptr;
  for (const auto& r : results) {
    if (usable(r) && *r.iops >= threshold &&
        (!sat || *r.params.queue_depth < *sat->params.queue_depth)) {
      sat = &r;
    }
  }
  RandReadSaturation s;
  s.rule =
      "smallest queue depth whose IOPS reach 95% of the best measured IOPS";
  s.queue_depth = *sat->params.queue_depth;
  s.iops = *sat->iops;
  s.latency_ns = sat->latency_ns;
  s.best_queue_depth = *best->params.queue_depth;
  s.best_iops = *best->iops;
  return s;
}

std::optional<RandReadSaturation> FindRandReadSaturation(
    const nlohmann::json& analyses) {
  auto it = analyses.find(RandReadSaturation::kKey);
  if (it == analyses.end() || !it->is_object()) return std::nullopt;
  try {
    return it->get<RandReadSaturation>();
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

}  // namespace disktune
