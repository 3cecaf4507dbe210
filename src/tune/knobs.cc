#include "src/tune/knobs.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "src/core/units.h"

namespace disktune::tune {
namespace {

constexpr std::array<std::string_view, 2> kTunable = {"leveldb", "rocksdb"};

constexpr std::array<Knob, 7> kKnobs = {Knob::kWriteBuffer,  Knob::kBloom,
                                        Knob::kCompression,  Knob::kBlockSize,
                                        Knob::kMaxOpenFiles, Knob::kMaxFileSize,
                                        Knob::kBatch};

EngineModel LevelDbModel() {
  EngineModel m;
  m.id = "leveldb";
  m.version = "1.23";
  // leveldb::Options() in include/leveldb/options.h, and the 8 MiB LRU cache
  // DBImpl creates when block_cache is null.
  m.defaults.cache_bytes = 8 * kMiB;
  m.defaults.write_buffer_bytes = 4 * kMiB;
  m.defaults.bloom_bits_per_key = 0;
  m.defaults.compression = Compression::kSnappy;
  m.defaults.block_size_bytes = 4 * kKiB;
  m.defaults.max_open_files = 1000;
  m.defaults.max_file_bytes = 2 * kMiB;
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
  return m;
}

EngineModel RocksDbModel() {
  EngineModel m;
  m.id = "rocksdb";
  m.version = "7.8";
  // rocksdb::Options() and BlockBasedTableOptions() of 7.8 (table.h: "If
  // NULL, rocksdb will automatically create and use an 8MB internal cache").
  m.defaults.cache_bytes = 8 * kMiB;
  m.defaults.write_buffer_bytes = 64 * kMiB;
  m.defaults.bloom_bits_per_key = 0;
  m.defaults.compression = Compression::kSnappy;
  m.defaults.block_size_bytes = 4 * kKiB;
  m.defaults.max_open_files = std::nullopt;  // -1
  m.defaults.max_file_bytes = 64 * kMiB;     // target_file_size_base
  m.write_buffers = 2;                       // max_write_buffer_number
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

std::span<const std::string_view> TunableEngines() { return kTunable; }

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

std::span<const Knob> AllKnobs() { return kKnobs; }

const char* KnobName(Knob k) {
  switch (k) {
    case Knob::kWriteBuffer:
      return "write_buffer_bytes";
    case Knob::kBloom:
      return "bloom_bits_per_key";
    case Knob::kCompression:
      return "compression";
    case Knob::kBlockSize:
      return "block_size_bytes";
    case Knob::kMaxOpenFiles:
      return "max_open_files";
    case Knob::kMaxFileSize:
      return "max_file_bytes";
    case Knob::kBatch:
      return "entries_per_batch";
  }
  return "?";
}

bool KnobDiffers(const TuneConfig& a, const TuneConfig& b, Knob k) {
  switch (k) {
    case Knob::kWriteBuffer:
      return a.write_buffer_bytes != b.write_buffer_bytes;
    case Knob::kBloom:
      return a.bloom_bits_per_key != b.bloom_bits_per_key;
    case Knob::kCompression:
      return a.compression != b.compression;
    case Knob::kBlockSize:
      return a.block_size_bytes != b.block_size_bytes;
    case Knob::kMaxOpenFiles:
      return a.max_open_files != b.max_open_files;
    case Knob::kMaxFileSize:
      return a.max_file_bytes != b.max_file_bytes;
    case Knob::kBatch:
      return a.entries_per_batch != b.entries_per_batch;
  }
  return false;
}

void CopyKnob(const TuneConfig& from, Knob k, TuneConfig* to) {
  switch (k) {
    case Knob::kWriteBuffer:
      to->write_buffer_bytes = from.write_buffer_bytes;
      break;
    case Knob::kBloom:
      to->bloom_bits_per_key = from.bloom_bits_per_key;
      break;
    case Knob::kCompression:
      to->compression = from.compression;
      break;
    case Knob::kBlockSize:
      to->block_size_bytes = from.block_size_bytes;
      break;
    case Knob::kMaxOpenFiles:
      to->max_open_files = from.max_open_files;
      break;
    case Knob::kMaxFileSize:
      to->max_file_bytes = from.max_file_bytes;
      break;
    case Knob::kBatch:
      to->entries_per_batch = from.entries_per_batch;
      break;
  }
}

std::string KnobValueText(const TuneConfig& c, Knob k) {
  auto bytes = [](uint64_t b) { return FormatBytes(static_cast<double>(b)); };
  switch (k) {
    case Knob::kWriteBuffer:
      return bytes(c.write_buffer_bytes);
    case Knob::kBloom:
      return c.bloom_bits_per_key > 0
                 ? std::to_string(c.bloom_bits_per_key) + " bits/key"
                 : "none";
    case Knob::kCompression:
      return CompressionName(c.compression);
    case Knob::kBlockSize:
      return bytes(c.block_size_bytes);
    case Knob::kMaxOpenFiles:
      return c.max_open_files ? std::to_string(*c.max_open_files) : "unlimited";
    case Knob::kMaxFileSize:
      return bytes(c.max_file_bytes);
    case Knob::kBatch:
      return std::to_string(c.entries_per_batch);
  }
  return "?";
}

std::string ConfigText(const TuneConfig& c) {
  std::string s = "wb " + KnobValueText(c, Knob::kWriteBuffer) + ", cache " +
                  FormatBytes(static_cast<double>(c.cache_bytes)) + ", bloom " +
                  KnobValueText(c, Knob::kBloom) + ", " +
                  KnobValueText(c, Knob::kCompression) + ", block " +
                  KnobValueText(c, Knob::kBlockSize) + ", open files " +
                  KnobValueText(c, Knob::kMaxOpenFiles) + ", file " +
                  KnobValueText(c, Knob::kMaxFileSize);
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
  if (c.compression != Compression::kNone) value *= shape.compression_ratio;
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
  uint64_t file = std::max<uint64_t>(c.max_file_bytes, 1);
  // Level 0 holds up to ~4 files (one per flushed write buffer) on top of
  // the sorted levels.
  return (EstimateDbBytes(shape, c) + file - 1) / file + 4;
}

uint64_t EstimateTableMemoryBytes(const DataShape& shape, const TuneConfig& c) {
  double entries = 1.1 * static_cast<double>(shape.live_entries);
  double filter = entries * c.bloom_bits_per_key / 8.0;
  double blocks =
      static_cast<double>(EstimateDbBytes(shape, c)) /
      static_cast<double>(std::max<uint64_t>(c.block_size_bytes, 1));
  // An index entry: the shortened separator key plus a block handle.
  double index = blocks * (static_cast<double>(shape.key_bytes) + 12);
  return static_cast<uint64_t>(std::ceil(filter + index));
}

Result<MemorySplit> SplitBudget(const EngineModel& m, uint64_t budget_bytes,
                                const DataShape& shape, const TuneConfig& c,
                                std::optional<uint64_t> cache_cap_bytes) {
  MemorySplit s;
  s.write_buffers_bytes =
      static_cast<uint64_t>(m.write_buffers) * c.write_buffer_bytes;
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
  s.cache_bytes = budget_bytes - fixed;
  if (cache_cap_bytes) {
    s.cache_bytes =
        std::max(kMinCacheBytes, std::min(s.cache_bytes, *cache_cap_bytes));
  }
  return s;
}

EngineOptions ToEngineOptions(const TuneConfig& c) {
  EngineOptions o;
  o.cache_bytes = c.cache_bytes;
  o.write_buffer_bytes = c.write_buffer_bytes;
  o.bloom_bits_per_key = c.bloom_bits_per_key;
  o.compression = c.compression;
  o.block_size_bytes = c.block_size_bytes;
  o.max_open_files = c.max_open_files;
  o.max_file_bytes = c.max_file_bytes;
  o.sync = c.sync;
  return o;
}

}  // namespace disktune::tune
