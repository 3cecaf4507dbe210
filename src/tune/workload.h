// Workloads the tuner optimises for: the built-in ones as data, and any
// profile (checked-in under profiles/, embedded in the binary, or a file).
//
// A workload is a list of db_bench scenarios run in order from a fresh
// database, the steps among them that are scored (a read-heavy workload
// scores its reads, not the fill that sets them up), the sizes, and what the
// application requires (durable writes, a write rate to keep).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "src/bench/params.h"
#include "src/core/status.h"
#include "src/tune/knobs.h"

namespace disktune::tune {

struct Workload {
  std::string name;
  std::string description;
  // Where it came from: "built-in", "profile ycsb-a (checked in)", a path.
  std::string source;
  std::vector<std::string> scenarios;
  // Scored steps (scenario names); empty = every step.
  std::vector<std::string> measured;
  uint64_t num = bench::kDefaultNum;
  std::optional<uint64_t> reads;
  std::optional<uint64_t> writes;
  int threads = 1;
  // Unset = the scenario's own (16-byte keys, 100-byte values, UTXO 40/65).
  std::optional<uint64_t> key_size_bytes;
  std::optional<uint64_t> value_size_bytes;
  std::optional<double> compression_ratio;
  std::optional<uint64_t> seed;
  // How the application commits today (1 = one write per commit).
  uint64_t entries_per_batch = 1;
  // Every commit must be durable (synced) before it is acknowledged.
  bool durable_writes = false;
  // The write rate the application needs (entries/s); with durable writes
  // and a slow fsync it decides the group-commit size.
  std::optional<double> target_writes_per_sec;

  bool operator==(const Workload&) const = default;
};

// What the rules need to know about a workload, from the scenario table
// below, averaged over the scored steps.
struct WorkloadTraits {
  double write_share = 0;       // puts/deletes
  double point_read_share = 0;  // Get()s: bloom filters serve these
  double scan_share = 0;        // iterators: larger blocks serve these
  // Fraction of the keys that draw most reads (uniform 1, zipfian ~0.2,
  // readhot 0.01): sizes the cache's working set.
  double hot_fraction = 1;
  // Reads start from an evicted page cache (UTXO pulses): device latency
  // shows in the trials.
  bool cold_reads = false;
  bool sequential_writes_only = false;
};

// Built-in workloads defined in code (write-heavy, read-heavy, mixed).
std::span<const Workload> CodeWorkloads();
// Every name `--workload` accepts without a path: the code workloads, then
// the checked-in profiles (embedded at build time).
std::vector<std::string> BuiltinWorkloadNames();
std::string BuiltinWorkloadList();  // "write-heavy, read-heavy, ..."

// A built-in name, or a profile file path (anything ending in ".json" or
// containing '/'). InvalidArgument naming the valid names, or the profile's
// own validation error.
Result<Workload> ResolveWorkload(const std::string& name_or_path);

// Checks that every scenario is known and the measured steps are among them.
Status ValidateWorkload(const Workload& w);

WorkloadTraits TraitsOf(const Workload& w);

// The data the workload leaves in the database at full size: distinct keys
// (random fills with replacement leave 1 - e^(-writes/num) of the key
// space), and the key and value sizes its scenarios write.
Result<DataShape> ShapeOf(const Workload& w, std::string_view engine);

// Sets num so the loaded data (keys + values) is about `bytes`.
Status ApplyDataSize(uint64_t bytes, std::string_view engine, Workload* w);

// The bench overrides for the workload scaled by `scale` (0 < scale <= 1):
// key space, op counts and UTXO pulse sizes shrink together, never below
// kMinTrialNum keys.
inline constexpr uint64_t kMinTrialNum = 2000;
bench::Overrides WorkloadOverrides(const Workload& w, double scale);
// The effective scale after rounding and the floor.
double EffectiveScale(const Workload& w, double scale);

}  // namespace disktune::tune
