#include "src/model/foreign_io.h"

#include <algorithm>
#include <cstdio>

#include "src/core/units.h"

namespace disktune {
namespace {

uint64_t Sub(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

}  // namespace

void JudgeForeignIo(ForeignIo* w) {
  w->foreign_bytes =
      std::min(Sub(w->device_bytes, w->own_bytes), w->others_bytes);
  if (w->after && w->seconds > 0) {
    uint64_t ios = Sub(w->after->device_read_ios + w->after->device_write_ios,
                       w->before.device_read_ios + w->before.device_write_ios);
    w->device_ios_per_sec = static_cast<double>(ios) / w->seconds;
  }
  const double rate =
      w->seconds > 0 ? static_cast<double>(w->foreign_bytes) / w->seconds : 0;
  const double share = w->device_bytes > 0
                           ? static_cast<double>(w->foreign_bytes) /
                                 static_cast<double>(w->device_bytes)
                           : 0;
  w->busy = rate >= kForeignIoBytesPerSec && share >= kForeignIoShare;
  w->reason.clear();
  if (!w->busy) return;
  char pct[16];
  std::snprintf(pct, sizeof(pct), "%.0f%%", share * 100);
  w->reason = "other I/O on " + w->disk + ": " + FormatBytes(rate) +
              "/s from other processes during the run (" + pct +
              " of the disk's " +
              FormatBytes(static_cast<double>(w->device_bytes)) +
              "; busy at 1 MiB/s and 10%)";
}

namespace {

nlohmann::json SnapshotJson(const IoSnapshot& s) {
  return {{"device_read_bytes", s.device_read_bytes},
          {"device_write_bytes", s.device_write_bytes},
          {"device_read_ios", s.device_read_ios},
          {"device_write_ios", s.device_write_ios},
          {"own_bytes", s.own_bytes},
          {"others_bytes", s.others_bytes}};
}

IoSnapshot SnapshotFrom(const nlohmann::json& j) {
  IoSnapshot s;
  auto u = [&](const char* k) {
    auto it = j.find(k);
    return it != j.end() && it->is_number_unsigned() ? it->get<uint64_t>()
                                                     : uint64_t{0};
  };
  s.device_read_bytes = u("device_read_bytes");
  s.device_write_bytes = u("device_write_bytes");
  s.device_read_ios = u("device_read_ios");
  s.device_write_ios = u("device_write_ios");
  s.own_bytes = u("own_bytes");
  s.others_bytes = u("others_bytes");
  return s;
}

}  // namespace

void to_json(nlohmann::json& j, const ForeignIo& w) {
  j = {{"disk", w.disk},
       {"before", SnapshotJson(w.before)},
       {"busy_share", kForeignIoShare},
       {"busy_bytes_per_sec", kForeignIoBytesPerSec}};
  if (!w.after) return;
  j["after"] = SnapshotJson(*w.after);
  j["seconds"] = w.seconds;
  j["device_bytes"] = w.device_bytes;
  j["own_bytes"] = w.own_bytes;
  j["others_bytes"] = w.others_bytes;
  j["foreign_bytes"] = w.foreign_bytes;
  j["device_ios_per_sec"] = w.device_ios_per_sec;
  j["busy"] = w.busy;
  if (w.busy) j["reason"] = w.reason;
}

void from_json(const nlohmann::json& j, ForeignIo& w) {
  if (!j.is_object()) return;
  if (auto it = j.find("disk"); it != j.end() && it->is_string())
    w.disk = it->get<std::string>();
  if (auto it = j.find("before"); it != j.end() && it->is_object())
    w.before = SnapshotFrom(*it);
  if (auto it = j.find("after"); it != j.end() && it->is_object())
    w.after = SnapshotFrom(*it);
  auto num = [&](const char* k) {
    auto it = j.find(k);
    return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
  };
  w.seconds = num("seconds");
  w.device_bytes = static_cast<uint64_t>(num("device_bytes"));
  w.own_bytes = static_cast<uint64_t>(num("own_bytes"));
  w.others_bytes = static_cast<uint64_t>(num("others_bytes"));
  // The verdict is the rule's on the recorded figures, not a stored flag.
  if (w.after) JudgeForeignIo(&w);
}

}  // namespace disktune
