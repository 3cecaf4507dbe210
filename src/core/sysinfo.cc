#include "src/core/sysinfo.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>

#include "src/core/units.h"

namespace disktune {

Result<std::string> ReadTextFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::FromErrno(errno ? errno : ENOENT, "open " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

namespace {

std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) {
        std::string v = line.substr(colon + 1);
        while (!v.empty() && v.front() == ' ') v.erase(v.begin());
        return v;
      }
    }
  }
  return "";
}

uint64_t MeminfoBytes(const std::string& key) {
  std::ifstream in("/proc/meminfo");
  std::string name;
  uint64_t kb = 0;
  std::string unit;
  while (in >> name >> kb) {
    std::getline(in, unit);
    if (name == key + ":") return kb * 1024;
  }
  return 0;
}

std::string OsName() {
  std::ifstream in("/etc/os-release");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      std::string v = line.substr(12);
      if (v.size() >= 2 && v.front() == '"') v = v.substr(1, v.size() - 2);
      return v;
    }
  }
  return "";
}

}  // namespace

SystemInfo ReadSystemInfo() {
  SystemInfo info;
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) == 0) info.hostname = host;
  utsname u{};
  if (uname(&u) == 0) info.kernel = u.release;
  info.os = OsName();
  info.cpu_model = CpuModel();
  info.cpu_count = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  info.memory_bytes = MeminfoBytes("MemTotal");
  info.memory_available_bytes = MeminfoBytes("MemAvailable");
  info.is_root = geteuid() == 0;
  info.load_average_1m = ReadLoadAverage1m();
  return info;
}

uint64_t PhysicalMemoryBytes() { return MeminfoBytes("MemTotal"); }

Status CheckFitsInMemory(const std::string& what, uint64_t bytes,
                         const std::string& advice) {
  uint64_t memory = PhysicalMemoryBytes();
  if (memory == 0 || bytes <= memory) return Status::OK();
  return Status::InvalidArgument(what + " is more than this machine's " +
                                 FormatBytes(static_cast<double>(memory)) +
                                 " of memory; " + advice);
}

std::optional<double> ReadLoadAverage1m() {
  if (auto l = ReadTextFile("/proc/loadavg"); l.ok()) {
    char* end = nullptr;
    double v = std::strtod(l->c_str(), &end);
    if (end != l->c_str() && v >= 0) return v;
  }
  return std::nullopt;
}

bool LoadIsBusy(const std::optional<double>& load, int cpu_count) {
  return load && cpu_count > 0 &&
         *load > kBusyLoadPerCpu * static_cast<double>(cpu_count);
}

bool MachineWasBusy(const SystemInfo& s) {
  return LoadIsBusy(s.load_average_1m, s.cpu_count) ||
         LoadIsBusy(s.load_average_1m_after, s.cpu_count);
}

namespace {

// The time now in `format` (strftime), in UTC or the local zone.
std::string FormatNow(const char* format, bool utc) {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  if (utc) {
    gmtime_r(&t, &tm);
  } else {
    localtime_r(&t, &tm);
  }
  char buf[32];
  std::strftime(buf, sizeof(buf), format, &tm);
  return buf;
}

}  // namespace

std::string UtcTimestamp() { return FormatNow("%Y-%m-%dT%H:%M:%SZ", true); }

std::string LocalStamp() { return FormatNow("%Y%m%d-%H%M%S", false); }

}  // namespace disktune
