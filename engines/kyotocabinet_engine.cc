// Kyoto Cabinet adapter: TreeDB (a B+ tree in a file) tuned as LevelDB's
// TreeDB benchmark (db_bench_tree_db, the 2011 LevelDB benchmark page) tunes
// it: TSMALL|TLINEAR|TCOMPRESS with LZO, a 4 MiB page cache, 1 KiB pages and
// a 256 MiB memory map. A common knob that is set replaces the matching one
// (--compression none, --cache-size, --block-size). GrassDB, the same B+
// tree held in memory, for in-memory mode.
//
// Thread safety: Kyoto Cabinet's database objects take their own
// reader/writer locks in every method, so thread_safe() is true without an
// adapter mutex.
#include <kccachedb.h>
#include <kccompress.h>
#include <kchashdb.h>

#include <cstdint>
#include <map>
#include <string>
#include <type_traits>

#include "engines/adapter_util.h"
#include "engines/engine_factories.h"
#include "engines/engine_library.h"

namespace disktune::engine_internal {

namespace {

namespace kc = kyotocabinet;

constexpr std::string_view kId = "kyotocabinet";
constexpr const char* kDbFileName = "db.kct";
// What LevelDB's TreeDB benchmark tunes (its --cache_size and --page_size
// defaults, and tune_map(256 MiB)).
constexpr uint64_t kBenchPageCacheBytes = uint64_t{4} << 20;
constexpr uint64_t kBenchPageBytes = 1024;
constexpr int64_t kMapBytes = int64_t{256} << 20;
constexpr const char* kWriteBenchmarkEnd =
    "synchronize() inside the time, as LevelDB's TreeDB benchmark";

Status FromKyoto(const kc::BasicDB::Error& e, std::string_view op) {
  std::string msg =
      "kyotocabinet " + std::string(op) + ": " + e.name() + ": " + e.message();
  switch (e.code()) {
    case kc::BasicDB::Error::NOREC:
      return Status::NotFound(std::move(msg));
    case kc::BasicDB::Error::INVALID:
    case kc::BasicDB::Error::NOIMPL:
      return Status::InvalidArgument(std::move(msg));
    case kc::BasicDB::Error::NOPERM:
      return Status::PermissionDenied(std::move(msg));
    case kc::BasicDB::Error::BROKEN:
    case kc::BasicDB::Error::LOGIC:
      return Status::Corruption(std::move(msg));
    default:
      return Status::IOError(std::move(msg));
  }
}

// Cursors on a B+ tree hold no lock between calls, so each move copies the
// record out, into strings reused from move to move.
class KyotoIterator final : public EngineIterator {
 public:
  explicit KyotoIterator(kc::BasicDB* db) : db_(db), cur_(db->cursor()) {}

  // Forward moves read the record and step past it in one cursor call
  // (get with step=true), as LevelDB's TreeDB benchmark reads: the cursor
  // then sits one record ahead of the one held (ahead_).
  void SeekToFirst() override { Load(cur_->jump(), true); }
  void SeekToLast() override { Load(cur_->jump_back(), false); }
  void Seek(std::string_view target) override {
    Load(cur_->jump(target.data(), target.size()), true);
  }
  bool Valid() const override { return valid_; }
  void Next() override { Load(ahead_ || cur_->step(), true); }
  void Prev() override {
    if (!ahead_) return Load(cur_->step_back(), false);
    // Back onto the record held (the last one <= its key), then before it.
    const std::string current(key_);
    Load(cur_->jump_back(current.data(), current.size()), false);
    if (valid_ && key_ == current) Load(cur_->step_back(), false);
  }
  std::string_view key() const override { return key_; }
  std::string_view value() const override { return value_; }
  Status status() const override { return status_; }

