// What a throttled run's bytes did: how many reached the device and how many
// of them the cgroup throttle was charged with. Recorded for the whole run
// (the environment's throttle record) and per probe family (the analyses'
// "throttle_by_probe").
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>

namespace disktune {

// Bytes that reached the throttled device, and the share of them the
// cgroup was charged with (what the throttle saw). escaped = device - charged.
struct ThrottleAccounting {
  uint64_t device_read_bytes = 0, device_write_bytes = 0;
  uint64_t charged_read_bytes = 0, charged_write_bytes = 0;
  uint64_t EscapedBytes() const;
  // Escaped bytes over device bytes; nullopt when nothing reached the device.
  std::optional<double> EscapedShare() const;
  ThrottleAccounting operator-(const ThrottleAccounting& before) const;
  ThrottleAccounting operator+(const ThrottleAccounting& other) const;
};
void to_json(nlohmann::json& j, const ThrottleAccounting& a);
void from_json(const nlohmann::json& j, ThrottleAccounting& a);

}  // namespace disktune
