// Engine: the one interface every embedded key-value engine adapter implements.
//
// The bench runner drives only this interface, so one workload definition runs
// unchanged on every engine. Engine headers are included only in the adapter's
// own .cc file. An adapter maps the common knobs below onto the engine's own
// options; a knob the engine cannot honour is listed in
// Engine::unsupported_knobs() (and reported) instead of being silently ignored.
// A knob left unset keeps the engine's own default (leveldb::Options(),
// rocksdb::Options(), ...).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "engines/knob_values.h"
#include "src/core/status.h"

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

struct WriteOptions {
  bool sync = false;
};

// A batch of puts and deletes applied atomically (one transaction where the
// engine has no native batch).
class WriteBatch {
 public:
  struct Op {
    bool is_delete;
    std::string key;
    std::string value;
  };
  void Put(std::string_view key, std::string_view value) {
    ops_.push_back({false, std::string(key), std::string(value)});
  }
  void Delete(std::string_view key) {
    ops_.push_back({true, std::string(key), std::string()});
  }
  void Clear() { ops_.clear(); }
  size_t Count() const { return ops_.size(); }
  const std::vector<Op>& ops() const { return ops_; }

 private:
  std::vector<Op> ops_;
};

// A cursor over the engine's key order (bytewise). Not thread-safe.
class EngineIterator {
 public:
  virtual ~EngineIterator() = default;
  virtual void SeekToFirst() = 0;
  virtual void SeekToLast() = 0;
  // Positions at the first key >= target.
  virtual void Seek(std::string_view target) = 0;
  virtual bool Valid() const = 0;
  // REQUIRES: Valid()
  virtual void Next() = 0;
  virtual void Prev() = 0;
  virtual std::string_view key() const = 0;
  virtual std::string_view value() const = 0;
  // The first error met, if any.
  virtual Status status() const = 0;
  // Counts up to n entries from the current one, adding each one's key and
  // value sizes to *bytes, stepping past each (Next, or Prev when !forward);
  // returns how many it counted, fewer when the iterator ran out. The LSM
  // adapters override it with a loop over their engine's own iterator so a
  // scan does not pay this interface per entry.
  virtual uint64_t Skip(uint64_t n, bool forward, uint64_t* bytes);
};

class Engine {
 public:
  virtual ~Engine() = default;

  // The public id: "leveldb", "rocksdb", "sqlite3", "kyotocabinet", "lmdb",
  // "bdb".
  virtual std::string_view id() const = 0;

  // Opens (creating if missing) the database in directory `path`.
  virtual Status Open(const std::string& path,
                      const EngineOptions& options) = 0;
  virtual Status Close() = 0;

  virtual Status Put(std::string_view key, std::string_view value,
                     const WriteOptions& wo) = 0;
  // NotFound when the key is absent.
  virtual Status Get(std::string_view key, std::string* value) = 0;
  // OK when the key is absent.
  virtual Status Delete(std::string_view key, const WriteOptions& wo) = 0;
  virtual Status Write(const WriteBatch& batch, const WriteOptions& wo) = 0;
  // REQUIRES: the iterator is destroyed before Close() / Destroy(). On an
  // engine that is not open it is never Valid() and status() says why.
  virtual std::unique_ptr<EngineIterator> NewIterator() = 0;

  // Makes buffered writes durable / compacts the whole key range where the
  // engine has such an operation; OK (no-op) otherwise.
  virtual Status Flush() = 0;
  virtual Status CompactAll() = 0;
  // What the engine's own benchmark does at the end of each write benchmark,
  // inside its time, so a write scenario pays for the writes it leaves
  // buffered instead of the scenario after it: Kyoto TreeDB's synchronize()
  // (LevelDB's db_bench_tree_db), SQLite's FULL WAL checkpoint (LevelDB's
  // db_bench_sqlite3). Not a durability point (Flush() is). Nothing by default
  // (LevelDB's and RocksDB's db_bench do nothing there).
  virtual Status FinishWriteBenchmark() { return Status::OK(); }

  // The engine's own statistics text (e.g. "leveldb.stats"), "" if none.
  virtual std::string StatsText() = 0;
  // Named engine properties worth recording (e.g.
  // "leveldb.num-files-at-level0").
  virtual std::vector<std::pair<std::string, std::string>> Properties() = 0;
  // Knobs from the last Open() the engine could not honour, with why:
  // {"bloom_bits_per_key", "sqlite3 has no bloom filters"}.
  virtual std::vector<std::pair<std::string, std::string>> unsupported_knobs()
      const = 0;
  // Every setting of the engine in force since the last Open(), as
  // name -> value ("lmdb.env_flags" -> "MDB_NOSYNC|MDB_WRITEMAP|MDB_NOTLS"):
  // the common knobs as the engine took them, the engine settings and what
  // the adapter fixes itself. Empty before the first Open().
  virtual std::vector<std::pair<std::string, std::string>> Settings() const {
    return {};
  }
  // Largest value size the engine accepts, if it has a limit.
  virtual std::optional<uint64_t> max_value_bytes() const {
    return std::nullopt;
  }
  // Whether Get/Put may be called from several threads at once.
  virtual bool thread_safe() const = 0;
  // Closes if open and removes every file of the database at `path`.
  virtual Status Destroy(const std::string& path) = 0;
};

// The registry: explicit, guarded by DISKTUNE_HAVE_<X> (no static
// self-registration).
struct EngineInfo {
  std::string_view id;
  std::string_view description;
  bool has_in_memory_mode;
};
const std::vector<EngineInfo>& AvailableEngines();
// InvalidArgument naming the valid ids when `id` is unknown.
Result<std::unique_ptr<Engine>> NewEngine(std::string_view id);

}  // namespace disktune
