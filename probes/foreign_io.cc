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

}  // namespace disktune
