// The knobs the tuner decides, the engines' own defaults for them, and the
// memory model that splits a budget between write buffers, the block cache
// and the per-table index/filter blocks.
//
// A TuneConfig sets every knob the engine has (unset only where the engine
// has no such option, or for unlimited open files): trials always pass
// every knob explicitly, so a scenario set's own engine options can never
// leak into a trial, and "the default" is the engine's documented default
// value.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "engines/engine.h"
#include "src/core/status.h"
#include "src/model/knob_spec.h"

namespace disktune::tune {

inline constexpr uint64_t kKiB = 1024;
inline constexpr uint64_t kMiB = 1024 * kKiB;
inline constexpr uint64_t kGiB = 1024 * kMiB;

// The engines the tuner supports (the LSM engines whose knobs it models).
bool IsTunableEngine(std::string_view id);
std::string TunableEngineList();  // "leveldb, rocksdb"

// A knob the tuner decides: a row of the engine knob table
// (src/model/knob_spec.h), or, with no row, the entries per synced write batch
// (group commit: a setting of the writer, not an engine option).
struct Knob {
  const KnobSpec* spec = nullptr;
  // The JSON / EngineOptions name: "write_buffer_bytes", ...,
  // "entries_per_batch".
  std::string_view name() const {
    return spec != nullptr ? spec->json_key : "entries_per_batch";
  }
  static Knob Of(KnobId id) { return Knob{&KnobRow(id)}; }
  bool operator==(const Knob&) const = default;
};
// Every row of Knobs() but the block cache (the budget's remainder, never
// searched on its own), then the batch.
std::span<const Knob> AllKnobs();
// REQUIRES: `name` is a Knob's name().
Knob KnobNamed(std::string_view name);
inline const char* KnobName(Knob k) { return k.name().data(); }

// A value per row of the knob table (src/model/knob_spec.h), indexed by
// KnobId, plus the two settings of the writer. Generic code (the engine
// options, "does it differ?", copying one knob, the text) reads and writes
// the row by id; the typed accessors below are for the memory model and
// the rules, which do arithmetic on a few knobs.
struct TuneConfig {
  // Unset = no value: RocksDB's own knobs in a LevelDB config (LevelDB has
  // no such options), or a count that is unlimited (max_open_files,
  // RocksDB's -1: every table stays open). TuneConfig{} starts from the
  // values below; the tuner's configs start from EngineModel::defaults.
  KnobValues knobs = InitialKnobs();
  uint64_t entries_per_batch = 1;
  bool sync = false;

  std::optional<KnobValue> Get(KnobId id) const { return knobs.Get(id); }
  // A negative count (RocksDB's -1) is stored unset: unlimited.
  void Set(KnobId id, std::optional<KnobValue> v);
  template <typename E>
  requires std::is_enum_v<E>
  void Set(KnobId id, E v) { Set(id, static_cast<KnobValue>(v)); }

  uint64_t cache_bytes() const { return Bytes(KnobId::kCacheBytes); }
  uint64_t write_buffer_bytes() const {
    return Bytes(KnobId::kWriteBufferBytes);
  }
  int bloom_bits_per_key() const {  // 0 = no filter
    return static_cast<int>(Get(KnobId::kBloomBitsPerKey).value_or(0));
  }
  Compression compression() const {
    return static_cast<Compression>(
        Get(KnobId::kCompression)
            .value_or(static_cast<KnobValue>(Compression::kSnappy)));
  }
  uint64_t block_size_bytes() const { return Bytes(KnobId::kBlockSizeBytes); }
  // nullopt = unlimited.
  std::optional<int> max_open_files() const {
    auto v = Get(KnobId::kMaxOpenFiles);
    if (!v) return std::nullopt;
    return static_cast<int>(*v);
  }
  uint64_t max_file_bytes() const { return Bytes(KnobId::kMaxFileBytes); }

  bool operator==(const TuneConfig&) const = default;

