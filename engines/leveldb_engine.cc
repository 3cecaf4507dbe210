// LevelDB adapter: a thin mapping of the Engine interface onto leveldb::DB.
#include <leveldb/cache.h>
#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/filter_policy.h>
#include <leveldb/iterator.h>
#include <leveldb/options.h>
#include <leveldb/write_batch.h>

#include <cstdint>
#include <limits>
#include <string>

#include "engines/adapter_util.h"
#include "engines/engine_factories.h"
#include "engines/engine_library.h"
#include "engines/leveldb_sync_floor_env.h"
#include "engines/lsm_iterator.h"
#include "src/core/sync_floor.h"
#include "src/core/units.h"

namespace disktune::engine_internal {

namespace {

constexpr std::string_view kId = "leveldb";
constexpr int kNumLevels = 7;  // leveldb's config::kNumLevels (not exported).

leveldb::Slice ToSlice(std::string_view s) { return {s.data(), s.size()}; }

Status FromLevelDb(const leveldb::Status& s, std::string_view op) {
  if (s.ok()) return Status::OK();
  std::string msg = "leveldb " + std::string(op) + ": " + s.ToString();
  if (s.IsNotFound()) return Status::NotFound(std::move(msg));
  if (s.IsCorruption()) return Status::Corruption(std::move(msg));
  if (s.IsInvalidArgument()) return Status::InvalidArgument(std::move(msg));
  if (s.IsNotSupportedError()) return Status::NotSupported(std::move(msg));
  return Status::IOError(std::move(msg));
}

Status IteratorStatus(const leveldb::Iterator& it) {
  return FromLevelDb(it.status(), "iterate");
}
using LevelDbIterator = LsmIterator<leveldb::Iterator, leveldb::Slice>;

class LevelDbEngine final : public AdapterEngine {
 public:
  ~LevelDbEngine() override { (void)Close(); }

  std::string_view id() const override { return kId; }

  Status Open(const std::string& path, const EngineOptions& options) override {
    if (db_) return Status::InvalidArgument("leveldb open: already open");
    unsupported_.clear();
    leveldb::Options lo = MapOptions(options);
    DT_RETURN_IF_ERROR(EnsureDirectory(path, kId));
    // On a device with a sync-latency floor (--throttle's class) every
    // sync of the DB meets it (src/core/sync_floor.h).
    sync_floor_ns_ = SyncFloorOfPath(path);
    env_.reset();
    if (sync_floor_ns_ > 0) {
      env_ = NewLevelDbSyncFloorEnv(leveldb::Env::Default(), sync_floor_ns_);
      lo.env = env_.get();
    }
    leveldb::DB* db = nullptr;
    Status s = FromLevelDb(leveldb::DB::Open(lo, path, &db), "open " + path);
    if (!s.ok()) {
      ReleaseHelpers();
      return s;
    }
    db_.reset(db);
    sync_by_default_ = options.sync;
    RecordSettings(lo, options);
    return Status::OK();
  }

  Status Close() override {
    // The DB uses the cache and the filter policy until it is deleted.
    db_.reset();
    ReleaseHelpers();
    return Status::OK();
  }

  Status Put(std::string_view key, std::string_view value,
             const WriteOptions& wo) override {
    if (!db_) return NotOpen(kId, "put");
    return FromLevelDb(db_->Put(Map(wo), ToSlice(key), ToSlice(value)), "put");
  }

  Status Get(std::string_view key, std::string* value) override {
    if (!db_) return NotOpen(kId, "get");
    leveldb::Status s = db_->Get(leveldb::ReadOptions(), ToSlice(key), value);
    if (s.IsNotFound()) return KeyNotFound();
    return FromLevelDb(s, "get");
  }

  Status Delete(std::string_view key, const WriteOptions& wo) override {
    if (!db_) return NotOpen(kId, "delete");
    return FromLevelDb(db_->Delete(Map(wo), ToSlice(key)), "delete");
  }

