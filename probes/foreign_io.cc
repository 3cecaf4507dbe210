#include "probes/foreign_io.h"

#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "src/core/clock.h"
#include "src/core/sysinfo.h"
#include "src/core/units.h"

namespace disktune {
namespace {

// /sys/block/<disk>/stat: reads completed, merged, sectors, ms; writes
// completed, merged, sectors, ms; ... (Documentation/block/stat.rst).
bool ReadDiskBytes(const std::string& disk, IoSnapshot* s) {
  Result<std::string> text = ReadTextFile("/sys/block/" + disk + "/stat");
  if (!text.ok()) return false;
  std::istringstream in(*text);
  std::vector<uint64_t> f;
  uint64_t v;
  while (f.size() < 7 && in >> v) f.push_back(v);
  if (f.size() < 7) return false;
  s->device_read_ios = f[0];
  s->device_read_bytes = f[2] * 512;
  s->device_write_ios = f[4];
  s->device_write_bytes = f[6] * 512;
  return true;
}

uint64_t OwnBytes() {
  uint64_t blocks = 0;
  for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    struct rusage ru {};
    if (getrusage(who, &ru) == 0)
      blocks += static_cast<uint64_t>(ru.ru_inblock + ru.ru_oublock);
  }
  return blocks * 512;  // the kernel reports read/write_bytes >> 9
}

// The parent's pid from /proc/<pid>/stat (the field after the command,
// which may hold spaces and parentheses: read after the last ')').
int ParentOf(const std::string& pid) {
  std::ifstream in("/proc/" + pid + "/stat");
  std::string line;
  if (!std::getline(in, line)) return -1;
  size_t close = line.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream rest(line.substr(close + 1));
  std::string state;
  int ppid = -1;
  rest >> state >> ppid;
  return ppid;
}

// read_bytes + write_bytes of every other live process (not this one, not
// its children: their bytes are ours once reaped).
std::map<int, uint64_t> OthersBytes() {
  std::map<int, uint64_t> out;
  const int self = getpid();
  DIR* d = opendir("/proc");
  if (d == nullptr) return out;
  while (dirent* e = readdir(d)) {
    char* end = nullptr;
    long pid = std::strtol(e->d_name, &end, 10);
    if (*end != '\0' || pid <= 0 || pid == self) continue;
    std::string name = e->d_name;
    if (ParentOf(name) == self) continue;
    std::ifstream io("/proc/" + name + "/io");
    std::string key;
    uint64_t value = 0, sum = 0;
    bool any = false;
    while (io >> key >> value) {
      if (key == "read_bytes:" || key == "write_bytes:") {
        sum += value;
        any = true;
      }
    }
    if (any) out[static_cast<int>(pid)] = sum;
  }
  closedir(d);
  return out;
}

uint64_t Sub(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

}  // namespace

std::optional<ForeignIo> StartForeignIo(const std::string& disk) {
  ForeignIo w;
  w.disk = disk;
  if (disk.empty() || !ReadDiskBytes(disk, &w.before)) return std::nullopt;
  w.before.own_bytes = OwnBytes();
  w.others_at_start = OthersBytes();
  for (const auto& [pid, bytes] : w.others_at_start)
    w.before.others_bytes += bytes;
  w.before.at_ns = NowNanos();
  return w;
}

void FinishForeignIo(ForeignIo* w) {
  IoSnapshot a;
  if (!ReadDiskBytes(w->disk, &a)) return;
  a.own_bytes = OwnBytes();
  uint64_t others = 0;
  for (const auto& [pid, bytes] : OthersBytes()) {
    a.others_bytes += bytes;
    auto was = w->others_at_start.find(pid);
    others += Sub(bytes, was == w->others_at_start.end() ? 0 : was->second);
  }
  a.at_ns = NowNanos();
  w->after = a;
  w->seconds = static_cast<double>(a.at_ns - w->before.at_ns) / 1e9;
  w->device_bytes =
      Sub(a.device_read_bytes + a.device_write_bytes,
          w->before.device_read_bytes + w->before.device_write_bytes);
  w->own_bytes = Sub(a.own_bytes, w->before.own_bytes);
  w->others_bytes = others;
  JudgeForeignIo(w);
}

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