  // A forward scan as LevelDB's TreeDB benchmark reads: one get(step=true)
  // per record into two reused strings (its std::string overload, which
  // allocates nothing per record); the record it stops on is the one key()
  // and value() then return.
  uint64_t Skip(uint64_t n, bool forward, uint64_t* bytes) override {
    if (!forward || !ahead_) return EngineIterator::Skip(n, forward, bytes);
    if (n == 0 || !valid_) return 0;
    uint64_t b = key_.size() + value_.size();
    uint64_t i = 1;
    for (; cur_->get(&scratch_key_, &scratch_value_, true); i++) {
      if (i == n) {
        key_.swap(scratch_key_);
        value_.swap(scratch_value_);
        *bytes += b;
        return i;
      }
      b += scratch_key_.size() + scratch_value_.size();
    }
    valid_ = false;
    NoteError("iterator scan");
    *bytes += b;
    return i;
  }

 private:
  // Reads the record at the cursor (stepping past it when `step`) if the
  // cursor `moved` there.
  void Load(bool moved, bool step) {
    valid_ = false;
    ahead_ = step;
    if (!moved) return NoteError("iterator move");
    if (!cur_->get(&key_, &value_, step)) return NoteError("iterator get");
    valid_ = true;
  }

  // Running off either end reports NOREC, which is not an error here.
  void NoteError(std::string_view op) {
    const kc::BasicDB::Error e = db_->error();
    if (e.code() != kc::BasicDB::Error::NOREC && status_.ok()) {
      status_ = FromKyoto(e, op);
    }
  }

  kc::BasicDB* db_;
  std::unique_ptr<kc::BasicDB::Cursor> cur_;
  bool valid_ = false;
  bool ahead_ = false;  // the cursor is past the record held
  std::string scratch_key_;
  std::string scratch_value_;
  std::string key_;
  std::string value_;
  Status status_;
};

class KyotoCabinetEngine final : public AdapterEngine {
 public:
  ~KyotoCabinetEngine() override { (void)Close(); }

  std::string_view id() const override { return kId; }

  Status Open(const std::string& path, const EngineOptions& options) override {
    if (db_ != nullptr) {
      return Status::InvalidArgument("kyotocabinet open: already open");
    }
    unsupported_.clear();
    AddSingleFileKnobs(options, kId, &unsupported_);
    bool ok = false;
    const uint32_t mode =
        kc::BasicDB::OWRITER | kc::BasicDB::OCREATE | kc::BasicDB::OTRYLOCK;
    if (options.in_memory) {
      grass_ = std::make_unique<kc::GrassDB>();
      Tune(grass_.get(), options);
      db_ = grass_.get();
      ok = grass_->open(":", mode);
    } else {
      DT_RETURN_IF_ERROR(EnsureDirectory(path, kId));
      tree_ = std::make_unique<kc::TreeDB>();
      Tune(tree_.get(), options);
      db_ = tree_.get();
      ok = tree_->open(path + "/" + kDbFileName, mode);
    }
    if (!ok) {
      Status s = FromKyoto(db_->error(), "open " + path);
      Release();
      return s;
    }
    sync_by_default_ = options.sync;
    in_memory_ = options.in_memory;
    return Status::OK();
  }

  Status Close() override {
    if (db_ == nullptr) return Status::OK();
    Status s;
    if (!db_->close()) s = FromKyoto(db_->error(), "close");
    Release();
    return s;
  }

  Status Put(std::string_view key, std::string_view value,
             const WriteOptions& wo) override {
    if (db_ == nullptr) return NotOpen(kId, "put");
    if (!db_->set(key.data(), key.size(), value.data(), value.size())) {
      return FromKyoto(db_->error(), "put");
    }
    return MaybeSync(wo, "put");
  }

  Status Get(std::string_view key, std::string* value) override {
    if (db_ == nullptr) return NotOpen(kId, "get");
    size_t size = 0;
    char* buf = db_->get(key.data(), key.size(), &size);
    if (buf == nullptr) {
      kc::BasicDB::Error e = db_->error();
      if (e.code() == kc::BasicDB::Error::NOREC) return KeyNotFound();
      return FromKyoto(e, "get");
    }
    value->assign(buf, size);
    delete[] buf;
    return Status::OK();
  }

