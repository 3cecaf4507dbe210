#include "src/bench/space_preflight.h"

#include <sys/statvfs.h>

#include <algorithm>

#include "src/bench/scenario.h"
#include "src/bench/space_guard.h"
#include "src/core/units.h"
#include "src/model/knob_spec.h"

namespace disktune::bench {

uint64_t EngineStartBytes(std::string_view engine, const EngineOptions& knobs) {
  if (engine != "rocksdb") return 0;
  const KnobSpec& k = KnobRow(KnobId::kWriteBufferBytes);
  std::optional<KnobValue> set = knobs.Get(k.id);
  uint64_t buffer = static_cast<uint64_t>(
      set ? *set : k.rocksdb.default_value.value_or(64 << 20));
  // The log's preallocated block (1.1 x the buffer) and one flushed
  // memtable.
  return buffer + buffer / 10 + buffer;
}

namespace {

// The filesystem's total and available bytes; false when it cannot be read
// (then nothing is refused: the guard still watches the run).
bool SpaceOf(const std::string& dir, uint64_t* total, uint64_t* available) {
  struct statvfs sv {};
  if (statvfs(dir.c_str(), &sv) != 0) return false;
  *total = static_cast<uint64_t>(sv.f_blocks) * sv.f_frsize;
  *available = static_cast<uint64_t>(sv.f_bavail) * sv.f_frsize;
  return true;
}

}  // namespace

Status CheckRoomToStart(std::string_view engine, const EngineOptions& knobs,
                        const std::string& dir, const std::string& shown) {
  uint64_t start = EngineStartBytes(engine, knobs);
  if (start == 0) return Status::OK();
  uint64_t total = 0, free_bytes = 0;
  if (!SpaceOf(dir, &total, &free_bytes)) return Status::OK();
  uint64_t headroom = SpaceHeadroomBytes(total);
  if (free_bytes >= start + headroom) return Status::OK();
  auto b = [](uint64_t n) { return FormatBytes(static_cast<double>(n)); };
  return Status::NoSpace(
      std::string(engine) + " needs " + b(start + headroom) + " free on " +
      shown + " to start (its preallocated write-ahead log and one flushed " +
      "write buffer, " + b(start) + ", plus the " + b(headroom) +
      " kept back by the free-space guard); " + b(free_bytes) +
      " is free: free some space, choose another --dir or lower "
      "--write-buffer-size");
}

uint64_t EstimatedDbBytes(const PlannedStep& step) {
  const BenchParams& p = step.params;
  if (step.spec == nullptr || step.spec->db == DbUse::kNone ||
      p.engine.in_memory)
    return 0;
  double entries = static_cast<double>(std::min(p.num, p.Writes()));
  return static_cast<uint64_t>(
      entries * (static_cast<double>(p.key_size) +
                 static_cast<double>(p.value_size) * p.compression_ratio));
}

Status CheckDataFits(const BenchPlan& plan, const std::string& dir) {
  const PlannedStep* largest = nullptr;
  uint64_t most = 0;
  for (const PlannedStep& s : plan.steps) {
    if (uint64_t b = EstimatedDbBytes(s); b > most) {
      most = b;
      largest = &s;
    }
  }
  uint64_t total = 0, available = 0;
  if (largest == nullptr || !SpaceOf(dir, &total, &available)) {
    return Status::OK();
  }
  if (most <= total) return Status::OK();
  const BenchParams& p = largest->params;
  auto b = [](uint64_t n) { return FormatBytes(static_cast<double>(n)); };
  return Status::InvalidArgument(
      "--num " + std::to_string(p.num) + ": " +
      std::string(largest->spec->name) + "'s database would hold about " +
      b(most) + " (" + std::to_string(std::min(p.num, p.Writes())) +
      " entries of " + std::to_string(p.key_size) + "+" +
      std::to_string(p.value_size) + " bytes, compressed to " +
      std::to_string(p.compression_ratio).substr(0, 4) +
      "), more than the whole filesystem of --dir holds (" + b(total) +
      "); lower --num or choose another --dir");
}

}  // namespace disktune::bench
