#include "engines/knob_spec.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>

#include "src/core/units.h"

namespace disktune {
namespace {

constexpr KnobValue kKiB = 1024;
constexpr KnobValue kMiB = 1024 * kKiB;
constexpr KnobValue kNoMax = std::numeric_limits<KnobValue>::max();
constexpr KnobValue kUnlimited = -1;

// get/set of one EngineOptions field, whatever its value type.
template <auto kField>
struct Field {
  static std::optional<KnobValue> Get(const EngineOptions& o) {
    const auto& v = o.*kField;
    if (!v) return std::nullopt;
    return static_cast<KnobValue>(*v);
  }
  static void Set(EngineOptions* o, std::optional<KnobValue> v) {
    using T =
        typename std::remove_reference_t<decltype(o->*kField)>::value_type;
    if (v) {
      o->*kField = static_cast<T>(*v);
    } else {
      o->*kField = std::nullopt;
    }
  }
};

// The same for a field of EngineOptions::rocksdb.
template <auto kField>
struct RocksDbField {
  static std::optional<KnobValue> Get(const EngineOptions& o) {
    const auto& v = o.rocksdb.*kField;
    if (!v) return std::nullopt;
    return static_cast<KnobValue>(*v);
  }
  static void Set(EngineOptions* o, std::optional<KnobValue> v) {
    using T = typename std::remove_reference_t<decltype(o->rocksdb.*
                                                        kField)>::value_type;
    if (v) {
      o->rocksdb.*kField = static_cast<T>(*v);
    } else {
      o->rocksdb.*kField = std::nullopt;
    }
  }
};

#define DT_KNOB_FIELD(f) \
  &Field<&EngineOptions::f>::Get, &Field<&EngineOptions::f>::Set
#define DT_ROCKSDB_FIELD(f) \
  &RocksDbField<&RocksDbKnobs::f>::Get, &RocksDbField<&RocksDbKnobs::f>::Set

// kEnum choices, in the order of their enums in engines/engine.h.
constexpr KnobChoice kBottommostChoices[] = {
    {"same", "kDisableCompressionOption"},
    {"none", "kNoCompression"},
    {"snappy", "kSnappyCompression"},
    {"lz4", "kLZ4Compression"},
    {"zstd", "kZSTD"},
};
// The OPTIONS file spells compression_per_level as a list of codecs, which
// depends on the compression knob: engine forms write it (tune/engine_forms).
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
const std::array<KnobSpec, 25> kKnobs = {{
    {"block cache", "cache_bytes", "cache-size",
     "block cache, e.g. 8MiB (default: engine's)", "8MiB", KnobUnit::kBytes, 0,
     kNoMax, 8 * kMiB, 8 * kMiB, "block_cache", "TableOptions/BlockBasedTable",
     "block_cache", DT_KNOB_FIELD(cache_bytes)},
    {"write buffer", "write_buffer_bytes", "write-buffer-size",
     "write buffer / memtable, e.g. 4MiB (default: engine's)", "4MiB",
     KnobUnit::kBytes, 64 * kKiB, kNoMax, 4 * kMiB, 64 * kMiB,
     "write_buffer_size", "CFOptions", "write_buffer_size",
     DT_KNOB_FIELD(write_buffer_bytes)},
    {"bloom filter", "bloom_bits_per_key", "bloom-bits",
     "bloom filter bits per key (0 = none)", "10", KnobUnit::kBitsPerKey, 0, 64,
     0, 0, "filter_policy", "TableOptions/BlockBasedTable", "filter_policy",
     DT_KNOB_FIELD(bloom_bits_per_key)},
    {"compression", "compression", "compression",
     "none, snappy, lz4, zstd, lzo", "snappy", KnobUnit::kCompression, 0,
     static_cast<KnobValue>(Compression::kLzo),
     static_cast<KnobValue>(Compression::kSnappy),
     static_cast<KnobValue>(Compression::kSnappy), "compression", "CFOptions",
     "compression", DT_KNOB_FIELD(compression)},
    {"block size", "block_size_bytes", "block-size",
     "table block size, e.g. 4KiB", "4KiB", KnobUnit::kBytes, 256, kNoMax,
     4 * kKiB, 4 * kKiB, "block_size", "TableOptions/BlockBasedTable",
     "block_size", DT_KNOB_FIELD(block_size_bytes)},
    {"open files", "max_open_files", "max-open-files", "table files kept open",
     "1000", KnobUnit::kCount, 1, std::numeric_limits<int>::max(), 1000,
     kUnlimited, "max_open_files", "DBOptions", "max_open_files",
     DT_KNOB_FIELD(max_open_files)},
    {"table file size", "max_file_bytes", "max-file-size",
     "table file size, e.g. 2MiB", "2MiB", KnobUnit::kBytes, 0, kNoMax,
     2 * kMiB, 64 * kMiB, "max_file_size", "CFOptions", "target_file_size_base",
     DT_KNOB_FIELD(max_file_bytes)},
    {"write buffers kept", "max_write_buffer_number", "max-write-buffer-number",
     "memtables RocksDB keeps (active + immutable) before it stalls writes",
     "4", KnobUnit::kCount, 2, 64, std::nullopt, 2, "", "CFOptions",
     "max_write_buffer_number", DT_ROCKSDB_FIELD(max_write_buffer_number)},
    {"write buffers merged", "min_write_buffer_number_to_merge",
     "min-write-buffer-number-to-merge",
     "immutable memtables merged into one level-0 file per flush", "1",
     KnobUnit::kCount, 1, 64, std::nullopt, 1, "", "CFOptions",
     "min_write_buffer_number_to_merge",
     DT_ROCKSDB_FIELD(min_write_buffer_number_to_merge)},
    {"level-0 compaction trigger", "level0_file_num_compaction_trigger",
     "level0-file-num-compaction-trigger",
     "level-0 files that start a compaction into level 1", "4",
     KnobUnit::kCount, 1, 100000, std::nullopt, 4, "", "CFOptions",
     "level0_file_num_compaction_trigger",
     DT_ROCKSDB_FIELD(level0_file_num_compaction_trigger)},
    {"level-0 slowdown trigger", "level0_slowdown_writes_trigger",
     "level0-slowdown-writes-trigger",
     "level-0 files at which RocksDB slows writes down", "20", KnobUnit::kCount,
     1, 100000, std::nullopt, 20, "", "CFOptions",
     "level0_slowdown_writes_trigger",
     DT_ROCKSDB_FIELD(level0_slowdown_writes_trigger)},
    {"level-0 stop trigger", "level0_stop_writes_trigger",
     "level0-stop-writes-trigger",
     "level-0 files at which RocksDB stops writes", "36", KnobUnit::kCount, 1,
     100000, std::nullopt, 36, "", "CFOptions", "level0_stop_writes_trigger",
     DT_ROCKSDB_FIELD(level0_stop_writes_trigger)},
    {"level-1 size", "max_bytes_for_level_base", "max-bytes-for-level-base",
     "bytes level 1 holds before it compacts down, e.g. 256MiB", "256MiB",
     KnobUnit::kBytes, 1 * kMiB, kNoMax, std::nullopt, 256 * kMiB, "",
     "CFOptions", "max_bytes_for_level_base",
     DT_ROCKSDB_FIELD(max_bytes_for_level_base)},
    {"level size multiplier", "max_bytes_for_level_multiplier",
     "max-bytes-for-level-multiplier",
     "growth of each level over the one above it (whole numbers)", "10",
     KnobUnit::kCount, 2, 100, std::nullopt, 10, "", "CFOptions",
     "max_bytes_for_level_multiplier",
     DT_ROCKSDB_FIELD(max_bytes_for_level_multiplier)},
    {"background jobs", "max_background_jobs", "max-background-jobs",
     "flush and compaction threads", "4", KnobUnit::kCount, 1, 1024,
     std::nullopt, 2, "", "DBOptions", "max_background_jobs",
     DT_ROCKSDB_FIELD(max_background_jobs)},
    {"bytes per sync", "bytes_per_sync", "bytes-per-sync",
     "sync table files in the background every SIZE written (0 = never), "
     "e.g. 1MiB",
     "1MiB", KnobUnit::kBytes, 0, kNoMax, std::nullopt, 0, "", "DBOptions",
     "bytes_per_sync", DT_ROCKSDB_FIELD(bytes_per_sync)},
    {"WAL bytes per sync", "wal_bytes_per_sync", "wal-bytes-per-sync",
     "sync the write-ahead log in the background every SIZE written (0 = "
     "never), e.g. 1MiB",
     "1MiB", KnobUnit::kBytes, 0, kNoMax, std::nullopt, 0, "", "DBOptions",
     "wal_bytes_per_sync", DT_ROCKSDB_FIELD(wal_bytes_per_sync)},
    {"compaction readahead", "compaction_readahead_bytes",
     "compaction-readahead-size",
     "readahead of compaction inputs (0 = the OS's), e.g. 2MiB", "2MiB",
     KnobUnit::kBytes, 0, kNoMax, std::nullopt, 0, "", "DBOptions",
     "compaction_readahead_size", DT_ROCKSDB_FIELD(compaction_readahead_bytes)},
    {"direct I/O for flush and compaction",
     "direct_io_for_flush_and_compaction", "direct-io-for-flush-and-compaction",
     "on: flushes and compactions bypass the page cache", "on", KnobUnit::kBool,
     0, 1, std::nullopt, 0, "", "DBOptions",
     "use_direct_io_for_flush_and_compaction",
     DT_ROCKSDB_FIELD(direct_io_for_flush_and_compaction)},
    {"memory-mapped reads", "allow_mmap_reads", "allow-mmap-reads",
     "on: reads map the table files instead of copying blocks with pread", "on",
     KnobUnit::kBool, 0, 1, std::nullopt, 0, "", "DBOptions",
     "allow_mmap_reads", DT_ROCKSDB_FIELD(allow_mmap_reads)},
    {"bottommost compression", "bottommost_compression",
     "bottommost-compression",
     "codec of the last level: same (as --compression), none, snappy, lz4, "
     "zstd",
     "zstd", KnobUnit::kEnum, 0, std::size(kBottommostChoices) - 1,
     std::nullopt, 0, "", "CFOptions", "bottommost_compression",
     DT_ROCKSDB_FIELD(bottommost_compression), kBottommostChoices},
    {"per-level compression", "compression_per_level", "compression-per-level",
     "uniform, or none-to-l1 (levels 0 and 1 uncompressed)", "none-to-l1",
     KnobUnit::kEnum, 0, std::size(kPerLevelChoices) - 1, std::nullopt, 0, "",
     "CFOptions", "compression_per_level",
     DT_ROCKSDB_FIELD(compression_per_level), kPerLevelChoices},
    {"whole-key filtering", "whole_key_filtering", "whole-key-filtering",
     "on: the bloom filter holds whole keys (off: only prefixes)", "off",
     KnobUnit::kBool, 0, 1, std::nullopt, 1, "", "TableOptions/BlockBasedTable",
     "whole_key_filtering", DT_ROCKSDB_FIELD(whole_key_filtering)},
    {"prefix bloom", "bloom_prefix_bytes", "bloom-prefix-bytes",
     "key bytes a prefix bloom filter hashes (0 = no prefix extractor)", "8",
     KnobUnit::kCount, 0, 1024, std::nullopt, 0, "", "CFOptions",
     "prefix_extractor", DT_ROCKSDB_FIELD(bloom_prefix_bytes)},
    {"compaction style", "compaction_style", "compaction-style",
     "level or universal", "universal", KnobUnit::kEnum, 0,
     std::size(kCompactionStyles) - 1, std::nullopt, 0, "", "CFOptions",
     "compaction_style", DT_ROCKSDB_FIELD(compaction_style), kCompactionStyles},
}};

#undef DT_KNOB_FIELD
#undef DT_ROCKSDB_FIELD

std::string Flag(const KnobSpec& k) { return "--" + std::string(k.flag); }

std::optional<KnobValue> ChoiceIndex(const KnobSpec& k, std::string_view name) {
  for (size_t i = 0; i < k.choices.size(); i++) {
    if (k.choices[i].name == name) return static_cast<KnobValue>(i);
  }
  return std::nullopt;
}

}  // namespace

std::span<const KnobSpec> Knobs() { return kKnobs; }

const KnobSpec* FindKnob(std::string_view json_key) {
  for (const KnobSpec& k : kKnobs) {
    if (k.json_key == json_key) return &k;
  }
  return nullptr;
}

std::optional<KnobValue> KnobDefault(const KnobSpec& k,
                                     std::string_view engine) {
  if (engine == "leveldb") return k.leveldb_default;
  if (engine == "rocksdb") return k.rocksdb_default;
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
  for (const KnobSpec& k : kKnobs) {
    if (auto v = k.get(o)) j[std::string(k.json_key)] = KnobValueToJson(k, *v);
  }
  return j;
}

Status KnobsFromJson(const nlohmann::json& j, const std::string& where,
                     EngineOptions* o) {
  for (const KnobSpec& k : kKnobs) {
    auto it = j.find(k.json_key);
    if (it == j.end()) continue;
    Result<KnobValue> v = KnobValueFromJson(k, *it, where);
    if (!v.ok()) return v.status();
    k.set(o, *v);
  }
  return Status::OK();
}

bool SameKnobs(const EngineOptions& a, const EngineOptions& b) {
  return std::all_of(kKnobs.begin(), kKnobs.end(),
                     [&](const KnobSpec& k) { return k.get(a) == k.get(b); });
}

void MergeKnobs(const EngineOptions& from, bool overwrite, EngineOptions* to) {
  for (const KnobSpec& k : kKnobs) {
    std::optional<KnobValue> v = k.get(from);
    if (v && (overwrite || !k.get(*to))) k.set(to, v);
  }
}

}  // namespace disktune
