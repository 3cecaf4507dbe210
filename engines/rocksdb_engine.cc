// RocksDB adapter: a thin mapping of the Engine interface onto rocksdb::DB.
#include <rocksdb/cache.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/table.h>
#include <rocksdb/version.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <thread>
#include <unordered_map>

#include "engines/adapter_util.h"
#include "engines/engine_factories.h"
#include "engines/engine_library.h"
#include "engines/lsm_iterator.h"
#include "engines/rocksdb_option_map.h"
#include "engines/rocksdb_sync_floor_fs.h"
#include "src/core/sync_floor.h"
#include "src/core/units.h"
#include "src/model/knob_spec.h"

// RocksDB's rocksdb::SyncPoint::GetInstance(), by its mangled name (the
// header that declares it is not installed), referenced weakly: null unless
// the linked RocksDB defines it.
void* RocksDbSyncPointInstance() __asm__("_ZN7rocksdb9SyncPoint11GetInstanceEv")
    __attribute__((weak));

namespace disktune::engine_internal {

namespace {

constexpr std::string_view kId = "rocksdb";

rocksdb::Slice ToSlice(std::string_view s) { return {s.data(), s.size()}; }

Status FromRocksDb(const rocksdb::Status& s, std::string_view op) {
  if (s.ok()) return Status::OK();
  std::string msg = "rocksdb " + std::string(op) + ": " + s.ToString();
  if (s.IsNotFound()) return Status::NotFound(std::move(msg));
  if (s.IsCorruption()) return Status::Corruption(std::move(msg));
  if (s.IsInvalidArgument()) return Status::InvalidArgument(std::move(msg));
  if (s.IsNotSupported()) return Status::NotSupported(std::move(msg));
  if (s.IsNoSpace()) return Status::NoSpace(std::move(msg));
  if (s.IsBusy() || s.IsTimedOut()) return Status::Busy(std::move(msg));
  return Status::IOError(std::move(msg));
}

Status IteratorStatus(const rocksdb::Iterator& it) {
  return FromRocksDb(it.status(), "iterate");
}
using RocksDbIterator = LsmIterator<rocksdb::Iterator, rocksdb::Slice>;

class RocksDbEngine final : public AdapterEngine {
 public:
  ~RocksDbEngine() override { (void)Close(); }

  std::string_view id() const override { return kId; }

  Status Open(const std::string& path, const EngineOptions& options) override {
    if (db_) return Status::InvalidArgument("rocksdb open: already open");
    unsupported_.clear();
    total_order_seek_ = false;
    Result<rocksdb::Options> ro = MapOptions(options);
    if (!ro.ok()) return ro.status();
    DT_RETURN_IF_ERROR(EnsureDirectory(path, kId));
    // On a device with a sync-latency floor (--throttle's class) every
    // sync of the DB meets it (src/core/sync_floor.h).
    sync_floor_ns_ = SyncFloorOfPath(path);
    env_.reset();
    if (sync_floor_ns_ > 0) {
      env_ = NewRocksDbSyncFloorEnv(sync_floor_ns_);
      ro->env = env_.get();
    }
    rocksdb::DB* db = nullptr;
    DT_RETURN_IF_ERROR(
        FromRocksDb(rocksdb::DB::Open(*ro, path, &db), "open " + path));
    db_.reset(db);
    sync_by_default_ = options.sync;
    RecordSettings();
    return Status::OK();
  }

  Status Close() override {
    if (!db_) return Status::OK();
    // Close() reports errors that the destructor would swallow.
    Status s = FromRocksDb(db_->Close(), "close");
    db_.reset();
    return s;
  }

  Status Put(std::string_view key, std::string_view value,
             const WriteOptions& wo) override {
    if (!db_) return NotOpen(kId, "put");
    return FromRocksDb(db_->Put(Map(wo), ToSlice(key), ToSlice(value)), "put");
  }

