#include "src/bench/process_stats.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace disktune::bench {
namespace {

std::optional<std::string> ReadSmallFile(const char* path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

uint64_t TimevalNanos(const timeval& tv) {
  return static_cast<uint64_t>(tv.tv_sec) * 1000000000ull +
         static_cast<uint64_t>(tv.tv_usec) * 1000ull;
}

// Regular files under `dir`, recursively.
Result<std::vector<std::string>> ListFiles(const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) {
    return Status::NotFound(dir + ": no such directory");
  }
  std::vector<std::string> files;
  std::filesystem::recursive_directory_iterator it(dir, ec), end;
  if (ec) return Status::FromErrno(ec.value(), "list " + dir);
  for (; it != end; it.increment(ec)) {
    if (ec) return Status::FromErrno(ec.value(), "list " + dir);
    if (it->is_regular_file(ec)) files.push_back(it->path().string());
  }
  return files;
}

std::optional<uint64_t> NetWriteBytes(const ProcIo& io) {
  if (!io.write_bytes) return std::nullopt;
  uint64_t cancelled = io.cancelled_write_bytes.value_or(0);
  return *io.write_bytes > cancelled ? *io.write_bytes - cancelled : 0;
}

}  // namespace

ProcIo ParseProcIo(const std::string& text) {
  ProcIo io;
  std::istringstream in(text);
  std::string name;
  uint64_t value = 0;
  while (in >> name >> value) {
    if (name == "read_bytes:") io.read_bytes = value;
    if (name == "write_bytes:") io.write_bytes = value;
    if (name == "cancelled_write_bytes:") io.cancelled_write_bytes = value;
    if (name == "wchar:") io.wchar = value;
  }
  return io;
}