  Status Write(const WriteBatch& batch, const WriteOptions& wo) override {
    if (!db_) return NotOpen(kId, "write batch");
    leveldb::WriteBatch native;
    for (const WriteBatch::Op& op : batch.ops()) {
      if (op.is_delete) {
        native.Delete(op.key);
      } else {
        native.Put(op.key, op.value);
      }
    }
    return FromLevelDb(db_->Write(Map(wo), &native), "write batch");
  }

  std::unique_ptr<EngineIterator> NewIterator() override {
    if (!db_) return NewErrorIterator(NotOpen(kId, "iterator"));
    return std::make_unique<LevelDbIterator>(
        db_->NewIterator(leveldb::ReadOptions()), IteratorStatus);
  }

  Status Flush() override {
    if (!db_) return NotOpen(kId, "flush");
    // LevelDB has no public memtable flush. A synced empty batch fsyncs the
    // log, which is what makes earlier unsynced writes durable.
    leveldb::WriteOptions wo;
    wo.sync = true;
    leveldb::WriteBatch empty;
    return FromLevelDb(db_->Write(wo, &empty), "flush");
  }

  Status CompactAll() override {
    if (!db_) return NotOpen(kId, "compact");
    db_->CompactRange(nullptr, nullptr);
    return Status::OK();
  }

  std::string StatsText() override {
    std::string stats;
    if (db_) db_->GetProperty("leveldb.stats", &stats);
    return stats;
  }

  std::vector<std::pair<std::string, std::string>> Properties() override {
    std::vector<std::pair<std::string, std::string>> props;
    if (!db_) return props;
    auto add = [&](const std::string& name) {
      std::string value;
      if (db_->GetProperty(name, &value)) props.emplace_back(name, value);
    };
    for (int level = 0; level < kNumLevels; ++level) {
      add("leveldb.num-files-at-level" + std::to_string(level));
    }
    add("leveldb.approximate-memory-usage");
    add("leveldb.sstables");
    // Keys are arbitrary bytes; 0xff x 256 sorts after any practical key.
    const std::string limit(256, '\xff');
    leveldb::Range all("", limit);
    uint64_t size_bytes = 0;
    db_->GetApproximateSizes(&all, 1, &size_bytes);
    props.emplace_back("approximate_size_bytes", std::to_string(size_bytes));
    return props;
  }

  // Entry lengths are varint32-encoded in the memtable and the log.
  std::optional<uint64_t> max_value_bytes() const override {
    return std::numeric_limits<uint32_t>::max();
  }

  std::vector<std::pair<std::string, std::string>> Settings() const override {
    return settings_;
  }

  bool thread_safe() const override { return true; }

  Status Destroy(const std::string& path) override {
    DT_RETURN_IF_ERROR(Close());
    // DestroyDB removes only the files LevelDB names itself, then the
    // directory if it is empty.
    return FromLevelDb(leveldb::DestroyDB(path, leveldb::Options()),
                       "destroy " + path);
  }

 private:
  leveldb::Options MapOptions(const EngineOptions& o) {
    leveldb::Options lo;  // the engine's defaults, overridden knob by knob
    lo.create_if_missing = true;
    if (o.cache_bytes()) {
      cache_.reset(leveldb::NewLRUCache(*o.cache_bytes()));
      lo.block_cache = cache_.get();
    }
    if (o.write_buffer_bytes()) lo.write_buffer_size = *o.write_buffer_bytes();
    if (o.bloom_bits_per_key().value_or(0) > 0) {
      filter_.reset(leveldb::NewBloomFilterPolicy(*o.bloom_bits_per_key()));
      lo.filter_policy = filter_.get();
    }
    if (o.compression()) {
      switch (*o.compression()) {
        case Compression::kNone:
          lo.compression = leveldb::kNoCompression;
          break;
        case Compression::kSnappy:
          lo.compression = leveldb::kSnappyCompression;
          break;
        case Compression::kLz4:
        case Compression::kZstd:
        case Compression::kLzo:
          unsupported_.emplace_back(
              "compression", std::string("leveldb 1.23 offers only snappy; ") +
                                 CompressionName(*o.compression()) +
                                 " is not available");
          break;
      }
    }
    if (o.block_size_bytes()) lo.block_size = *o.block_size_bytes();
    if (o.max_open_files()) lo.max_open_files = *o.max_open_files();
    if (o.max_file_bytes()) lo.max_file_size = *o.max_file_bytes();
    AddRocksDbOnlyKnobs(o, kId, &unsupported_);
    if (o.in_memory) {
      unsupported_.emplace_back("in_memory", "leveldb has no in-memory mode");
    }
    return lo;
  }

