#include "src/model/knob_spec.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <limits>
#include <vector>

#include "src/core/sysinfo.h"
#include "src/core/units.h"

namespace disktune {
namespace {

constexpr KnobValue kKiB = 1024;
constexpr KnobValue kMiB = 1024 * kKiB;
constexpr KnobValue kNoMax = std::numeric_limits<KnobValue>::max();
constexpr KnobValue kUnlimited = -1;

// kEnum choices, in the order of their enums in engines/engine.h.
constexpr KnobChoice kBottommostChoices[] = {
    {"same", "kDisableCompressionOption"},
    {"none", "kNoCompression"},
    {"snappy", "kSnappyCompression"},
    {"lz4", "kLZ4Compression"},
    {"zstd", "kZSTD"},
};
// The OPTIONS file spells compression_per_level as a list of codecs, which
// depends on the compression knob: engines/rocksdb_option_map.cc spells it.
constexpr KnobChoice kPerLevelChoices[] = {
    {"uniform", ""},
    {"none-to-l1", ""},
};
constexpr KnobChoice kCompactionStyles[] = {
    {"level", "kCompactionStyleLevel"},
    {"universal", "kCompactionStyleUniversal"},
};

// Defaults: leveldb::Options() of 1.23 (include/leveldb/options.h, and the
// 8 MiB LRU cache DBImpl creates when block_cache is null); rocksdb::Options()
// and BlockBasedTableOptions() of 7.8 (table.h: "If NULL, rocksdb will
// automatically create and use an 8MB internal cache").
//
// RocksDB's own knobs follow (no LevelDB default): options.h and
// advanced_options.h of 7.8.3 for the defaults, the OPTIONS file's sections
// and keys for the names.
constexpr std::string_view kDb = "DBOptions";
constexpr std::string_view kCf = "CFOptions";
constexpr std::string_view kTable = "TableOptions/BlockBasedTable";

// The named rows first, in KnobId's order, then rows nobody names by id
// (checked below).
constexpr KnobSpec kRows[] = {
    {.id = KnobId::kCacheBytes,
     .name = "block cache",
     .json_key = "cache_bytes",
     .flag = "cache-size",
     .help = "block cache, e.g. 8MiB (default: engine's)",
     .example = "8MiB",
     .unit = KnobUnit::kBytes,
     .min_value = 0,
     .max_value = kNoMax,
     .leveldb = {8 * kMiB, "block_cache"},
     .rocksdb = {8 * kMiB, "block_cache", kTable}},
    {.id = KnobId::kWriteBufferBytes,
     .name = "write buffer",
     .json_key = "write_buffer_bytes",
     .flag = "write-buffer-size",
     .help = "write buffer / memtable, e.g. 4MiB (default: engine's)",
     .example = "4MiB",
     .unit = KnobUnit::kBytes,
     .min_value = 64 * kKiB,
     .max_value = kNoMax,
     .leveldb = {4 * kMiB, "write_buffer_size"},
     .rocksdb = {64 * kMiB, "write_buffer_size", kCf},
     .shapes_lsm = true},
    {.id = KnobId::kBloomBitsPerKey,
     .name = "bloom filter",
     .json_key = "bloom_bits_per_key",
     .flag = "bloom-bits",
     .help = "bloom filter bits per key (0 = none)",
     .example = "10",
     .unit = KnobUnit::kBitsPerKey,
     .min_value = 0,
     .max_value = 64,
     .leveldb = {0, "filter_policy"},
     .rocksdb = {0, "filter_policy", kTable}},
    {.id = KnobId::kCompression,
     .name = "compression",
     .json_key = "compression",
     .flag = "compression",
     .help = "none, snappy, lz4, zstd, lzo",
     .example = "snappy",
     .unit = KnobUnit::kCompression,
     .min_value = 0,
     .max_value = static_cast<KnobValue>(Compression::kLzo),
     .leveldb = {static_cast<KnobValue>(Compression::kSnappy), "compression"},
     .rocksdb = {static_cast<KnobValue>(Compression::kSnappy), "compression",
                 kCf}},
    {.id = KnobId::kBlockSizeBytes,
     .name = "block size",
     .json_key = "block_size_bytes",
     .flag = "block-size",
     .help = "table block size, e.g. 4KiB",
     .example = "4KiB",
     .unit = KnobUnit::kBytes,
     .min_value = 256,
     .max_value = kNoMax,
     .leveldb = {4 * kKiB, "block_size"},
     .rocksdb = {4 * kKiB, "block_size", kTable}},
    {.id = KnobId::kMaxOpenFiles,
     .name = "open files",
     .json_key = "max_open_files",
     .flag = "max-open-files",
     .help = "table files kept open",
     .example = "1000",
     .unit = KnobUnit::kCount,
     .min_value = 1,
     .max_value = std::numeric_limits<int>::max(),
     .leveldb = {1000, "max_open_files"},
     .rocksdb = {kUnlimited, "max_open_files", kDb}},
    {.id = KnobId::kMaxFileBytes,
     .name = "table file size",
     .json_key = "max_file_bytes",
     .flag = "max-file-size",
     .help = "table file size, e.g. 2MiB",
     .example = "2MiB",
     .unit = KnobUnit::kBytes,
     .min_value = 0,
     .max_value = kNoMax,
     .leveldb = {2 * kMiB, "max_file_size"},
     .rocksdb = {64 * kMiB, "target_file_size_base", kCf}},
    {.id = KnobId::kMaxWriteBufferNumber,
     .name = "write buffers kept",
     .json_key = "max_write_buffer_number",
     .flag = "max-write-buffer-number",
     .help =
         "memtables RocksDB keeps (active + immutable) before it stalls writes",
     .example = "4",
     .unit = KnobUnit::kCount,
     .min_value = 2,
     .max_value = 64,
     .rocksdb = {2, "max_write_buffer_number", kCf},
     .shapes_lsm = true},
    {.id = KnobId::kMinWriteBufferNumberToMerge,
     .name = "write buffers merged",
     .json_key = "min_write_buffer_number_to_merge",
     .flag = "min-write-buffer-number-to-merge",
     .help = "immutable memtables merged into one level-0 file per flush",
     .example = "1",
     .unit = KnobUnit::kCount,
     .min_value = 1,
     .max_value = 64,
     .rocksdb = {1, "min_write_buffer_number_to_merge", kCf},
     .shapes_lsm = true},
    {.id = KnobId::kLevel0FileNumCompactionTrigger,
     .name = "level-0 compaction trigger",
     .json_key = "level0_file_num_compaction_trigger",
     .flag = "level0-file-num-compaction-trigger",
     .help = "level-0 files that start a compaction into level 1",
     .example = "4",
     .unit = KnobUnit::kCount,
     .min_value = 1,
     .max_value = 100000,
     .rocksdb = {4, "level0_file_num_compaction_trigger", kCf},
     .shapes_lsm = true},
    {.id = KnobId::kLevel0SlowdownWritesTrigger,
     .name = "level-0 slowdown trigger",
     .json_key = "level0_slowdown_writes_trigger",
     .flag = "level0-slowdown-writes-trigger",
     .help = "level-0 files at which RocksDB slows writes down",
     .example = "20",
     .unit = KnobUnit::kCount,
     .min_value = 1,
     .max_value = 100000,
     .rocksdb = {20, "level0_slowdown_writes_trigger", kCf},
     .shapes_lsm = true},
    {.id = KnobId::kLevel0StopWritesTrigger,
     .name = "level-0 stop trigger",
     .json_key = "level0_stop_writes_trigger",
     .flag = "level0-stop-writes-trigger",
     .help = "level-0 files at which RocksDB stops writes",
     .example = "36",
     .unit = KnobUnit::kCount,
     .min_value = 1,
     .max_value = 100000,
     .rocksdb = {36, "level0_stop_writes_trigger", kCf},
     .shapes_lsm = true},
    {.id = KnobId::kMaxBytesForLevelBase,
     .name = "level-1 size",
     .json_key = "max_bytes_for_level_base",
     .flag = "max-bytes-for-level-base",
     .help = "bytes level 1 holds before it compacts down, e.g. 256MiB",
     .example = "256MiB",
     .unit = KnobUnit::kBytes,
     .min_value = 1 * kMiB,
     .max_value = kNoMax,
     .rocksdb = {256 * kMiB, "max_bytes_for_level_base", kCf},
     .shapes_lsm = true},
    {.id = KnobId::kMaxBytesForLevelMultiplier,
     .name = "level size multiplier",
     .json_key = "max_bytes_for_level_multiplier",
     .flag = "max-bytes-for-level-multiplier",
     .help = "growth of each level over the one above it (whole numbers)",
     .example = "10",
     .unit = KnobUnit::kCount,
     .min_value = 2,
     .max_value = 100,
     .rocksdb = {10, "max_bytes_for_level_multiplier", kCf},
     .shapes_lsm = true},
    {.id = KnobId::kMaxBackgroundJobs,
     .name = "background jobs",
     .json_key = "max_background_jobs",
     .flag = "max-background-jobs",
     .help = "flush and compaction threads",
     .example = "4",
     .unit = KnobUnit::kCount,
     .min_value = 1,
     .max_value = 1024,
     .rocksdb = {2, "max_background_jobs", kDb}},
    {.id = KnobId::kBytesPerSync,
     .name = "bytes per sync",
     .json_key = "bytes_per_sync",
     .flag = "bytes-per-sync",
     .help = "sync table files in the background every SIZE written (0 = "
             "never), e.g. 1MiB",
     .example = "1MiB",
     .unit = KnobUnit::kBytes,
     .min_value = 0,
     .max_value = kNoMax,
     .rocksdb = {0, "bytes_per_sync", kDb}},
    {.id = KnobId::kWalBytesPerSync,
     .name = "WAL bytes per sync",
     .json_key = "wal_bytes_per_sync",
     .flag = "wal-bytes-per-sync",
     .help = "sync the write-ahead log in the background every SIZE written "
             "(0 = never), e.g. 1MiB",
     .example = "1MiB",
     .unit = KnobUnit::kBytes,
     .min_value = 0,
     .max_value = kNoMax,
     .rocksdb = {0, "wal_bytes_per_sync", kDb}},
    {.id = KnobId::kCompactionReadaheadBytes,
     .name = "compaction readahead",
     .json_key = "compaction_readahead_bytes",
     .flag = "compaction-readahead-size",
     .help = "readahead of compaction inputs (0 = the OS's), e.g. 2MiB",
     .example = "2MiB",
     .unit = KnobUnit::kBytes,
     .min_value = 0,
     .max_value = kNoMax,
     .rocksdb = {0, "compaction_readahead_size", kDb}},
    {.id = KnobId::kDirectIoForFlushAndCompaction,
     .name = "direct I/O for flush and compaction",
     .json_key = "direct_io_for_flush_and_compaction",
     .flag = "direct-io-for-flush-and-compaction",
     .help = "on: flushes and compactions bypass the page cache",
     .example = "on",
     .unit = KnobUnit::kBool,
     .min_value = 0,
     .max_value = 1,
     .rocksdb = {0, "use_direct_io_for_flush_and_compaction", kDb}},
    {.id = KnobId::kAllowMmapReads,
     .name = "memory-mapped reads",
     .json_key = "allow_mmap_reads",
     .flag = "allow-mmap-reads",
     .help =
         "on: reads map the table files instead of copying blocks with pread",
     .example = "on",
     .unit = KnobUnit::kBool,
     .min_value = 0,
     .max_value = 1,
     .rocksdb = {0, "allow_mmap_reads", kDb}},
    {.id = KnobId::kBottommostCompression,
     .name = "bottommost compression",
     .json_key = "bottommost_compression",
     .flag = "bottommost-compression",
     .help = "codec of the last level: same (as --compression), none, snappy, "
             "lz4, zstd",
     .example = "zstd",
     .unit = KnobUnit::kEnum,
     .min_value = 0,
     .max_value = std::size(kBottommostChoices) - 1,
     .rocksdb = {0, "bottommost_compression", kCf},
     .choices = kBottommostChoices},
    {.id = KnobId::kCompressionPerLevel,
     .name = "per-level compression",
     .json_key = "compression_per_level",
     .flag = "compression-per-level",
     .help = "uniform, or none-to-l1 (levels 0 and 1 uncompressed)",
     .example = "none-to-l1",
     .unit = KnobUnit::kEnum,
     .min_value = 0,
     .max_value = std::size(kPerLevelChoices) - 1,
     .rocksdb = {0, "compression_per_level", kCf},
     .choices = kPerLevelChoices},
    {.id = KnobId::kWholeKeyFiltering,
     .name = "whole-key filtering",
     .json_key = "whole_key_filtering",
     .flag = "whole-key-filtering",
     .help = "on: the bloom filter holds whole keys (off: only prefixes)",
     .example = "off",
     .unit = KnobUnit::kBool,
     .min_value = 0,
     .max_value = 1,
     .rocksdb = {1, "whole_key_filtering", kTable}},
    {.id = KnobId::kBloomPrefixBytes,
     .name = "prefix bloom",
     .json_key = "bloom_prefix_bytes",
     .flag = "bloom-prefix-bytes",
     .help = "key bytes a prefix bloom filter hashes (0 = no prefix extractor)",
     .example = "8",
     .unit = KnobUnit::kCount,
     .min_value = 0,
     .max_value = 1024,
     .rocksdb = {0, "prefix_extractor", kCf}},
    {.id = KnobId::kCompactionStyle,
     .name = "compaction style",
     .json_key = "compaction_style",
     .flag = "compaction-style",
     .help = "level or universal",
     .example = "universal",
     .unit = KnobUnit::kEnum,
     .min_value = 0,
     .max_value = std::size(kCompactionStyles) - 1,
     .rocksdb = {0, "compaction_style", kCf},
     .shapes_lsm = true,
     .choices = kCompactionStyles},
};

constexpr bool RowsInIdOrder() {
  for (size_t i = 0; i < std::size(kRows); i++) {
    const KnobId want = i < kNamedKnobCount ? KnobIdAt(i) : KnobId::kUnnamed;
    if (kRows[i].id != want) return false;
  }
  return std::size(kRows) >= kNamedKnobCount;
}
static_assert(RowsInIdOrder(),
              "kRows: the rows KnobId names, in its order, then unnamed rows");

// Room for the rows tests add, so adding one never moves a row: Knob and
// KnobSpec pointers stay valid.
constexpr size_t kExtraRowsRoom = 4;

// The table: kRows numbered by position, then rows tests add.
std::vector<KnobSpec>& Table() {
  static std::vector<KnobSpec> table = [] {
    std::vector<KnobSpec> t;
    t.reserve(std::size(kRows) + kExtraRowsRoom);
    for (const KnobSpec& row : kRows) {
      t.push_back(row);
      t.back().id = KnobIdAt(t.size() - 1);
    }
    return t;
  }();
  return table;
}

std::string Flag(const KnobSpec& k) { return "--" + std::string(k.flag); }

std::optional<KnobValue> ChoiceIndex(const KnobSpec& k, std::string_view name) {
  for (size_t i = 0; i < k.choices.size(); i++) {
    if (k.choices[i].name == name) return static_cast<KnobValue>(i);
  }
  return std::nullopt;
}

}  // namespace

std::span<const KnobSpec> Knobs() { return Table(); }

const KnobSpec& KnobRow(KnobId id) {
  return Table().at(static_cast<size_t>(id));
}

const KnobSpec* FindKnob(std::string_view json_key) {
  for (const KnobSpec& k : Table()) {
    if (k.json_key == json_key) return &k;
  }
  return nullptr;
}

std::optional<KnobValue> KnobDefault(const KnobSpec& k,
                                     std::string_view engine) {
  if (engine == "leveldb") return k.leveldb.default_value;
  if (engine == "rocksdb") return k.rocksdb.default_value;
  return std::nullopt;
}

std::string KnobValueText(const KnobSpec& k, KnobValue v) {
  switch (k.unit) {
    case KnobUnit::kBytes:
      return FormatBytes(static_cast<double>(v));
    case KnobUnit::kCount:
      return v < 0 ? "unlimited" : std::to_string(v);
    case KnobUnit::kBitsPerKey:
      return v > 0 ? std::to_string(v) + " bits/key" : "none";
    case KnobUnit::kCompression:
      return CompressionName(static_cast<Compression>(v));
    case KnobUnit::kBool:
      return v != 0 ? "on" : "off";
    case KnobUnit::kEnum:
      if (v >= 0 && static_cast<size_t>(v) < k.choices.size()) {
        return std::string(k.choices[static_cast<size_t>(v)].name);
      }
      break;
  }
  return std::to_string(v);
}

Status CheckKnobRange(const KnobSpec& k, KnobValue v) {
  // A block cache or write buffer larger than the machine's memory cannot
  // be what the engine really uses: refused, flag and profile alike.
  if ((k.id == KnobId::kCacheBytes || k.id == KnobId::kWriteBufferBytes) &&
      v > 0) {
    DT_RETURN_IF_ERROR(
        CheckFitsInMemory(Flag(k) + " " + FormatBytes(static_cast<double>(v)),
                          static_cast<uint64_t>(v)));
  }
  if (v >= k.min_value && v <= k.max_value) return Status::OK();
  std::string got = ", got " + KnobValueText(k, v);
  if (k.max_value == kNoMax ||
      (k.unit == KnobUnit::kCount &&
       k.max_value == std::numeric_limits<int>::max())) {
    return Status::InvalidArgument(Flag(k) + " must be at least " +
                                   KnobValueText(k, k.min_value) + got);
  }
  return Status::InvalidArgument(Flag(k) + " must be in [" +
                                 std::to_string(k.min_value) + ", " +
                                 std::to_string(k.max_value) + "]" + got);
}

Result<KnobValue> ParseKnobFlag(const KnobSpec& k, std::string_view text) {
  std::optional<KnobValue> v;
  switch (k.unit) {
    case KnobUnit::kBytes: {
      Result<uint64_t> r = ParseSize(text);
      if (!r.ok()) {
        return Status::InvalidArgument(Flag(k) + ": " + r.status().message() +
                                       "; e.g. " + Flag(k) + " " +
                                       std::string(k.example));
      }
      if (*r > static_cast<uint64_t>(kNoMax)) break;
      v = static_cast<KnobValue>(*r);
      break;
    }
    case KnobUnit::kCount:
    case KnobUnit::kBitsPerKey: {
      KnobValue n = 0;
      auto [end, ec] =
          std::from_chars(text.data(), text.data() + text.size(), n);
      if (ec == std::errc() && end == text.data() + text.size()) v = n;
      break;
    }
    case KnobUnit::kCompression:
      if (auto c = ParseCompression(text)) v = static_cast<KnobValue>(*c);
      break;
    case KnobUnit::kBool:
      if (text == "on" || text == "true" || text == "1") v = 1;
      if (text == "off" || text == "false" || text == "0") v = 0;
      break;
    case KnobUnit::kEnum:
      v = ChoiceIndex(k, text);
      break;
  }
  if (!v) {
    return Status::InvalidArgument(Flag(k) + ": cannot read '" +
                                   std::string(text) + "'; e.g. " + Flag(k) +
                                   " " + std::string(k.example));
  }
  DT_RETURN_IF_ERROR(CheckKnobRange(k, *v));
  return *v;
}

nlohmann::json KnobValueToJson(const KnobSpec& k, KnobValue v) {
  switch (k.unit) {
    case KnobUnit::kCompression:
    case KnobUnit::kEnum:
      return KnobValueText(k, v);
    case KnobUnit::kBool:
      return v != 0;
    default:
      return v;
  }
}

Result<KnobValue> KnobValueFromJson(const KnobSpec& k, const nlohmann::json& j,
                                    const std::string& where) {
  const std::string path = where + "." + std::string(k.json_key);
  if (k.unit == KnobUnit::kCompression) {
    auto c =
        j.is_string() ? ParseCompression(j.get<std::string>()) : std::nullopt;
    if (!c) return Status::InvalidArgument(path + " is unknown");
    return static_cast<KnobValue>(*c);
  }
  if (k.unit == KnobUnit::kEnum) {
    auto v =
        j.is_string() ? ChoiceIndex(k, j.get<std::string>()) : std::nullopt;
    if (!v) return Status::InvalidArgument(path + " is unknown");
    return *v;
  }
  if (k.unit == KnobUnit::kBool) {
    if (!j.is_boolean()) {
      return Status::InvalidArgument(path + " has the wrong type");
    }
    return j.get<bool>() ? 1 : 0;
  }
  if (!j.is_number_integer()) {
    return Status::InvalidArgument(path + " has the wrong type");
  }
  if (j.is_number_unsigned() &&
      j.get<uint64_t>() > static_cast<uint64_t>(kNoMax)) {
    return Status::InvalidArgument(path + " is out of range");
  }
  return j.get<KnobValue>();
}

nlohmann::json KnobsToJson(const EngineOptions& o) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [id, v] : o.knobs.values()) {
    const KnobSpec& k = KnobRow(id);
    j[std::string(k.json_key)] = KnobValueToJson(k, v);
  }
  return j;
}