 private:
  uint64_t Bytes(KnobId id) const {
    return static_cast<uint64_t>(Get(id).value_or(0));
  }
  static KnobValues InitialKnobs();
};

// The one place TuneConfig meets EngineOptions: each row's value, unset
// where the config leaves it unset (unlimited open files is unset in
// EngineOptions too, as RocksDB's default -1 is). FromEngineOptions is
// `base` with every knob `o` sets.
EngineOptions ToEngineOptions(const TuneConfig& c);
TuneConfig FromEngineOptions(const EngineOptions& o, const TuneConfig& base);
// Knob k's value in c, as the knob table spells it (-1 = unlimited or
// unset).
KnobValue KnobValueOf(const TuneConfig& c, Knob k);
// The value as JSON: a number, or the codec's name.
nlohmann::json KnobValueJson(const TuneConfig& c, Knob k);

// True for a knob that sets the LSM's shape (KnobSpec::shapes_lsm): the
// tuner does not rank it on copies that fill fewer levels than the full size.
bool ShapesLsm(Knob k);

// True when a and b differ in knob k (the cache is derived, never a knob).
bool KnobDiffers(const TuneConfig& a, const TuneConfig& b, Knob k);
// Copies knob k from `from` into `to`.
void CopyKnob(const TuneConfig& from, Knob k, TuneConfig* to);
// The knob's value for people: "48 MiB", "10 bits", "none", "4 KiB", "1000".
std::string KnobValueText(const TuneConfig& c, Knob k);
// "write buffer 48 MiB, block cache 28 MiB, bloom filter 10 bits/key, ..."
// (for logs): every knob c sets, in the table's order, then the batch when
// it is not 1; RocksDB's own knobs only where they leave its defaults.
std::string ConfigText(const TuneConfig& c);

// The engine's own defaults (leveldb::Options(), rocksdb::Options()) and the
// values it silently clamps knobs to, so the tuner never proposes a value
// the engine would change behind its back.
struct EngineModel {
  std::string_view id;
  // Of the library this build links, as engines/engine_library.h finds it
  // ("1.23", "7.8.3"); empty when the build has no such engine.
  std::string version;
  // The knob table's defaults for this engine, with its own block cache.
  TuneConfig defaults;
  // Memtables held at once by default (LevelDB: the active one and one
  // being flushed; RocksDB: max_write_buffer_number, default 2, which a
  // config may raise: WriteBuffersHeld).
  int write_buffers = 2;
  uint64_t min_write_buffer_bytes = 64 * kKiB;
  uint64_t max_write_buffer_bytes = 1 * kGiB;
  uint64_t min_file_bytes = 1 * kMiB;
  uint64_t max_file_bytes = 1 * kGiB;
  int min_open_files = 74;  // LevelDB: 64 + 10 files it keeps for itself
  int max_open_files = 50000;
  uint64_t min_block_bytes = 1 * kKiB;
  std::vector<Compression> compressions;  // what the tuner may choose
  // Level sizes of the LSM below level 0: level 1 holds level1_bytes, each
  // deeper level level_multiplier times the one above it.
  uint64_t level1_bytes = 10 * kMiB;
  double level_multiplier = 10;
  // Memory a cached block holds beyond what the cache charges for it (its
  // handle, the Block object, allocator rounding). LevelDB charges the
  // block's contents only; RocksDB charges this too, by default.
  uint64_t cache_entry_overhead_bytes = 0;
};
// REQUIRES: IsTunableEngine(id).
const EngineModel& ModelFor(std::string_view id);

// Memtables `c` lets the engine hold at once: RocksDB's
// max_write_buffer_number when c sets it, else the model's.
int WriteBuffersHeld(const EngineModel& m, const TuneConfig& c);
// The memtable memory `c` lets the engine hold: WriteBuffersHeld x
// write_buffer_bytes.
uint64_t MemtableBytes(const EngineModel& m, const TuneConfig& c);

// The part of the workload the memory model and the table-count rule need.
struct DataShape {
  uint64_t live_entries = 0;  // distinct keys held
  uint64_t key_bytes = 16;
  uint64_t value_bytes = 100;
  double compression_ratio = 0.5;
  // User bytes, keys + values, of the live entries.
  uint64_t user_bytes() const {
    return live_entries * (key_bytes + value_bytes);
  }
};

// Estimated bytes of the table files for `shape` under `c`: the compressed
// (or raw) entries plus per-entry overhead, times LevelDB's usual space
// amplification of ~1.1 from obsolete versions.
uint64_t EstimateDbBytes(const DataShape& shape, const TuneConfig& c);
// Levels below level 0 that `db_bytes` of tables fill under `m`'s level
// sizes: 1 while they fit level 1, 2 while they fit levels 1 and 2, ...
int LsmDepth(const EngineModel& m, uint64_t db_bytes);
// Estimated number of table files.
uint64_t EstimateTableCount(const DataShape& shape, const TuneConfig& c);
// Memory held outside the block cache for the open tables: bloom filters
// (bits/8 per key) and index blocks (one entry per block), both pinned by
// the table cache in LevelDB and by default in RocksDB.
uint64_t EstimateTableMemoryBytes(const DataShape& shape, const TuneConfig& c);

// The budget split: write buffers first, table memory second, the block
// cache gets the rest (capped at `cache_cap_bytes` when given: a cache above
// the working set buys nothing), less what its entries hold beyond their
// charge. NotFound-style InvalidArgument when the write buffers and table
// memory alone exceed the budget.
struct MemorySplit {
  // WriteBuffersHeld x write_buffer_bytes: the most the engine keeps.
  uint64_t write_buffers_bytes = 0;
  uint64_t table_memory_bytes = 0;
  uint64_t cache_bytes = 0;  // the cache's capacity, as configured
  // The capacity the budget leaves after the rest (cache_bytes without a
  // cap): a cache_bytes below it was capped.
  uint64_t cache_room_bytes = 0;
  // What a full cache of cache_bytes holds beyond its charge
  // (cache_entry_overhead_bytes per block).
  uint64_t cache_overhead_bytes = 0;
  uint64_t total_bytes() const {
    return write_buffers_bytes + table_memory_bytes + cache_bytes +
           cache_overhead_bytes;
  }
};
Result<MemorySplit> SplitBudget(const EngineModel& m, uint64_t budget_bytes,
                                const DataShape& shape, const TuneConfig& c,
                                std::optional<uint64_t> cache_cap_bytes);

// The smallest block cache worth configuring: below it the engine spends
// more on cache bookkeeping than it saves.
inline constexpr uint64_t kMinCacheBytes = 256 * kKiB;

}  // namespace disktune::tune
