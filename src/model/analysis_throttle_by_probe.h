// The analyses' "throttle_by_probe": under --throttle, which probe family's
// bytes went through the throttle and which around it (the probe runner
// records it; probes/throttle_meter.h).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/model/throttle_accounting.h"

namespace disktune {

// One probe family's share of the run's accounting (all its rounds).
struct ProbeAccounting {
  std::string probe;  // the probe id: "seq_read", "fsync", ...
  int points = 0;     // points it ran (rounds included)
  ThrottleAccounting accounting;
};

struct ThrottleByProbe {
  static constexpr const char* kKey = "throttle_by_probe";
  std::vector<ProbeAccounting> probes;  // in run order
  // The shared test file's fill, before any probe ran; absent without one.
  std::optional<ThrottleAccounting> test_file_fill;

  // Adds `a` to `probe`'s entry (made at the end when new).
  void Add(const std::string& probe, int points, const ThrottleAccounting& a);
  // Every part: the probes' and the fill's.
  ThrottleAccounting Sum() const;
};
void to_json(nlohmann::json& j, const ThrottleByProbe& t);
void from_json(const nlohmann::json& j, ThrottleByProbe& t);

}  // namespace disktune