Status KnobsFromJson(const nlohmann::json& j, const std::string& where,
                     EngineOptions* o) {
  for (const KnobSpec& k : Knobs()) {
    auto it = j.find(k.json_key);
    if (it == j.end()) continue;
    Result<KnobValue> v = KnobValueFromJson(k, *it, where);
    if (!v.ok()) return v.status();
    o->Set(k.id, *v);
  }
  return Status::OK();
}

bool SetsRocksDbOnlyKnob(const EngineOptions& o) {
  for (const auto& [id, v] : o.knobs.values()) {
    if (IsRocksDbOnly(KnobRow(id))) return true;
  }
  return false;
}

bool SameKnobs(const EngineOptions& a, const EngineOptions& b) {
  return a.knobs == b.knobs;
}

void MergeKnobs(const EngineOptions& from, bool overwrite, EngineOptions* to) {
  for (const auto& [id, v] : from.knobs.values()) {
    if (overwrite || !to->Get(id)) to->Set(id, v);
  }
}

ScopedExtraKnobForTest::ScopedExtraKnobForTest(const KnobSpec& row) {
  std::vector<KnobSpec>& t = Table();
  if (t.size() != std::size(kRows) || t.size() == t.capacity()) {
    std::abort();  // one extra row at a time, never moving the table
  }
  t.push_back(row);
  id_ = t.back().id = KnobIdAt(t.size() - 1);
}

ScopedExtraKnobForTest::~ScopedExtraKnobForTest() { Table().pop_back(); }

}  // namespace disktune