std::optional<uint64_t> ParseStatusBytes(const std::string& text,
                                         std::string_view field) {
  std::istringstream in(text);
  std::string line;
  const std::string prefix = std::string(field) + ":";
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0) {
      std::istringstream fields(line.substr(prefix.size()));
      uint64_t kib = 0;
      std::string unit;
      if (fields >> kib >> unit && unit == "kB") return kib * 1024;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<uint64_t> ParseVmHwm(const std::string& text) {
  return ParseStatusBytes(text, "VmHWM");
}

std::optional<uint64_t> AnonRss(int pid) {
  std::string path = pid == 0 ? "/proc/self/status"
                              : "/proc/" + std::to_string(pid) + "/status";
  auto status = ReadSmallFile(path.c_str());
  if (!status) return std::nullopt;
  return ParseStatusBytes(*status, "RssAnon");
}

std::optional<uint64_t> ProcessWriteBytes() {
  auto io_text = ReadSmallFile("/proc/self/io");
  if (!io_text) return std::nullopt;
  return NetWriteBytes(ParseProcIo(*io_text));
}

ProcessSnapshot TakeProcessSnapshot() {
  ProcessSnapshot s;
  rusage ru{};
  if (getrusage(RUSAGE_SELF, &ru) == 0) {
    s.cpu_user_ns = TimevalNanos(ru.ru_utime);
    s.cpu_system_ns = TimevalNanos(ru.ru_stime);
  }
  if (auto io_text = ReadSmallFile("/proc/self/io")) {
    ProcIo io = ParseProcIo(*io_text);
    s.device_write_bytes = NetWriteBytes(io);
    s.device_read_bytes = io.read_bytes;
    s.write_call_bytes = io.wchar;
  }
  if (auto status = ReadSmallFile("/proc/self/status")) {
    s.peak_rss_bytes = ParseVmHwm(*status);
  }
  return s;
}

bool ResetPeakRss() {
  int fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = write(fd, "5", 1) == 1;
  close(fd);
  return ok;
}

Result<uint64_t> DirSizeOnDisk(const std::string& dir) {
  auto files = ListFiles(dir);
  if (!files.ok()) return files.status();
  uint64_t total = 0;
  for (const std::string& f : *files) {
    struct stat st {};
    // A file the engine deleted meanwhile (a finished compaction's input)
    // simply no longer counts.
    if (stat(f.c_str(), &st) != 0) continue;
    total += static_cast<uint64_t>(st.st_blocks) * 512;
  }
  return total;
}

bool OnMemoryFilesystem(const std::string& path) {
  struct statfs fs {};
  if (statfs(path.c_str(), &fs) != 0) return false;
  constexpr long kTmpfsMagic = 0x01021994;
  constexpr long kRamfsMagic = 0x858458f6;
  return fs.f_type == kTmpfsMagic ||
         static_cast<long>(static_cast<uint32_t>(fs.f_type)) == kRamfsMagic;
}

const char* PageCachePolicyName(PageCachePolicy p) {
  switch (p) {
    case PageCachePolicy::kAuto:
      return "auto";
    case PageCachePolicy::kFadvise:
      return "fadvise";
    case PageCachePolicy::kDrop:
      return "drop";
    case PageCachePolicy::kKeep:
      return "keep";
  }
  return "unknown";
}

std::optional<PageCachePolicy> ParsePageCachePolicy(const std::string& s) {
  for (PageCachePolicy p : {PageCachePolicy::kAuto, PageCachePolicy::kFadvise,
                            PageCachePolicy::kDrop, PageCachePolicy::kKeep}) {
    if (s == PageCachePolicyName(p)) return p;
  }
  return std::nullopt;
}

Result<uint64_t> ResidentBytes(const std::string& dir) {
  auto files = ListFiles(dir);
  if (!files.ok()) return files.status();
  const long page = sysconf(_SC_PAGESIZE);
  uint64_t resident = 0;
  for (const std::string& f : *files) {
    int fd = open(f.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st {};
    if (fstat(fd, &st) != 0 || st.st_size == 0) {
      close(fd);
      continue;
    }
    size_t len = static_cast<size_t>(st.st_size);
    void* p = mmap(nullptr, len, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) continue;
    std::vector<unsigned char> vec((len + page - 1) / page);
    if (mincore(p, len, vec.data()) == 0) {
      for (unsigned char v : vec) {
        if (v & 1) resident += static_cast<uint64_t>(page);
      }
    }
    munmap(p, len);
  }
  return resident;
}

Result<EvictionReport> EvictFromPageCache(const std::string& dir,
                                          PageCachePolicy policy) {
  EvictionReport report;
  auto files = ListFiles(dir);
  if (!files.ok()) return files.status();
  if (policy == PageCachePolicy::kKeep) {
    report.method = "none";
    auto resident = ResidentBytes(dir);
    if (resident.ok()) report.resident_bytes_after = *resident;
    return report;
  }
  bool fadvised = false;
  if (policy == PageCachePolicy::kAuto || policy == PageCachePolicy::kFadvise) {
    for (const std::string& f : *files) {
      int fd = open(f.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) continue;
      struct stat st {};
      if (fstat(fd, &st) == 0) report.file_bytes += st.st_size;
      // Dirty pages are not dropped by DONTNEED: write them back first.
      fdatasync(fd);
      posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
      close(fd);
    }
    fadvised = true;
  }
  auto resident = ResidentBytes(dir);
  bool dropped = false;
  bool want_drop =
      policy == PageCachePolicy::kDrop ||
      (policy == PageCachePolicy::kAuto && resident.ok() && *resident > 0);
  if (want_drop) {
    if (geteuid() != 0) {
      report.note = "drop_caches needs root";
      if (policy == PageCachePolicy::kDrop) {
        return Status::PermissionDenied(
            "--page-cache drop: writing /proc/sys/vm/drop_caches needs root");
      }
    } else {
      sync();
      int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
      if (fd >= 0 && write(fd, "3", 1) == 1) {
        dropped = true;
      } else {
        report.note = "writing /proc/sys/vm/drop_caches failed: " +
                      std::string(std::strerror(errno));
      }
      if (fd >= 0) close(fd);
      if (!dropped && policy == PageCachePolicy::kDrop) {
        return Status::PermissionDenied(report.note);
      }
    }
    if (!fadvised) {
      for (const std::string& f : *files) {
        struct stat st {};
        if (stat(f.c_str(), &st) == 0) report.file_bytes += st.st_size;
      }
    }
    resident = ResidentBytes(dir);
  }
  if (fadvised && dropped) {
    report.method = "fadvise_dontneed+drop_caches";
  } else if (dropped) {
    report.method = "drop_caches";
  } else {
    report.method = "fadvise_dontneed";
  }
  if (resident.ok()) report.resident_bytes_after = *resident;
  return report;
}

}  // namespace disktune::bench