  void RecordSettings(const leveldb::Options& lo, const EngineOptions& o) {
    auto n = [](uint64_t v) { return std::to_string(v); };
    settings_ = {
        {"leveldb.version", std::to_string(leveldb::kMajorVersion) + "." +
                                std::to_string(leveldb::kMinorVersion)},
        {"leveldb.write_buffer_size", n(lo.write_buffer_size)},
        {"leveldb.max_file_size", n(lo.max_file_size)},
        {"leveldb.block_size", n(lo.block_size)},
        {"leveldb.block_restart_interval", n(lo.block_restart_interval)},
        {"leveldb.block_cache",
         o.cache_bytes() ? n(*o.cache_bytes()) : "8388608 (leveldb's own)"},
        {"leveldb.compression",
         lo.compression == leveldb::kSnappyCompression ? "snappy" : "none"},
        {"leveldb.filter_policy",
         lo.filter_policy != nullptr ? lo.filter_policy->Name() : "none"},
        {"leveldb.max_open_files", n(lo.max_open_files)},
        {"leveldb.paranoid_checks", lo.paranoid_checks ? "true" : "false"},
        {"leveldb.reuse_logs", lo.reuse_logs ? "true" : "false"},
        {"leveldb.write_sync",
         sync_by_default_ ? "every write" : "writes that ask for sync"},
    };
    if (o.bloom_bits_per_key().value_or(0) > 0) {
      settings_.emplace_back("leveldb.bloom_bits_per_key",
                             n(static_cast<uint64_t>(*o.bloom_bits_per_key())));
    }
    if (sync_floor_ns_ > 0) {
      settings_.emplace_back(
          "leveldb.sync_floor",
          FormatDuration(static_cast<double>(sync_floor_ns_)) +
              " per sync (the device class's; a software floor in the Env)");
    }
  }

  leveldb::WriteOptions Map(const WriteOptions& wo) const {
    leveldb::WriteOptions lwo;
    lwo.sync = wo.sync || sync_by_default_;
    return lwo;
  }

  void ReleaseHelpers() {
    filter_.reset();
    cache_.reset();
  }

  // Declared before db_ so that db_, which uses them, is destroyed first.
  std::unique_ptr<leveldb::Env> env_;  // the sync floor's, when it has one
  std::unique_ptr<leveldb::Cache> cache_;
  std::unique_ptr<const leveldb::FilterPolicy> filter_;
  std::unique_ptr<leveldb::DB> db_;
  bool sync_by_default_ = false;
  uint64_t sync_floor_ns_ = 0;
  std::vector<std::pair<std::string, std::string>> settings_;
};

}  // namespace

LibraryBuild LevelDbLibrary() {
  // LevelDB has no run-time version call: the headers disktune was built with.
  LibraryBuild b = LibraryOf(kId,
                             std::to_string(leveldb::kMajorVersion) + "." +
                                 std::to_string(leveldb::kMinorVersion),
                             "headers", "leveldb_open");
  b.assertions_evidence = "LevelDB exports nothing that tells";
  return b;
}

std::unique_ptr<Engine> NewLevelDbEngine() {
  return std::make_unique<LevelDbEngine>();
}

}  // namespace disktune::engine_internal