  Status Get(std::string_view key, std::string* value) override {
    if (!db_) return NotOpen(kId, "get");
    rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), ToSlice(key), value);
    if (s.IsNotFound()) return KeyNotFound();
    return FromRocksDb(s, "get");
  }

  Status Delete(std::string_view key, const WriteOptions& wo) override {
    if (!db_) return NotOpen(kId, "delete");
    return FromRocksDb(db_->Delete(Map(wo), ToSlice(key)), "delete");
  }

  Status Write(const WriteBatch& batch, const WriteOptions& wo) override {
    if (!db_) return NotOpen(kId, "write batch");
    rocksdb::WriteBatch native;
    for (const WriteBatch::Op& op : batch.ops()) {
      rocksdb::Status s =
          op.is_delete ? native.Delete(op.key) : native.Put(op.key, op.value);
      if (!s.ok()) return FromRocksDb(s, "write batch");
    }
    return FromRocksDb(db_->Write(Map(wo), &native), "write batch");
  }

  std::unique_ptr<EngineIterator> NewIterator() override {
    if (!db_) return NewErrorIterator(NotOpen(kId, "iterator"));
    return std::make_unique<RocksDbIterator>(
        db_->NewIterator(IteratorReadOptions()), IteratorStatus);
  }

  Status Flush() override {
    if (!db_) return NotOpen(kId, "flush");
    return FromRocksDb(db_->Flush(rocksdb::FlushOptions()), "flush");
  }

