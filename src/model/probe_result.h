// The value every probe measurement produces, and its JSON form.
//
// One ProbeResult is one measured configuration (a probe at one block size,
// queue depth, method...). `name` is unique in a report and is what `check`
// expressions and `compare` address: "rand_read.4k.qd32". A figure that was not
// measured is absent (std::nullopt), never 0.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "src/core/histogram.h"
#include "src/model/probe_repeats.h"

namespace disktune {

enum class ProbeStatus { kOk, kSkipped, kFailed };
const char* ProbeStatusName(ProbeStatus s);

// The write cache a durability point ran under: as the run found it, or
// switched on or off by --write-cache-ab.
enum class CacheState { kAsFound, kOn, kOff };
const char* CacheStateName(CacheState s);  // "as_found", "on", "off"

// The values of ProbeParams::variant besides the fsync family's "".
inline constexpr const char* kVariantWriteCacheAb = "write_cache_ab";

// Which I/O loop produced a point's figures: disktune's own io_uring loop or
// fio running the same job (block I/O points, probe --measure-with).
enum class MeasuredBy { kNative, kFio };
const char* MeasuredByName(MeasuredBy m);  // "native", "fio"
std::optional<MeasuredBy> ParseMeasuredBy(const std::string& name);

struct ProbeParams {
  std::optional<uint64_t> block_size_bytes;
  std::optional<int> queue_depth;
  std::string pattern;  // "sequential", "random", "append", "overwrite"
  std::optional<bool> direct;
  std::optional<uint64_t> file_size_bytes;
  std::optional<uint64_t> duration_ns;
  std::optional<uint64_t> warmup_ns;
  std::string io_engine;  // "io_uring", "psync", ...
  std::string method;     // durability probes: "fdatasync", "o_dsync", ...
  // Durability points (block_size_bytes is the size of each write() call).
  // What a result is, consumers read here, never from its name.
  int writes_per_op = 1;  // writes per timed sync (pg_test_fsync's splits)
  CacheState write_cache = CacheState::kAsFound;
  // --fs-matrix: the filesystem made on a loop device; empty on the scratch
  // directory. A result with a filesystem and no method stands for the whole
  // filesystem (skipped when it could not be made).
  std::string filesystem;
  // Empty for the method x size x mode family; otherwise what the point is:
  // "pg.<comparison>" (pg_test_fsync's), "fillsync.<engine>" (an engine's
  // synced inserts), kVariantWriteCacheAb (an A/B that could not run).
  std::string variant;
  // Anything else a probe needs to state about how it measured.
  nlohmann::json extra = nlohmann::json::object();
};

// fio's figures for the same job, and native/fio ratios.
struct FioComparison {
  std::string status = "ok";  // ok / skipped / failed
  std::string reason;         // why skipped / failed
  std::string command;
  std::optional<double> iops;
  std::optional<double> bytes_per_sec;
  std::optional<LatencySummary> latency_ns;   // fio lat (submit to completion)
  std::optional<uint64_t> samples;            // I/Os completed (total_ios)
  std::optional<uint64_t> bytes;              // io_bytes
  std::optional<uint64_t> elapsed_ns;         // the job's runtime
  std::optional<uint64_t> context_switches;   // fio's ctx for the job
  std::optional<double> iops_ratio;           // native / fio
  std::optional<double> bytes_per_sec_ratio;  // native / fio
  std::optional<double> latency_p50_ratio;    // native / fio
  std::optional<double> latency_p99_ratio;    // native / fio
};

struct ProbeResult {
  std::string probe;  // the probe id: "seq_read", "rand_read", ...
  std::string name;   // unique measurement name: "seq_read.4k.qd1"
  ProbeParams params;
  ProbeStatus status = ProbeStatus::kOk;
  std::string reason;  // when skipped
  std::string error;   // when failed
  // Who measured the figures below. Absent for results written before the
  // field existed; the native loop then measured them.
  std::optional<MeasuredBy> measured_by;
  // Why the native loop measured a point fio was asked to (fio missing or
  // failed at that point).
  std::string measured_by_reason;

  std::optional<double> iops;
  std::optional<double> ops_per_sec;
  std::optional<double> bytes_per_sec;
  std::optional<LatencySummary> latency_ns;
  std::optional<uint64_t> samples;
  std::optional<uint64_t> bytes;
  std::optional<uint64_t> elapsed_ns;
  // Probe-specific figures (flush counts, ...), named with units.
  nlohmann::json metrics = nlohmann::json::object();
  std::optional<FioComparison> fio;
  // With probe --repeat N: every round's headline figures and their spread.
  std::optional<ProbeRepeats> repeats;

  static ProbeResult Skipped(std::string probe, std::string name,
                             std::string reason);
  static ProbeResult Failed(std::string probe, std::string name,
                            std::string error);
};

void to_json(nlohmann::json& j, const ProbeParams& p);
void from_json(const nlohmann::json& j, ProbeParams& p);
void to_json(nlohmann::json& j, const FioComparison& f);
void from_json(const nlohmann::json& j, FioComparison& f);
void to_json(nlohmann::json& j, const ProbeResult& r);
void from_json(const nlohmann::json& j, ProbeResult& r);

}  // namespace disktune
