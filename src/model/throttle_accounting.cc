#include "src/model/throttle_accounting.h"

namespace disktune {

uint64_t ThrottleAccounting::EscapedBytes() const {
  uint64_t dev = device_read_bytes + device_write_bytes;
  uint64_t charged = charged_read_bytes + charged_write_bytes;
  return dev > charged ? dev - charged : 0;
}

std::optional<double> ThrottleAccounting::EscapedShare() const {
  uint64_t dev = device_read_bytes + device_write_bytes;
  if (dev == 0) return std::nullopt;
  return static_cast<double>(EscapedBytes()) / static_cast<double>(dev);
}

ThrottleAccounting ThrottleAccounting::operator-(
    const ThrottleAccounting& b) const {
  auto sub = [](uint64_t x, uint64_t y) { return x > y ? x - y : 0; };
  return {sub(device_read_bytes, b.device_read_bytes),
          sub(device_write_bytes, b.device_write_bytes),
          sub(charged_read_bytes, b.charged_read_bytes),
          sub(charged_write_bytes, b.charged_write_bytes)};
}

ThrottleAccounting ThrottleAccounting::operator+(
    const ThrottleAccounting& b) const {
  return {device_read_bytes + b.device_read_bytes,
          device_write_bytes + b.device_write_bytes,
          charged_read_bytes + b.charged_read_bytes,
          charged_write_bytes + b.charged_write_bytes};
}

void to_json(nlohmann::json& j, const ThrottleAccounting& a) {
  j = {{"device_read_bytes", a.device_read_bytes},
       {"device_write_bytes", a.device_write_bytes},
       {"charged_read_bytes", a.charged_read_bytes},
       {"charged_write_bytes", a.charged_write_bytes},
       {"escaped_bytes", a.EscapedBytes()}};
  if (auto s = a.EscapedShare()) j["escaped_share"] = *s;
}

void from_json(const nlohmann::json& j, ThrottleAccounting& a) {
  a.device_read_bytes = j.value("device_read_bytes", uint64_t{0});
  a.device_write_bytes = j.value("device_write_bytes", uint64_t{0});
  a.charged_read_bytes = j.value("charged_read_bytes", uint64_t{0});
  a.charged_write_bytes = j.value("charged_write_bytes", uint64_t{0});
}

}  // namespace disktune
