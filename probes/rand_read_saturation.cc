#include "probes/rand_read_saturation.h"

#include <algorithm>

namespace disktune {

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

}  // namespace disktune
