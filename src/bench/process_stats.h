// What the process used while a scenario ran: CPU time (all threads, so an
// engine's background compaction counts), peak resident memory, and bytes it
// caused to be written to the storage device. Plus the database's size on
// disk and page-cache control for cold-read measurements.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "src/core/status.h"

namespace disktune::bench {

struct ProcessSnapshot {
  uint64_t cpu_user_ns = 0;
  uint64_t cpu_system_ns = 0;
  // /proc/self/io write_bytes - cancelled_write_bytes: bytes sent (or to be
  // sent by writeback) to the block layer, minus dirty pages truncated before
  // they reached it. nullopt when /proc/self/io is unreadable.
  std::optional<uint64_t> device_write_bytes;
  std::optional<uint64_t> device_read_bytes;
  // /proc/self/io wchar: bytes passed to write calls, whatever the file
  // lives on (memory filesystems included).
  std::optional<uint64_t> write_call_bytes;
  // VmHWM from /proc/self/status.
  std::optional<uint64_t> peak_rss_bytes;
};

ProcessSnapshot TakeProcessSnapshot();

// The snapshot's device_write_bytes alone (one read of /proc/self/io), for
// callers that poll it, such as the tuner's write budget.
std::optional<uint64_t> ProcessWriteBytes();

// Resets the kernel's peak-RSS mark (VmHWM) to the current RSS by writing "5"
// to /proc/self/clear_refs (Linux >= 4.0), so a later snapshot's peak belongs
// to the scenario, not to an earlier one. False when the kernel refused.
bool ResetPeakRss();

// Parses the "write_bytes" etc. fields of a /proc/<pid>/io text (for tests).
struct ProcIo {
  std::optional<uint64_t> read_bytes;
  std::optional<uint64_t> write_bytes;
  std::optional<uint64_t> cancelled_write_bytes;
  std::optional<uint64_t> wchar;
};
ProcIo ParseProcIo(const std::string& text);
// A "<field>:  <n> kB" line of a /proc/<pid>/status text ("VmHWM",
// "RssAnon"), in bytes.
std::optional<uint64_t> ParseStatusBytes(const std::string& text,
                                         std::string_view field);
// The VmHWM line of a /proc/<pid>/status text, in bytes.
std::optional<uint64_t> ParseVmHwm(const std::string& text);

// This process's RssAnon now (or process `pid`'s): the anonymous share of
// the resident set (heap, caches, memtables), without file-backed pages such
// as an engine's memory-mapped tables or the program's code. nullopt when
// /proc/<pid>/status is unreadable.
std::optional<uint64_t> AnonRss(int pid = 0);

// Space the files under `dir` occupy on the device: sum of st_blocks * 512,
// recursively (sparse files and preallocation count as the filesystem counts
// them). NotFound when `dir` does not exist.
Result<uint64_t> DirSizeOnDisk(const std::string& dir);

// Whether `path` lives on a memory filesystem (tmpfs, ramfs), where no write
// reaches a device and /proc/self/io write_bytes stays 0.
bool OnMemoryFilesystem(const std::string& path);

// How the page cache was kept out of a cold-read measurement.
enum class PageCachePolicy {
  kAuto,     // fadvise; drop_caches as root when fadvise left pages resident
  kFadvise,  // posix_fadvise(DONTNEED) on each DB file (no root needed)
  kDrop,     // sync + echo 3 > /proc/sys/vm/drop_caches (root; whole machine)
  kKeep,     // leave the cache alone (warm reads)
};
const char* PageCachePolicyName(PageCachePolicy p);
std::optional<PageCachePolicy> ParsePageCachePolicy(const std::string& s);

struct EvictionReport {
  // What was actually done: "fadvise_dontneed", "drop_caches",
  // "fadvise_dontneed+drop_caches", or "none".
  std::string method;
  uint64_t file_bytes = 0;
  // Bytes of the DB's files still in the page cache afterwards (mincore);
  // nullopt when it could not be checked.
  std::optional<uint64_t> resident_bytes_after;
  // Why the preferred method was not (fully) possible, if so.
  std::string note;
};

// Evicts the files under `dir` from the page cache. The database must be
// closed: pages an engine still has mmap()ed cannot be evicted.
Result<EvictionReport> EvictFromPageCache(const std::string& dir,
                                          PageCachePolicy policy);

// Bytes of the files under `dir` currently resident in the page cache.
Result<uint64_t> ResidentBytes(const std::string& dir);

}  // namespace disktune::bench
