// Engine: the one interface every embedded key-value engine adapter implements.
//
// The bench runner drives only this interface, so one workload definition runs
// unchanged on every engine. Engine headers are included only in the adapter's
// own .cc file. An adapter maps the common knobs (EngineOptions,
// src/model/engine_options.h) onto the engine's own options; a knob the
// engine cannot honour is listed in Engine::unsupported_knobs() (and
// reported) instead of being silently ignored.
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

#include "src/core/status.h"
#include "src/model/engine_options.h"

namespace disktune {

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

  // Waits, at most `max_ns`, until no flush or compaction is running or
  // pending, and returns the nanoseconds it waited: 0 when there was none.
  // A cold read step runs it after its reopen, whose own compactions would
  // otherwise fill the page cache the timed reads should find empty
  // (src/bench/scenario.h, ReopenCold). Engines without background work, or
  // with no way to see it (LevelDB), return 0.
  virtual Result<uint64_t> SettleBackgroundWork(uint64_t max_ns) {
    (void)max_ns;
    return uint64_t{0};
  }

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
