// What `--throttle` asks for: a device class (hdd, cloud) or explicit limits,
// and what a throttled run records about itself (the limits, the mechanism,
// the cgroup version, which properties the class emulates and what escaped
// the throttle). Parsing only; probes/throttled_device.h applies it.
//
// Syntax (one flag, one meaning, on probe, bench, tune and run):
//   hdd | cloud                          a class (REFERENCE: device classes)
//   riops=N,wiops=N,rbps=SIZE,wbps=SIZE  explicit limits; any subset, at
//                                        least one; iops=N and bps=SIZE set
//                                        read and write together
//   cloud,wiops=1000                     a class with some limits replaced
//   hdd,sync=none | riops=200,sync=5ms   a sync-latency floor set or removed
// SIZE is bytes per second with a unit (150MB, 125MiB); sync= a duration
// (8.3ms) or none. A class's floor is its own (hdd: one revolution).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/core/status.h"
#include "src/model/throttle_accounting.h"

namespace disktune {

struct ThrottleLimits {
  std::optional<uint64_t> read_iops, write_iops;
  std::optional<uint64_t> read_bytes_per_sec, write_bytes_per_sec;
  bool operator==(const ThrottleLimits&) const = default;
};

struct ThrottleSpec {
  std::string class_name;  // "hdd", "cloud", "custom"
  ThrottleLimits limits;
  // The least time one sync on the device takes (src/core/sync_floor.h); 0
  // = none, syncs take the host disk's time.
  uint64_t sync_floor_ns = 0;
  // The properties the throttle reproduces ("rates", and "sync_latency"
  // with a floor) and those it does not ("per_io_latency", and
  // "sync_latency" without one), with the reason: the cgroup throttle lets
  // a lone I/O through at the backing disk's speed, so nothing is judged
  // on a latency it does not emulate.
  std::vector<std::string> emulates;
  std::vector<std::string> not_emulated;
  std::string not_emulated_reason;
  // How the sync floor is laid, and the engines whose syncs meet it; both
  // empty without a floor.
  std::string sync_latency_mechanism;
  std::vector<std::string> sync_latency_engines;
};

// InvalidArgument with the valid forms for anything else.
Result<ThrottleSpec> ParseThrottle(const std::string& text);
// The syntax, for --help.
std::string ThrottleFlagHelp();
// "150 IOPS read/write, 150 MB/s read/write".
std::string DescribeThrottleLimits(const ThrottleLimits& l);
// The limits and the sync floor: "150 IOPS read/write, 150 MB/s read/write,
// each sync at least 8.33 ms".
std::string DescribeThrottle(const ThrottleSpec& spec);

// The environment's record of a throttled run.
struct ThrottleRecord {
  ThrottleSpec spec;
  std::string mechanism;  // "cgroup v1 blkio.throttle" / "cgroup v2 io.max"
  int cgroup_version = 0;
  std::string cgroup;       // its path while the run lasted
  std::string loop_device;  // "/dev/loop3", direct I/O over the image
  std::string filesystem;   // made on it, like the --dir filesystem
  std::string host_dir;     // where the image lived (the --dir scratch)
  // The loop device's request geometry: the largest request buffered I/O
  // sends it, min(max_sectors_kb, max_segments x the page size), each
  // charged as one of the class's IOPS; and its readahead window.
  std::optional<uint64_t> request_bytes;
  std::optional<uint64_t> read_ahead_bytes;
  // How buffered writes are kept charged under cgroup v1 (empty on v2).
  std::string writeback;
  std::optional<ThrottleAccounting> accounting;  // the whole run
};
void to_json(nlohmann::json& j, const ThrottleRecord& r);
void from_json(const nlohmann::json& j, ThrottleRecord& r);

// One line for every report: "figures throttled to the hdd class (150 IOPS
// ..., 150 MB/s ...) by cgroup v1 blkio.throttle on loop3 (ext4, direct
// I/O); it emulates rates and sync latency (8.33 ms ...): ...; not ...".
std::string ThrottleBanner(const ThrottleRecord& r);
// "<bytes> reached the device, <bytes> through the throttle, <bytes> around
// it (<share> escaped)"; the share is left out when nothing reached it.
std::string DescribeAccounting(const ThrottleAccounting& a);
// The escape line, or "" without accounting.
std::string ThrottleEscapeLine(const ThrottleRecord& r);

}  // namespace disktune
