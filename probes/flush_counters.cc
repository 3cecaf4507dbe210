#include "probes/flush_counters.h"

#include <sstream>

#include "src/core/sysinfo.h"

namespace disktune {

Result<FlushCounters> ParseDiskStat(const std::string& text) {
  std::istringstream in(text);
  std::vector<uint64_t> f;
  uint64_t v = 0;
  while (in >> v) f.push_back(v);
  if (f.size() < 11)
    return Status::Corruption("unexpected disk stat: '" + text + "'");
  if (f.size() < 17) {
    return Status::NotSupported(
        "this kernel does not count flush requests (needs Linux 5.5+)");
  }
  FlushCounters c;
  c.writes = f[4];
  c.sectors_written = f[6];
  c.flushes = f[15];
  c.flush_ms = f[16];
  return c;
}

Result<FlushCounters> ReadFlushCounters(const std::string& disk) {
  Result<std::string> text = ReadTextFile("/sys/block/" + disk + "/stat");
  if (!text.ok()) return text.status();
  return ParseDiskStat(*text);
}

std::vector<std::string> FlushDisks(const DeviceInfo& device) {
  std::vector<std::string> disks;
  for (const std::string& hop : device.chain) {
    std::string name = hop.substr(0, hop.find(' '));
    // A partition's flushes are counted on its disk, the next hop.
    if (hop.find("(partition of") != std::string::npos) continue;
    if (!name.empty()) disks.push_back(name);
  }
  if (!device.disk.empty() && (disks.empty() || disks.back() != device.disk)) {
    disks.push_back(device.disk);
  }
  return disks;
}

FlushSnapshot FlushSnapshot::Take(const std::vector<std::string>& disks) {
  FlushSnapshot s;
  for (const auto& d : disks) {
    Result<FlushCounters> c = ReadFlushCounters(d);
    if (c.ok()) s.counters_[d] = *c;
  }
  return s;
}

std::map<std::string, FlushCounters> FlushSnapshot::Since(
    const FlushSnapshot& before) const {
  std::map<std::string, FlushCounters> out;
  for (const auto& [disk, now] : counters_) {
    auto it = before.counters_.find(disk);
    if (it == before.counters_.end()) continue;
    FlushCounters d;
    d.flushes = now.flushes - it->second.flushes;
    d.flush_ms = now.flush_ms - it->second.flush_ms;
    d.writes = now.writes - it->second.writes;
    out[disk] = d;
  }
  return out;
}

void AddFlushMetrics(const std::vector<std::string>& disks,
                     const std::map<std::string, FlushCounters>& delta,
                     uint64_t syncs, nlohmann::json* metrics) {
  if (disks.empty()) return;
  auto it = delta.find(disks.back());
  if (it == delta.end()) return;
  nlohmann::json& m = *metrics;
  m["flush_disk"] = disks.back();
  m["syncs"] = syncs;
  m["flushes"] = it->second.flushes;
  m["flush_time_ms"] = it->second.flush_ms;
  if (syncs > 0) {
    m["flushes_per_sync"] =
        static_cast<double>(it->second.flushes) / static_cast<double>(syncs);
  }
  if (disks.size() > 1) {
    nlohmann::json by = nlohmann::json::object();
    for (const auto& d : disks) {
      if (auto di = delta.find(d); di != delta.end())
        by[d] = di->second.flushes;
    }
    m["flushes_by_device"] = by;
  }
}

}  // namespace disktune
