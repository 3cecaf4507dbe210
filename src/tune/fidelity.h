// Copy fidelity: whether a trial on a scaled copy of the workload can show
// what a configuration does at full size.
//
// A copy shows a knob that shapes the LSM or the cache (write buffer,
// memtables kept, table file size, level-0 triggers, level sizes,
// compaction style) only when it keeps the full size's two relations:
//   - its data exceeds the configuration's memtables plus block cache (a
//     copy that fits in memory never flushes, compacts or misses the cache
//     as the full size does), unless the full size fits too;
//   - its LSM has as many levels as the full size's, counted from the data
//     size, the write buffer, the level-0 trigger, the level-1 size and the
//     fanout (a level less is a whole tier of compactions the copy lacks).
// Example (the 2026-11-27 report): LevelDB ycsb-a at 64 MiB, a 28 MiB write
// buffer judged on a copy of 0.167 of 1M keys (~26 MiB of data): the copy
// fits in one memtable, so no table, level or compaction took part.
#pragma once

#include <cstdint>
#include <string>

#include "src/tune/knobs.h"

namespace disktune::tune {

// Levels the LSM has with `db_bytes` of table data under `c`: 0 while the
// data fits in one write buffer (nothing flushed), 1 while level 0 holds it
// (below the level-0 compaction trigger's worth of flushed buffers), then
// 1 + the levels below level 0 that it fills (level 1 of the config's
// max_bytes_for_level_base, else the engine's, each deeper one `fanout`
// times larger).
int ExpectedLevels(const EngineModel& m, const TuneConfig& c,
                   uint64_t db_bytes);

// What a copy at `scale` is, for one configuration.
struct CopyFidelity {
  double scale = 0;
  uint64_t data_bytes = 0;        // the copy's table data (estimated)
  uint64_t memory_bytes = 0;      // memtables held + the trial's block cache
  int levels = 0;                 // LSM levels of the copy
  int full_levels = 0;            // LSM levels at full size
  bool full_fits_memory = false;  // the full size's data fits in memory
  bool data_exceeds_memory() const { return data_bytes > memory_bytes; }
  // The copy keeps both relations (a full-size trial always does).
  bool faithful() const {
    return scale >= 1.0 || ((data_exceeds_memory() || full_fits_memory) &&
                            levels >= full_levels);
  }
  // "~26 MiB of data, under 56 MiB of memtables + cache; 0 of 2 LSM levels".
  std::string Text() const;
};

// `full` is the config at full size, `trial` as the copy runs it (its
// cache scaled), `copy`/`whole` the data shapes of the copy and the full
// size.
CopyFidelity FidelityOf(const EngineModel& m, const DataShape& whole,
                        const DataShape& copy, const TuneConfig& full,
                        const TuneConfig& trial, double scale);

// True for a knob a copy judges only when faithful for both sides: the
// knobs that shape the LSM (ShapesLsm) and the table file size.
bool NeedsFaithfulCopy(Knob k);

}  // namespace disktune::tune