  Status Delete(std::string_view key, const WriteOptions& wo) override {
    if (db_ == nullptr) return NotOpen(kId, "delete");
    if (!db_->remove(key.data(), key.size()) &&
        db_->error().code() != kc::BasicDB::Error::NOREC) {
      return FromKyoto(db_->error(), "delete");
    }
    return MaybeSync(wo, "delete");
  }

  Status Write(const WriteBatch& batch, const WriteOptions& wo) override {
    if (db_ == nullptr) return NotOpen(kId, "write batch");
    // A hard transaction syncs its log at commit: the sync-write path.
    const bool hard = wo.sync || sync_by_default_;
    if (!db_->begin_transaction(hard)) {
      return FromKyoto(db_->error(), "write batch: begin");
    }
    for (const WriteBatch::Op& op : batch.ops()) {
      bool ok = op.is_delete
                    ? (db_->remove(op.key.data(), op.key.size()) ||
                       db_->error().code() == kc::BasicDB::Error::NOREC)
                    : db_->set(op.key.data(), op.key.size(), op.value.data(),
                               op.value.size());
      if (!ok) {
        Status s = FromKyoto(db_->error(), "write batch");
        db_->end_transaction(false);
        return s;
      }
    }
    if (!db_->end_transaction(true)) {
      return FromKyoto(db_->error(), "write batch: commit");
    }
    return Status::OK();
  }

  std::unique_ptr<EngineIterator> NewIterator() override {
    if (db_ == nullptr) return NewErrorIterator(NotOpen(kId, "iterator"));
    return std::make_unique<KyotoIterator>(db_);
  }

  Status Flush() override {
    if (db_ == nullptr) return NotOpen(kId, "flush");
    if (!db_->synchronize(true)) return FromKyoto(db_->error(), "flush");
    return Status::OK();
  }

  // LevelDB's TreeDB benchmark ends each write benchmark with synchronize()
  // (not hard: the dirty pages are written to the file, not fsync'ed).
  Status FinishWriteBenchmark() override {
    if (db_ == nullptr) return NotOpen(kId, "finish writes");
    if (!db_->synchronize(false)) {
      return FromKyoto(db_->error(), "finish writes");
    }
    return Status::OK();
  }

  Status CompactAll() override {
    if (db_ == nullptr) return NotOpen(kId, "compact");
    // defrag(0) rewrites the whole file region, dropping free blocks.
    const bool ok = tree_ ? tree_->defrag(0) : grass_->defrag(0);
    if (!ok) return FromKyoto(db_->error(), "compact");
    return Status::OK();
  }

  std::string StatsText() override {
    if (db_ == nullptr) return "";
    std::map<std::string, std::string> status;
    if (!db_->status(&status)) return "";
    std::string text;
    for (const auto& [name, value] : status) text += name + ": " + value + "\n";
    return text;
  }

  std::vector<std::pair<std::string, std::string>> Properties() override {
    if (db_ == nullptr) return {};
    std::vector<std::pair<std::string, std::string>> props = {
        {"kyotocabinet.count", std::to_string(db_->count())},
        {"approximate_size_bytes", std::to_string(db_->size())},
    };
    std::map<std::string, std::string> status;
    if (db_->status(&status)) {
      // Page counts and the cache size in effect.
      for (const char* name : {"pnum", "lcnum", "icnum", "pccap", "psiz"}) {
        auto it = status.find(name);
        if (it != status.end()) {
          props.emplace_back(std::string("kyotocabinet.") + name, it->second);
        }
      }
    }
    return props;
  }

  std::vector<std::pair<std::string, std::string>> Settings() const override {
    if (page_bytes_ == 0) return {};
    std::string opts = "TSMALL|TLINEAR";
    if (compressor_name_ != "none") opts += "|TCOMPRESS";
    return {
        {"kyotocabinet.version", kc::VERSION},
        {"kyotocabinet.database", in_memory_
                                      ? "GrassDB (in memory)"
                                      : std::string("TreeDB ") + kDbFileName},
        {"kyotocabinet.tune_options", opts},
        {"kyotocabinet.compressor", compressor_name_},
        {"kyotocabinet.page_cache_bytes", std::to_string(page_cache_bytes_)},
        {"kyotocabinet.page_bytes", std::to_string(page_bytes_)},
        {"kyotocabinet.map_bytes",
         in_memory_ ? "n/a" : std::to_string(kMapBytes)},
        {"kyotocabinet.open_mode", "OWRITER|OCREATE|OTRYLOCK"},
        {"kyotocabinet.sync",
         sync_by_default_ ? "synchronize(hard) after every write"
                          : "synchronize(hard) after writes that ask for sync"},
        {"kyotocabinet.write_benchmark_end", kWriteBenchmarkEnd},
    };
  }

