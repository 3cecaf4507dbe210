#include "src/tune/fidelity.h"

#include <algorithm>

#include "src/core/units.h"

namespace disktune::tune {

int ExpectedLevels(const EngineModel& m, const TuneConfig& c,
                   uint64_t db_bytes) {
  const double data = static_cast<double>(db_bytes);
  const double wb =
      static_cast<double>(std::max<uint64_t>(c.write_buffer_bytes(), 1));
  if (data <= wb) return 0;
  // LevelDB's kL0_CompactionTrigger is 4, as RocksDB's default.
  const auto knob = [&c](KnobId id, double otherwise) {
    std::optional<KnobValue> v = c.Get(id);
    return v ? static_cast<double>(*v) : otherwise;
  };
  const double trigger = knob(KnobId::kLevel0FileNumCompactionTrigger, 4);
  const double merge = knob(KnobId::kMinWriteBufferNumberToMerge, 1);
  if (data <= trigger * merge * wb) return 1;
  double level =
      knob(KnobId::kMaxBytesForLevelBase, static_cast<double>(m.level1_bytes));
  const double fanout =
      knob(KnobId::kMaxBytesForLevelMultiplier, m.level_multiplier);
  double held = level;
  int below = 1;
  while (held < data && below < 7) {
    level *= fanout;
    held += level;
    below++;
  }
  return 1 + below;
}

std::string CopyFidelity::Text() const {
  return FormatBytes(static_cast<double>(data_bytes)) + " of data " +
         (data_exceeds_memory() ? "over " : "within ") +
         FormatBytes(static_cast<double>(memory_bytes)) +
         " of memtables + cache; " + std::to_string(levels) + " of " +
         std::to_string(full_levels) + " LSM levels";
}

CopyFidelity FidelityOf(const EngineModel& m, const DataShape& whole,
                        const DataShape& copy, const TuneConfig& full,
                        const TuneConfig& trial, double scale) {
  CopyFidelity f;
  f.scale = scale;
  const uint64_t memtables = MemtableBytes(m, full);
  f.data_bytes = EstimateDbBytes(copy, trial);
  f.memory_bytes = memtables + trial.cache_bytes();
  const uint64_t full_data = EstimateDbBytes(whole, full);
  f.full_fits_memory = full_data <= memtables + full.cache_bytes();
  f.levels = ExpectedLevels(m, trial, f.data_bytes);
  f.full_levels = ExpectedLevels(m, full, full_data);
  return f;
}

bool NeedsFaithfulCopy(Knob k) {
  return ShapesLsm(k) || k == Knob::Of(KnobId::kMaxFileBytes);
}

}  // namespace disktune::tune
