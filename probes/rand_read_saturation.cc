#include "probes/rand_read_saturation.h"

#include <algorithm>

namespace disktune {

void to_json(nlohmann::json& j, const RandReadSaturation& s) {
  j = nlohmann::json::object();
  j["rule"] = s.rule;
  j["queue_depth"] = s.queue_depth;
  j["iops"] = s.iops;
  if (s.latency_ns) j["latency_ns"] = *s.latency_ns;
  j["best_queue_depth"] = s.best_queue_depth;
  j["best_iops"] = s.best_iops;
  if (s.knee_queue_depth) {
    j["knee_queue_depth"] = *s.knee_queue_depth;
    if (s.knee_iops) j["knee_iops"] = *s.knee_iops;
    if (s.knee_p99_ns) j["knee_p99_ns"] = *s.knee_p99_ns;
    j["knee_rule"] = s.knee_rule;
  }
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
  s.knee_queue_depth.reset();
  s.knee_iops.reset();
  s.knee_p99_ns.reset();
  if (auto it = j.find("knee_queue_depth"); it != j.end() && it->is_number()) {
    s.knee_queue_depth = it->get<int>();
    if (auto k = j.find("knee_iops"); k != j.end() && k->is_number())
      s.knee_iops = k->get<double>();
    if (auto k = j.find("knee_p99_ns"); k != j.end() && k->is_number())
      s.knee_p99_ns = k->get<uint64_t>();
    s.knee_rule = j.value("knee_rule", "");
  }
}

namespace {

// The knee over the usable points in ascending queue depth.
void FindKnee(std::vector<const ProbeResult*> points, RandReadSaturation* s) {
  std::sort(points.begin(), points.end(),
            [](const ProbeResult* a, const ProbeResult* b) {
              return *a->params.queue_depth < *b->params.queue_depth;
            });
  if (points.empty()) return;
  size_t knee = points.size() - 1;
  for (size_t i = 0; i + 1 < points.size(); i++) {
    const ProbeResult& here = *points[i];
    const ProbeResult& next = *points[i + 1];
    bool small_gain = *next.iops < *here.iops * (1 + kKneeMinGain);
    bool p99_doubles =
        here.latency_ns && next.latency_ns && here.latency_ns->p99 > 0 &&
        static_cast<double>(next.latency_ns->p99) >=
            kKneeP99Factor * static_cast<double>(here.latency_ns->p99);
    if (small_gain || p99_doubles) {
      knee = i;
      break;
    }
  }
  const ProbeResult& k = *points[knee];
  s->knee_queue_depth = *k.params.queue_depth;
  s->knee_iops = *k.iops;
  if (k.latency_ns) s->knee_p99_ns = k.latency_ns->p99;
  s->knee_rule =
      "the queue depth past which the next measured depth gains less than "
      "10% IOPS or doubles the p99 (the deepest measured when every step "
      "gains)";
}

}  // namespace

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
  std::vector<const ProbeResult*> points;
  for (const auto& r : results) {
    if (usable(r)) points.push_back(&r);
  }
  FindKnee(points, &s);
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
