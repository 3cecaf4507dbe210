// The options an engine opens with, as data: the engine knob table's values
// by row (src/model/knob_values.h, src/model/knob_spec.h) and the settings
// the knobs do not cover. engines/engine.h opens an engine with them; a
// bench result and a profile carry them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "src/model/knob_values.h"

namespace disktune {

// kLzo is there for Kyoto Cabinet, whose codecs are zlib, LZO and LZMA (the
// 2011 LevelDB benchmark ran TreeDB with LZO); the LSM engines list it as an
// unsupported knob.
enum class Compression { kNone, kSnappy, kLz4, kZstd, kLzo };
const char* CompressionName(Compression c);
// Parses "none", "snappy", "lz4", "zstd", "lzo" (case-insensitive).
std::optional<Compression> ParseCompression(std::string_view s);

// RocksDB's compaction styles the tuner may choose (FIFO drops data, so it
// is not one of them).
enum class CompactionStyle { kLevel, kUniversal };
// The codec of the last level: kSameAsOthers is RocksDB's
// kDisableCompressionOption (the bottommost level uses `compression`).
enum class BottommostCompression { kSameAsOthers, kNone, kSnappy, kLz4, kZstd };
// Compression per level: kUniform is RocksDB's empty compression_per_level
// (every level uses `compression`); kNoneToL1 leaves levels 0 and 1
// uncompressed (RocksDB's tuning guide: they are rewritten soonest).
enum class CompressionPerLevel { kUniform, kNoneToL1 };

// The engine's options. Knobs are rows of the engine knob table
// (engines/knob_spec.h), held by id: unset = the engine's default; a knob
// only RocksDB has, set for another engine, is listed as unsupported.
struct EngineOptions {
  KnobValues knobs;

  std::optional<KnobValue> Get(KnobId id) const { return knobs.Get(id); }
  void Set(KnobId id, std::optional<KnobValue> v) { knobs.Set(id, v); }
  template <typename E>
  requires std::is_enum_v<E>
  void Set(KnobId id, E v) { knobs.Set(id, v); }

  // Typed reads of the common knobs, for the adapters that map them by hand.
  std::optional<uint64_t> cache_bytes() const {
    return As<uint64_t>(KnobId::kCacheBytes);
  }
  std::optional<uint64_t> write_buffer_bytes() const {
    return As<uint64_t>(KnobId::kWriteBufferBytes);
  }
  std::optional<int> bloom_bits_per_key() const {  // 0 = no filter
    return As<int>(KnobId::kBloomBitsPerKey);
  }
  std::optional<Compression> compression() const {
    return As<Compression>(KnobId::kCompression);
  }
  std::optional<uint64_t> block_size_bytes() const {
    return As<uint64_t>(KnobId::kBlockSizeBytes);
  }
  std::optional<int> max_open_files() const {
    return As<int>(KnobId::kMaxOpenFiles);
  }
  std::optional<uint64_t> max_file_bytes() const {  // table file size
    return As<uint64_t>(KnobId::kMaxFileBytes);
  }

  // Size the engine must be able to hold (LMDB's map size is fixed up front).
  std::optional<uint64_t> expected_db_bytes;
  // In-memory mode where the engine has one (sqlite3 ":memory:", bdb
  // cache-only).
  bool in_memory = false;
  // Default for writes that do not say otherwise: a write is synced when
  // either this or its WriteOptions::sync is true.
  bool sync = false;
  // Engine settings the common knobs do not cover, "lmdb.writemap" -> "off"
  // (engines/engine_settings.h declares them). An adapter reads those named
  // for its engine and ignores the others; unset ones keep the default of
  // the engine's own published benchmark.
  std::vector<std::pair<std::string, std::string>> settings;

 private:
  template <typename T>
  std::optional<T> As(KnobId id) const {
    std::optional<KnobValue> v = knobs.Get(id);
    if (!v) return std::nullopt;
    return static_cast<T>(*v);
  }
};

}  // namespace disktune
