#include "src/tune/knobs.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "engines/engine_library.h"
#include "src/core/units.h"

namespace disktune::tune {
namespace {

constexpr std::array<std::string_view, 2> kTunable = {"leveldb", "rocksdb"};

// The engine knob table's defaults for `engine`, as a TuneConfig.
TuneConfig TableDefaults(std::string_view engine) {
  EngineOptions o;
  for (const KnobSpec& k : Knobs()) o.Set(k.id, KnobDefault(k, engine));
  return FromEngineOptions(o, TuneConfig{});
}

EngineModel LevelDbModel() {
  EngineModel m;
  m.id = "leveldb";
  m.version = DescribeEngineLibrary(m.id).version;
  m.defaults = TableDefaults(m.id);
  // SanitizeOptions() in db/db_impl.cc clips these ranges.
  m.write_buffers = 2;  // mem_ and imm_
  m.min_write_buffer_bytes = 64 * kKiB;
  m.max_write_buffer_bytes = 1 * kGiB;
  m.min_file_bytes = 1 * kMiB;
  m.max_file_bytes = 1 * kGiB;
  m.min_open_files = 64 + 10;
  m.max_open_files = 50000;
  m.min_block_bytes = 1 * kKiB;
  m.compressions = {Compression::kSnappy, Compression::kNone};
  // MaxBytesForLevel() in db/version_set.cc: 10 MB, x10 per level.
  m.level1_bytes = 10 * kMiB;
  m.level_multiplier = 10;
  // The cache charges block->size(); each entry also holds an LRUHandle
  // with its key, the Block object and malloc rounding: ~200 B per block
  // (benchmarks/README.md, Tuner design records: LevelDB's cache entry
  // overhead).
  m.cache_entry_overhead_bytes = 200;
  return m;
}

EngineModel RocksDbModel() {
  EngineModel m;
  m.id = "rocksdb";
  m.version = DescribeEngineLibrary(m.id).version;
  m.defaults = TableDefaults(m.id);
  m.write_buffers = 2;  // max_write_buffer_number
  m.min_write_buffer_bytes = 64 * kKiB;
  m.max_write_buffer_bytes = 64 * kGiB;
  m.min_file_bytes = 1 * kMiB;
  m.max_file_bytes = 64 * kGiB;
  m.min_open_files = 20;
  m.max_open_files = 1 << 20;
  m.min_block_bytes = 1 * kKiB;
  m.compressions = {Compression::kSnappy, Compression::kLz4, Compression::kZstd,
                    Compression::kNone};
  // max_bytes_for_level_base and max_bytes_for_level_multiplier.
  m.level1_bytes = 256 * kMiB;
  m.level_multiplier = 10;
  return m;
}

}  // namespace

bool IsTunableEngine(std::string_view id) {
  return std::find(kTunable.begin(), kTunable.end(), id) != kTunable.end();
}

std::string TunableEngineList() {
  std::string out;
  for (std::string_view e : kTunable) {
    if (!out.empty()) out += ", ";
    out += e;
  }
  return out;
}

std::span<const Knob> AllKnobs() {
  auto build = [] {
    std::vector<Knob> all;
    for (const KnobSpec& k : Knobs()) {
      if (k.id != KnobId::kCacheBytes) all.push_back(Knob{&k});
    }
    all.push_back(Knob{});  // the batch
    return all;
  };
  static std::vector<Knob> all = build();
  // The table grows only in tests (ScopedExtraKnobForTest), between tunes.
  if (all.size() != Knobs().size()) all = build();
  return all;
}

Knob KnobNamed(std::string_view name) {
  for (Knob k : AllKnobs()) {
    if (k.name() == name) return k;
  }
  return Knob{};
}

bool ShapesLsm(Knob k) { return k.spec != nullptr && k.spec->shapes_lsm; }

KnobValues TuneConfig::InitialKnobs() {
  KnobValues v;
  v.Set(KnobId::kCacheBytes, 0);
  v.Set(KnobId::kWriteBufferBytes, 0);
  v.Set(KnobId::kBloomBitsPerKey, 0);
  v.Set(KnobId::kCompression, Compression::kSnappy);
  v.Set(KnobId::kBlockSizeBytes, 4 * kKiB);
  v.Set(KnobId::kMaxFileBytes, 2 * kMiB);
  return v;
}

void TuneConfig::Set(KnobId id, std::optional<KnobValue> v) {
  if (!v.has_value() ||
      (v.value() < 0 && KnobRow(id).unit == KnobUnit::kCount)) {
    knobs.Unset(id);
  } else {
    knobs.Set(id, v.value());
  }
}

EngineOptions ToEngineOptions(const TuneConfig& c) {
  EngineOptions o;
  for (const KnobSpec& k : Knobs()) o.Set(k.id, c.Get(k.id));
  o.sync = c.sync;
  return o;
}

TuneConfig FromEngineOptions(const EngineOptions& o, const TuneConfig& base) {
  TuneConfig c = base;
  for (const KnobSpec& k : Knobs()) {
    if (std::optional<KnobValue> v = o.Get(k.id)) c.Set(k.id, v);
  }
  return c;
}

KnobValue KnobValueOf(const TuneConfig& c, Knob k) {
  if (k.spec == nullptr) return static_cast<KnobValue>(c.entries_per_batch);
  return c.Get(k.spec->id).value_or(-1);
}

nlohmann::json KnobValueJson(const TuneConfig& c, Knob k) {
  if (k.spec == nullptr) return c.entries_per_batch;
  return KnobValueToJson(*k.spec, KnobValueOf(c, k));
}

bool KnobDiffers(const TuneConfig& a, const TuneConfig& b, Knob k) {
  return KnobValueOf(a, k) != KnobValueOf(b, k);
}

void CopyKnob(const TuneConfig& from, Knob k, TuneConfig* to) {
  if (k.spec == nullptr) {
    to->entries_per_batch = from.entries_per_batch;
  } else {
    to->Set(k.spec->id, from.Get(k.spec->id));
  }
}

std::string KnobValueText(const TuneConfig& c, Knob k) {
  if (k.spec == nullptr) return std::to_string(c.entries_per_batch);
  return disktune::KnobValueText(*k.spec, KnobValueOf(c, k));
}

std::string ConfigText(const TuneConfig& c) {
  std::string s;
  for (const KnobSpec& k : Knobs()) {
    std::optional<KnobValue> v = c.Get(k.id);
    // Unset: RocksDB's own knobs in a LevelDB config; an unlimited count.
    if (!v && k.unit == KnobUnit::kCount && !IsRocksDbOnly(k)) v = -1;
    if (!v || (IsRocksDbOnly(k) && v == k.rocksdb.default_value)) continue;
    if (!s.empty()) s += ", ";
    s += std::string(k.name) + " " + disktune::KnobValueText(k, *v);
  }
  if (c.entries_per_batch != 1) {
    s += ", batch " + std::to_string(c.entries_per_batch);
  }
  return s;
}

const EngineModel& ModelFor(std::string_view id) {
  static const EngineModel kLevelDb = LevelDbModel();
  static const EngineModel kRocksDb = RocksDbModel();
  return id == "rocksdb" ? kRocksDb : kLevelDb;
}

uint64_t EstimateDbBytes(const DataShape& shape, const TuneConfig& c) {
  // Per entry in a table block: the internal key (user key + 8-byte
  // sequence/type), ~3 bytes of varint lengths, and the value, which the
  // block compressor shrinks to about compression_ratio.
  double value = static_cast<double>(shape.value_bytes);
  if (c.compression() != Compression::kNone) value *= shape.compression_ratio;
  double per_entry = static_cast<double>(shape.key_bytes) + 8 + 3 + value;
  return static_cast<uint64_t>(
      std::ceil(1.1 * per_entry * static_cast<double>(shape.live_entries)));
}

int LsmDepth(const EngineModel& m, uint64_t db_bytes) {
  double level = static_cast<double>(m.level1_bytes);
  double held = level;
  int depth = 1;
  while (held < static_cast<double>(db_bytes) && depth < 6) {  // L1..L6
    level *= m.level_multiplier;
    held += level;
    depth++;
  }
  return depth;
}

uint64_t EstimateTableCount(const DataShape& shape, const TuneConfig& c) {
  uint64_t file = std::max<uint64_t>(c.max_file_bytes(), 1);
  // Level 0 holds up to ~4 files (one per flushed write buffer) on top of
  // the sorted levels.
  return (EstimateDbBytes(shape, c) + file - 1) / file + 4;
}

uint64_t EstimateTableMemoryBytes(const DataShape& shape, const TuneConfig& c) {
  double entries = 1.1 * static_cast<double>(shape.live_entries);
  double filter = entries * c.bloom_bits_per_key() / 8.0;
  double blocks =
      static_cast<double>(EstimateDbBytes(shape, c)) /
      static_cast<double>(std::max<uint64_t>(c.block_size_bytes(), 1));
  // An index entry: the shortened separator key plus a block handle.
  double index = blocks * (static_cast<double>(shape.key_bytes) + 12);
  return static_cast<uint64_t>(std::ceil(filter + index));
}

int WriteBuffersHeld(const EngineModel& m, const TuneConfig& c) {
  return static_cast<int>(
      c.Get(KnobId::kMaxWriteBufferNumber).value_or(m.write_buffers));
}

uint64_t MemtableBytes(const EngineModel& m, const TuneConfig& c) {
  return static_cast<uint64_t>(WriteBuffersHeld(m, c)) * c.write_buffer_bytes();
}

Result<MemorySplit> SplitBudget(const EngineModel& m, uint64_t budget_bytes,
                                const DataShape& shape, const TuneConfig& c,
                                std::optional<uint64_t> cache_cap_bytes) {
  MemorySplit s;
  s.write_buffers_bytes = MemtableBytes(m, c);
  s.table_memory_bytes = EstimateTableMemoryBytes(shape, c);
  uint64_t fixed = s.write_buffers_bytes + s.table_memory_bytes;
  if (fixed + kMinCacheBytes > budget_bytes) {
    return Status::InvalidArgument(
        FormatBytes(static_cast<double>(s.write_buffers_bytes)) +
        " of write buffers + " +
        FormatBytes(static_cast<double>(s.table_memory_bytes)) +
        " of index/filter blocks leave no block cache in " +
        FormatBytes(static_cast<double>(budget_bytes)));
  }
  // The cache's capacity such that capacity plus its entries' overhead fit
  // what is left.
  const uint64_t left = budget_bytes - fixed;
  double block =
      static_cast<double>(std::max<uint64_t>(c.block_size_bytes(), 1));
  double per_byte =
      1.0 + static_cast<double>(m.cache_entry_overhead_bytes) / block;
  const uint64_t fills =
      static_cast<uint64_t>(std::floor(static_cast<double>(left) / per_byte));
  s.cache_room_bytes = fills;
  s.cache_bytes = fills;
  if (cache_cap_bytes) {
    s.cache_bytes = std::max(kMinCacheBytes, std::min(fills, *cache_cap_bytes));
  }
  // A cache that takes all that is left leaves its overhead the rest (the
  // capacity's rounding, under 1.05 bytes, included); a capped one, its own.
  s.cache_overhead_bytes =
      s.cache_bytes == fills
          ? left - fills
          : static_cast<uint64_t>(std::ceil(static_cast<double>(s.cache_bytes) *
                                            (per_byte - 1.0)));
  return s;
}

}  // namespace disktune::tune