  bool thread_safe() const override { return true; }

  Status Destroy(const std::string& path) override {
    DT_RETURN_IF_ERROR(Close());
    const std::string base = kDbFileName;
    return RemoveDbFiles(path, kId, [&](std::string_view name) {
      // The database and its ".wal" / ".tmp" companions.
      return StartsWith(name, base);
    });
  }

 private:
  // Tuning happens before open(). A knob left unset takes the value of
  // LevelDB's TreeDB benchmark (not Kyoto's own defaults of a 64 MiB page
  // cache, 8 KiB pages and no compression).
  template <typename PlantDb>
  void Tune(PlantDb* db, const EngineOptions& o) {
    int8_t opts = PlantDb::TSMALL | PlantDb::TLINEAR;
    compressor_name_ = "none";
    switch (o.compression().value_or(Compression::kLzo)) {
      case Compression::kNone:
        break;
      case Compression::kLzo:
        compressor_ = std::make_unique<kc::LZOCompressor<kc::LZO::RAW>>();
        db->tune_compressor(compressor_.get());
        opts |= PlantDb::TCOMPRESS;
        compressor_name_ = "lzo (raw)";
        break;
      case Compression::kSnappy:
      case Compression::kLz4:
      case Compression::kZstd:
        unsupported_.emplace_back(
            "compression",
            std::string("kyotocabinet compresses with zlib, lzo or lzma; ") +
                CompressionName(*o.compression()) + " is not available");
        break;
    }
    db->tune_options(opts);
    page_cache_bytes_ = o.cache_bytes().value_or(kBenchPageCacheBytes);
    page_bytes_ = o.block_size_bytes().value_or(kBenchPageBytes);
    db->tune_page_cache(static_cast<int64_t>(page_cache_bytes_));
    db->tune_page(static_cast<int32_t>(page_bytes_));
    if constexpr (std::is_same_v<PlantDb, kc::TreeDB>) db->tune_map(kMapBytes);
  }

  Status MaybeSync(const WriteOptions& wo, std::string_view op) {
    if (!(wo.sync || sync_by_default_)) return Status::OK();
    // What OAUTOSYNC does after each update: write back and fsync.
    if (!db_->synchronize(true)) {
      return FromKyoto(db_->error(), std::string(op) + ": sync");
    }
    return Status::OK();
  }

  void Release() {
    db_ = nullptr;
    tree_.reset();
    grass_.reset();
    compressor_.reset();
  }

  // Declared first so the databases that use it are destroyed before it.
  std::unique_ptr<kc::Compressor> compressor_;
  std::unique_ptr<kc::TreeDB> tree_;
  std::unique_ptr<kc::GrassDB> grass_;
  kc::BasicDB* db_ = nullptr;  // tree_ or grass_, whichever is open
  bool sync_by_default_ = false;
  bool in_memory_ = false;
  std::string compressor_name_;
  uint64_t page_cache_bytes_ = 0;
  uint64_t page_bytes_ = 0;  // 0 before the first Open()
};

}  // namespace

LibraryBuild KyotoCabinetLibrary() {
  LibraryBuild b = LibraryOf(kId, kc::VERSION, "library", "kcdbnew");
  b.assertions_evidence = "Kyoto Cabinet exports nothing that tells";
  return b;
}

std::unique_ptr<Engine> NewKyotoCabinetEngine() {
  return std::make_unique<KyotoCabinetEngine>();
}

}  // namespace disktune::engine_internal
