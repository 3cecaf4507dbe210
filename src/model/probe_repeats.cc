#include "src/model/probe_repeats.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <string>

#include "src/core/order_stats.h"
#include "src/model/probe_result.h"

namespace disktune {
namespace {

using Getter = std::optional<double> (*)(const ProbeResult&);

std::optional<double> Iops(const ProbeResult& r) { return r.iops; }
std::optional<double> OpsPerSec(const ProbeResult& r) { return r.ops_per_sec; }
std::optional<double> BytesPerSec(const ProbeResult& r) {
  return r.bytes_per_sec;
}
std::optional<double> P50(const ProbeResult& r) {
  if (!r.latency_ns || r.latency_ns->samples == 0) return std::nullopt;
  return static_cast<double>(r.latency_ns->p50);
}
std::optional<double> P99(const ProbeResult& r) {
  if (!r.latency_ns || r.latency_ns->samples == 0) return std::nullopt;
  return static_cast<double>(r.latency_ns->p99);
}

// The figure set only when every round has it: a figure some rounds lack
// has no honest median.
std::optional<RoundStat> Collect(const std::vector<const ProbeResult*>& runs,
                                 Getter get) {
  std::vector<double> values;
  for (const ProbeResult* r : runs) {
    std::optional<double> v = get(*r);
    if (!v) return std::nullopt;
    values.push_back(*v);
  }
  return SummarizeRounds(values);
}

// The round whose throughput (or, without one, p50 latency) is the lower
// median: its result becomes the point's headline.
size_t MedianRound(const std::vector<const ProbeResult*>& runs) {
  for (Getter get : {Iops, OpsPerSec, BytesPerSec, P50}) {
    std::vector<double> values;
    for (const ProbeResult* r : runs) {
      std::optional<double> v = get(*r);
      if (!v) break;
      values.push_back(*v);
    }
    if (values.size() != runs.size()) continue;
    std::vector<size_t> idx(values.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(),
                     [&](size_t a, size_t b) { return values[a] < values[b]; });
    return idx[(idx.size() - 1) / 2];
  }
  return 0;
}

ProbeResult MergePoint(const std::vector<const ProbeResult*>& runs) {
  for (const ProbeResult* r : runs) {
    if (r->status != ProbeStatus::kOk) return *r;
  }
  ProbeResult out = *runs[MedianRound(runs)];
  ProbeRepeats rep;
  rep.count = static_cast<int>(runs.size());
  rep.iops = Collect(runs, Iops);
  rep.ops_per_sec = Collect(runs, OpsPerSec);
  rep.bytes_per_sec = Collect(runs, BytesPerSec);
  rep.latency_p50_ns = Collect(runs, P50);
  rep.latency_p99_ns = Collect(runs, P99);
  out.repeats = std::move(rep);
  return out;
}

}  // namespace

RoundStat SummarizeRounds(const std::vector<double>& values) {
  return SummaryOf<RoundStat>(values);
}

std::vector<ProbeResult> MergeRounds(
    const std::vector<std::vector<ProbeResult>>& rounds) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const ProbeResult*>> by_name;
  for (const auto& round : rounds) {
    for (const ProbeResult& r : round) {
      auto& runs = by_name[r.name];
      if (runs.empty()) order.push_back(r.name);
      runs.push_back(&r);
    }
  }
  std::vector<ProbeResult> out;
  out.reserve(order.size());
  for (const std::string& name : order)
    out.push_back(MergePoint(by_name[name]));
  return out;
}

void to_json(nlohmann::json& j, const RoundStat& s) {
  j = nlohmann::json{{"median", s.median},
                     {"min", s.min},
                     {"max", s.max},
                     {"values", s.values}};
}

void from_json(const nlohmann::json& j, RoundStat& s) {
  s.median = j.at("median").get<double>();
  s.min = j.at("min").get<double>();
  s.max = j.at("max").get<double>();
  s.values = j.value("values", std::vector<double>{});
}

void to_json(nlohmann::json& j, const ProbeRepeats& r) {
  j = nlohmann::json{{"count", r.count}};
  auto put = [&](const char* key, const std::optional<RoundStat>& s) {
    if (s) j[key] = *s;
  };
  put("iops", r.iops);
  put("ops_per_sec", r.ops_per_sec);
  put("bytes_per_sec", r.bytes_per_sec);
  put("latency_p50_ns", r.latency_p50_ns);
  put("latency_p99_ns", r.latency_p99_ns);
}

void from_json(const nlohmann::json& j, ProbeRepeats& r) {
  r.count = j.at("count").get<int>();
  auto get = [&](const char* key, std::optional<RoundStat>& s) {
    auto it = j.find(key);
    if (it != j.end() && !it->is_null()) s = it->get<RoundStat>();
  };
  get("iops", r.iops);
  get("ops_per_sec", r.ops_per_sec);
  get("bytes_per_sec", r.bytes_per_sec);
  get("latency_p50_ns", r.latency_p50_ns);
  get("latency_p99_ns", r.latency_p99_ns);
}

}  // namespace disktune