  // Polls RocksDB's own counters of pending and running flushes and
  // compactions every 20 ms.
  Result<uint64_t> SettleBackgroundWork(uint64_t max_ns) override {
    if (!db_) return NotOpen(kId, "settle");
    const auto start = std::chrono::steady_clock::now();
    for (bool seen = false;; seen = true) {
      uint64_t busy = 0;
      for (const std::string& p :
           {rocksdb::DB::Properties::kMemTableFlushPending,
            rocksdb::DB::Properties::kNumRunningFlushes,
            rocksdb::DB::Properties::kCompactionPending,
            rocksdb::DB::Properties::kNumRunningCompactions}) {
        uint64_t v = 0;
        if (db_->GetIntProperty(p, &v)) busy += v;
      }
      if (busy == 0 && !seen) return uint64_t{0};
      // At least 1 ns once there was work, so the caller can tell.
      const uint64_t waited = std::max<uint64_t>(
          1, std::chrono::duration_cast<std::chrono::nanoseconds>(
                 std::chrono::steady_clock::now() - start)
                 .count());
      if (busy == 0 || waited >= max_ns) return waited;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  Status CompactAll() override {
    if (!db_) return NotOpen(kId, "compact");
    return FromRocksDb(
        db_->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr),
        "compact");
  }

  std::string StatsText() override {
    std::string stats;
    if (db_) db_->GetProperty("rocksdb.stats", &stats);
    return stats;
  }

  std::vector<std::pair<std::string, std::string>> Properties() override {
    std::vector<std::pair<std::string, std::string>> props;
    if (!db_) return props;
    auto add = [&](const std::string& name) {
      std::string value;
      if (db_->GetProperty(name, &value)) props.emplace_back(name, value);
    };
    for (int level = 0; level < db_->NumberLevels(); ++level) {
      add("rocksdb.num-files-at-level" + std::to_string(level));
    }
    add("rocksdb.estimate-num-keys");
    add("rocksdb.total-sst-files-size");
    add("rocksdb.estimate-live-data-size");
    add("rocksdb.cur-size-all-mem-tables");
    add("rocksdb.block-cache-usage");
    add("rocksdb.num-running-compactions");
    const std::string limit(256, '\xff');
    rocksdb::Range all("", limit);
    uint64_t size_bytes = 0;
    rocksdb::Status s = db_->GetApproximateSizes(
        rocksdb::SizeApproximationOptions(), db_->DefaultColumnFamily(), &all,
        1, &size_bytes);
    if (s.ok()) {
      props.emplace_back("approximate_size_bytes", std::to_string(size_bytes));
    }
    return props;
  }

  std::vector<std::pair<std::string, std::string>> Settings() const override {
    return settings_;
  }

  // WriteBatch rejects larger values ("value is too large").
  std::optional<uint64_t> max_value_bytes() const override {
    return std::numeric_limits<uint32_t>::max();
  }

  bool thread_safe() const override { return true; }

  Status Destroy(const std::string& path) override {
    DT_RETURN_IF_ERROR(Close());
    // DestroyDB removes only RocksDB's own files, then the directory if empty.
    return FromRocksDb(rocksdb::DestroyDB(path, rocksdb::Options()),
                       "destroy " + path);
  }

 private:
  // RocksDB's options for `o`: its defaults, with every option the knobs'
  // map (engines/rocksdb_option_map.h) names read by RocksDB's own
  // options-from-map calls, as the OPTIONS file the user gets is read. The
  // table options are replaced only when a table knob is set, so an
  // unconfigured run keeps RocksDB's own default table factory untouched.
  Result<rocksdb::Options> MapOptions(const EngineOptions& o) {
    RocksDbOptionMap map = RocksDbOptionsOf(o);
    unsupported_ = map.unsupported;
    std::erase_if(map.options, [this](const RocksDbOption& opt) {
      if (opt.knob->unit != KnobUnit::kCompression &&
          opt.knob->id != KnobId::kBottommostCompression) {
        return false;
      }
      if (CodecBuilt(opt.value)) return false;
      unsupported_.emplace_back(std::string(opt.knob->json_key),
                                "this rocksdb build has no " + opt.value);
      return true;
    });
    rocksdb::ConfigOptions config;
    config.ignore_unknown_options = false;
    config.input_strings_escaped = false;
    rocksdb::DBOptions db;
    rocksdb::ColumnFamilyOptions cf;
    DT_RETURN_IF_ERROR(FromRocksDb(
        rocksdb::GetDBOptionsFromMap(config, db, map.Section("DBOptions"), &db),
        "options"));
    DT_RETURN_IF_ERROR(
        FromRocksDb(rocksdb::GetColumnFamilyOptionsFromMap(
                        config, cf, map.Section("CFOptions"), &cf),
                    "options"));
    auto table_map = map.Section("TableOptions/BlockBasedTable");
    if (!table_map.empty()) {
      rocksdb::BlockBasedTableOptions table;
      DT_RETURN_IF_ERROR(FromRocksDb(rocksdb::GetBlockBasedTableOptionsFromMap(
                                         config, table, table_map, &table),
                                     "options"));
      // The factory holds the cache and filter policy by shared_ptr, and
      // the DB holds the factory, so both live as long as the DB.
      cf.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    }
    rocksdb::Options ro(db, cf);
    ro.create_if_missing = true;
    // With a prefix extractor a plain Seek stays inside the target's
    // prefix; the runner's scans cross prefixes, so iterators ask for total
    // order (the prefix filter still serves point reads).
    total_order_seek_ = ro.prefix_extractor != nullptr;
    if (o.in_memory) {
      unsupported_.emplace_back(
          "in_memory", "the adapter runs rocksdb on disk only (no memory Env)");
    }
    return ro;
  }

  // Whether this RocksDB build has the codec RocksDB spells `name`
  // ("kZSTD"); kNoCompression and kDisableCompressionOption always.
  static bool CodecBuilt(const std::string& name) {
    if (name == "kNoCompression" || name == "kDisableCompressionOption") {
      return true;
    }
    for (rocksdb::CompressionType t : rocksdb::GetSupportedCompressions()) {
      std::string built;
      if (rocksdb::GetStringFromCompressionType(&built, t).ok() &&
          built == name) {
        return true;
      }
    }
    return false;
  }

  rocksdb::ReadOptions IteratorReadOptions() const {
    rocksdb::ReadOptions ro;
    ro.total_order_seek = total_order_seek_;
    return ro;
  }

  // The options that shape the figures, read back from the open DB; RocksDB
  // writes all of them to the OPTIONS file it keeps in the database directory.
  void RecordSettings() {
    const rocksdb::Options o = db_->GetOptions();
    auto n = [](uint64_t v) { return std::to_string(v); };
    std::string table = o.table_factory ? o.table_factory->Name() : "";
    if (const auto* bt =
            o.table_factory
                ? o.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>()
                : nullptr) {
      table += " block_size=" + n(bt->block_size);
      table += " block_cache=" +
               (bt->block_cache ? n(bt->block_cache->GetCapacity()) : "none");
      table +=
          " filter=" +
          std::string(bt->filter_policy ? bt->filter_policy->Name() : "none");
      table += std::string(" whole_key_filtering=") +
               (bt->whole_key_filtering ? "true" : "false");
    }
    std::string per_level;
    for (rocksdb::CompressionType t : o.compression_per_level) {
      per_level += (per_level.empty() ? "" : ":") + CompressionTypeText(t);
    }
    settings_ = {
        {"rocksdb.version", rocksdb::GetRocksVersionAsString(true)},
        {"rocksdb.table_factory", table},
        {"rocksdb.write_buffer_size", n(o.write_buffer_size)},
        {"rocksdb.max_write_buffer_number", n(o.max_write_buffer_number)},
        {"rocksdb.target_file_size_base", n(o.target_file_size_base)},
        {"rocksdb.max_bytes_for_level_base", n(o.max_bytes_for_level_base)},
        {"rocksdb.level0_file_num_compaction_trigger",
         n(o.level0_file_num_compaction_trigger)},
        {"rocksdb.level0_slowdown_writes_trigger",
         n(o.level0_slowdown_writes_trigger)},
        {"rocksdb.level0_stop_writes_trigger", n(o.level0_stop_writes_trigger)},
        {"rocksdb.compression", CompressionTypeText(o.compression)},
        {"rocksdb.max_open_files", std::to_string(o.max_open_files)},
        {"rocksdb.max_background_jobs", std::to_string(o.max_background_jobs)},
        {"rocksdb.min_write_buffer_number_to_merge",
         n(o.min_write_buffer_number_to_merge)},
        {"rocksdb.max_bytes_for_level_multiplier",
         std::to_string(o.max_bytes_for_level_multiplier)},
        {"rocksdb.bytes_per_sync", n(o.bytes_per_sync)},
        {"rocksdb.wal_bytes_per_sync", n(o.wal_bytes_per_sync)},
        {"rocksdb.compaction_readahead_size", n(o.compaction_readahead_size)},
        {"rocksdb.use_direct_io_for_flush_and_compaction",
         o.use_direct_io_for_flush_and_compaction ? "true" : "false"},
        {"rocksdb.allow_mmap_reads", o.allow_mmap_reads ? "true" : "false"},
        {"rocksdb.bottommost_compression",
         o.bottommost_compression == rocksdb::kDisableCompressionOption
             ? "same as compression"
             : CompressionTypeText(o.bottommost_compression)},
        {"rocksdb.compression_per_level",
         per_level.empty() ? "uniform" : per_level},
        {"rocksdb.prefix_extractor",
         o.prefix_extractor ? o.prefix_extractor->AsString() : "none"},
        {"rocksdb.compaction_style",
         o.compaction_style == rocksdb::kCompactionStyleUniversal ? "universal"
                                                                  : "level"},
        {"rocksdb.write_sync",
         sync_by_default_ ? "every write" : "writes that ask for sync"},
        {"rocksdb.options_file", "OPTIONS-* in the database directory"},
    };
    AddHeldKnobOptions(o);
    if (sync_floor_ns_ > 0) {
      settings_.emplace_back(
          "rocksdb.sync_floor",
          FormatDuration(static_cast<double>(sync_floor_ns_)) +
              " per sync (the device class's; a software floor in the "
              "FileSystem)");
    }
  }

  // Every row of the knob table with a RocksDB column that the list above
  // leaves out, as "rocksdb.<option>" with the value the open database
  // holds (its options written out as RocksDB's OPTIONS file spells them):
  // a knob added as a row shows in the reports with no code here.
  void AddHeldKnobOptions(const rocksdb::Options& o) {
    rocksdb::ConfigOptions config;
    std::unordered_map<std::string, std::string> held;
    auto add = [&held](const rocksdb::Status& s, const std::string& text) {
      std::unordered_map<std::string, std::string> m;
      if (s.ok() && rocksdb::StringToMap(text, &m).ok()) held.merge(m);
    };
    std::string text;
    add(rocksdb::GetStringFromDBOptions(config, rocksdb::DBOptions(o), &text),
        text);
    add(rocksdb::GetStringFromColumnFamilyOptions(
            config, rocksdb::ColumnFamilyOptions(o), &text),
        text);
    if (o.table_factory) {
      add(o.table_factory->GetOptionString(config, &text), text);
    }
    for (const KnobSpec& k : Knobs()) {
      if (!k.rocksdb.default_value) continue;
      const std::string option(k.rocksdb.option);
      const std::string name = "rocksdb." + option;
      // Listed already: by name, or inside the table factory's line.
      auto listed = [&](const std::pair<std::string, std::string>& s) {
        return s.first == name ||
               s.second.find(" " + option + "=") != std::string::npos;
      };
      auto it = held.find(option);
      if (it == held.end() ||
          std::any_of(settings_.begin(), settings_.end(), listed)) {
        continue;
      }
      settings_.emplace_back(name, it->second);
    }
  }

  static std::string CompressionTypeText(rocksdb::CompressionType t) {
    switch (t) {
      case rocksdb::kNoCompression:
        return "none";
      case rocksdb::kSnappyCompression:
        return "snappy";
      case rocksdb::kLZ4Compression:
        return "lz4";
      case rocksdb::kZSTD:
        return "zstd";
      default:
        return "type " + std::to_string(static_cast<int>(t));
    }
  }

  rocksdb::WriteOptions Map(const WriteOptions& wo) const {
    rocksdb::WriteOptions rwo;
    rwo.sync = wo.sync || sync_by_default_;
    return rwo;
  }

  // Declared before db_ so that db_, which uses it, is destroyed first.
  std::unique_ptr<rocksdb::Env> env_;  // the sync floor's, when it has one
  std::unique_ptr<rocksdb::DB> db_;
  bool sync_by_default_ = false;
  bool total_order_seek_ = false;
  uint64_t sync_floor_ns_ = 0;
  std::vector<std::pair<std::string, std::string>> settings_;
};

}  // namespace

LibraryBuild RocksDbLibrary() {
  LibraryBuild b = LibraryOf(kId, rocksdb::GetRocksVersionAsString(true),
                             "library", "rocksdb_open");
  // RocksDB compiles its sync points (test hooks) only where NDEBUG is not
  // defined, i.e. in builds with assertions on, and its own code calls them
  // there: a weak reference to SyncPoint::GetInstance() resolves exactly when
  // the library linked (shared or static) is such a build.
  b.assertions = RocksDbSyncPointInstance != nullptr ? "on" : "off";
  b.assertions_evidence =
      "rocksdb::SyncPoint::GetInstance(), compiled only without NDEBUG, is " +
      std::string(RocksDbSyncPointInstance != nullptr ? "" : "not ") + "linked";
  return b;
}

std::unique_ptr<Engine> NewRocksDbEngine() {
  return std::make_unique<RocksDbEngine>();
}

}  // namespace disktune::engine_internal
