// SQLite3 adapter: one WITHOUT ROWID table keyed by a BLOB, set up the way
// LevelDB's SQLite benchmark (db_bench_sqlite3, the 2011 LevelDB benchmark
// page) sets SQLite up: WAL with a checkpoint every 4096 pages, exclusive
// locking, a cache of 4096 pages, synchronous=OFF for asynchronous writes and
// FULL for synced ones, prepared statements reused for every operation.
//
// Thread safety: the connection is opened SQLITE_OPEN_NOMUTEX and the adapter
// serialises every use of it (including iterator steps) with one mutex, which
// also guards the shared prepared statements. thread_safe() is true, but
// concurrent callers run one at a time.
#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <string>

#include "engines/adapter_util.h"
#include "engines/engine_factories.h"
#include "engines/engine_library.h"
#include "engines/engine_settings.h"

namespace disktune::engine_internal {

namespace {

constexpr std::string_view kId = "sqlite3";
constexpr const char* kDbFileName = "db.sqlite3";
// LevelDB's SQLite benchmark: --num_pages=4096 (its page_size flag of 1 KiB is
// applied only when changed, so SQLite's default page size stands).
constexpr int kBenchCachePages = 4096;

Status FromSqlite(sqlite3* db, int rc, std::string_view op) {
  std::string msg = "sqlite3 " + std::string(op) + ": ";
  msg += db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  switch (rc & 0xff) {  // the primary result code
    case SQLITE_FULL:
      return Status::NoSpace(std::move(msg));
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Status::Busy(std::move(msg));
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return Status::Corruption(std::move(msg));
    case SQLITE_PERM:
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
      return Status::PermissionDenied(std::move(msg));
    case SQLITE_TOOBIG:
    case SQLITE_MISUSE:
    case SQLITE_RANGE:
      return Status::InvalidArgument(std::move(msg));
    default:
      return Status::IOError(std::move(msg));
  }
}

// A zero-length blob must be bound from a non-null pointer, or SQLite binds
// NULL instead of an empty key. SQLITE_STATIC (no copy) is for statements
// run to completion before the caller's buffer goes away; an iterator's
// statement outlives the call that bound it, so it passes SQLITE_TRANSIENT.
int BindBlob(sqlite3_stmt* stmt, int index, std::string_view bytes,
             sqlite3_destructor_type lifetime = SQLITE_STATIC) {
  return sqlite3_bind_blob(stmt, index, bytes.empty() ? "" : bytes.data(),
                           static_cast<int>(bytes.size()), lifetime);
}

std::string_view ColumnBlob(sqlite3_stmt* stmt, int column) {
  const void* data = sqlite3_column_blob(stmt, column);
  const int size = sqlite3_column_bytes(stmt, column);
  if (data == nullptr) return {};
  return {static_cast<const char*>(data), static_cast<size_t>(size)};
}

// Owns one prepared statement.
class Statement {
 public:
  Statement() = default;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement() { Finalize(); }

  Status Prepare(sqlite3* db, const char* sql) {
    Finalize();
    const int rc = sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr);
    if (rc != SQLITE_OK) {
      return FromSqlite(db, rc, std::string("prepare ") + sql);
    }
    return Status::OK();
  }
  sqlite3_stmt* get() const { return stmt_; }
  void Finalize() {
    sqlite3_finalize(stmt_);
    stmt_ = nullptr;
  }

 private:
  sqlite3_stmt* stmt_ = nullptr;
};

// Iterates with ORDER BY key statements: BLOBs compare with memcmp, then by
// length, which is the bytewise order every engine here uses. A change of
// direction restarts the scan from the current key with the opposite
// statement.
class Sqlite3Iterator final : public EngineIterator {
 public:
  Sqlite3Iterator(sqlite3* db, std::mutex* mu) : db_(db), mu_(mu) {}
  ~Sqlite3Iterator() override {
    // Finalizing touches the connection, so it happens under the mutex.
    std::lock_guard<std::mutex> lock(*mu_);
    for (Statement& s : stmts_) s.Finalize();
  }

  void SeekToFirst() override { Start(kFirst, {}); }
  void SeekToLast() override { Start(kLast, {}); }
  void Seek(std::string_view target) override { Start(kAtOrAfter, target); }
  bool Valid() const override { return valid_; }

  void Next() override {
    if (forward_) {
      Step();
    } else {
      const std::string current(key_);
      Start(kAfter, current);
    }
  }
  void Prev() override {
    if (!forward_) {
      Step();
    } else {
      const std::string current(key_);
      Start(kBefore, current);
    }
  }

  std::string_view key() const override { return key_; }
  std::string_view value() const override { return value_; }
  Status status() const override { return status_; }

  // A scan as LevelDB's SQLite benchmark reads: sqlite3_step and
  // sqlite3_column_bytes per row under one lock, copying only the row it
  // stops on (which key() and value() then return), not every row.
  uint64_t Skip(uint64_t n, bool forward, uint64_t* bytes) override {
    if (forward != forward_) return EngineIterator::Skip(n, forward, bytes);
    if (n == 0 || !valid_) return 0;
    std::lock_guard<std::mutex> lock(*mu_);
    uint64_t b = key_.size() + value_.size();
    uint64_t i = 1;
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(current_)) == SQLITE_ROW && i < n) {
      b += static_cast<uint64_t>(sqlite3_column_bytes(current_, 0)) +
           static_cast<uint64_t>(sqlite3_column_bytes(current_, 1));
      i++;
    }
    *bytes += b;
    LoadRowLocked(rc);
    return i;
  }

 private:
  enum Query { kFirst, kLast, kAtOrAfter, kAfter, kBefore, kNumQueries };

  void Start(Query q, std::string_view bound) {
    static constexpr const char* kSql[kNumQueries] = {
        "SELECT key, value FROM kv ORDER BY key ASC",
        "SELECT key, value FROM kv ORDER BY key DESC",
        "SELECT key, value FROM kv WHERE key >= ?1 ORDER BY key ASC",
        "SELECT key, value FROM kv WHERE key > ?1 ORDER BY key ASC",
        "SELECT key, value FROM kv WHERE key < ?1 ORDER BY key DESC",
    };
    std::lock_guard<std::mutex> lock(*mu_);
    if (current_ != nullptr) sqlite3_reset(current_);
    current_ = nullptr;
    valid_ = false;
    Statement& stmt = stmts_[q];
    if (stmt.get() == nullptr) {
      status_ = stmt.Prepare(db_, kSql[q]);
      if (!status_.ok()) return;
    }
    if (q == kAtOrAfter || q == kAfter || q == kBefore) {
      const int rc = BindBlob(stmt.get(), 1, bound, SQLITE_TRANSIENT);
      if (rc != SQLITE_OK) {
        status_ = FromSqlite(db_, rc, "iterator bind");
        return;
      }
    }
    current_ = stmt.get();
    forward_ = q != kLast && q != kBefore;
    StepLocked();
  }

  void Step() {
    std::lock_guard<std::mutex> lock(*mu_);
    StepLocked();
  }

  void StepLocked() {
    if (current_ == nullptr) {
      valid_ = false;
      return;
    }
    LoadRowLocked(sqlite3_step(current_));
  }

  // After a step that returned `rc`: the row copied out, or the end.
  void LoadRowLocked(int rc) {
    if (rc == SQLITE_ROW) {
      // Copied while the mutex is held, so key() and value() never call
      // into SQLite without it.
      key_.assign(ColumnBlob(current_, 0));
      value_.assign(ColumnBlob(current_, 1));
      valid_ = true;
      return;
    }
    valid_ = false;
    if (rc != SQLITE_DONE) status_ = FromSqlite(db_, rc, "iterator step");
    sqlite3_reset(current_);
    current_ = nullptr;
  }

  sqlite3* db_;
  std::mutex* mu_;
  Statement stmts_[kNumQueries];
  sqlite3_stmt* current_ = nullptr;
  bool forward_ = true;
  bool valid_ = false;
  std::string key_;
  std::string value_;
  Status status_;
};

class Sqlite3Engine final : public AdapterEngine {
 public:
  ~Sqlite3Engine() override { (void)Close(); }

  std::string_view id() const override { return kId; }

  Status Open(const std::string& path, const EngineOptions& options) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (db_ != nullptr) {
      return Status::InvalidArgument("sqlite3 open: already open");
    }
    unsupported_.clear();
    AddSingleFileKnobs(options, kId, &unsupported_);
    if (options.compression().value_or(Compression::kNone) !=
        Compression::kNone) {
      unsupported_.emplace_back("compression",
                                "sqlite3 does not compress pages");
    }
    std::string file = ":memory:";
    if (!options.in_memory) {
      DT_RETURN_IF_ERROR(EnsureDirectory(path, kId));
      file = path + "/" + kDbFileName;
    }
    // NOMUTEX: the adapter's own mutex serialises all use of the connection.
    const int rc = sqlite3_open_v2(
        file.c_str(), &db_,
        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
        nullptr);
    if (rc != SQLITE_OK) {
      Status s = FromSqlite(db_, rc, "open " + file);
      sqlite3_close_v2(db_);
      db_ = nullptr;
      return s;
    }
    Status s = Configure(options);
    if (!s.ok()) {
      (void)CloseLocked();  // the configuration error is the one to report
      return s;
    }
    sync_by_default_ = options.sync;
    return Status::OK();
  }

  Status Close() override {
    std::lock_guard<std::mutex> lock(mu_);
    return CloseLocked();
  }

  Status Put(std::string_view key, std::string_view value,
             const WriteOptions& wo) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (db_ == nullptr) return NotOpen(kId, "put");
    DT_RETURN_IF_ERROR(SetSyncLocked(wo.sync || sync_by_default_));
    return PutLocked(key, value);
  }

  Status Get(std::string_view key, std::string* value) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (db_ == nullptr) return NotOpen(kId, "get");
    sqlite3_stmt* stmt = get_.get();
    int rc = BindBlob(stmt, 1, key);
    if (rc == SQLITE_OK) rc = sqlite3_step(stmt);
    Status s;
    if (rc == SQLITE_ROW) {
      value->assign(ColumnBlob(stmt, 0));
    } else if (rc == SQLITE_DONE) {
      s = KeyNotFound();
    } else {
      s = FromSqlite(db_, rc, "get");
    }
    sqlite3_reset(stmt);
    return s;
  }

  Status Delete(std::string_view key, const WriteOptions& wo) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (db_ == nullptr) return NotOpen(kId, "delete");
    DT_RETURN_IF_ERROR(SetSyncLocked(wo.sync || sync_by_default_));
    return DeleteLocked(key);
  }

  Status Write(const WriteBatch& batch, const WriteOptions& wo) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (db_ == nullptr) return NotOpen(kId, "write batch");
    DT_RETURN_IF_ERROR(SetSyncLocked(wo.sync || sync_by_default_));
    DT_RETURN_IF_ERROR(RunLocked(begin_.get(), "begin"));
    for (const WriteBatch::Op& op : batch.ops()) {
      Status s =
          op.is_delete ? DeleteLocked(op.key) : PutLocked(op.key, op.value);
      if (!s.ok()) {
        (void)RunLocked(rollback_.get(), "rollback");
        return s.WithContext("sqlite3 write batch");
      }
    }
    return RunLocked(commit_.get(), "commit");
  }

  std::unique_ptr<EngineIterator> NewIterator() override {
    std::lock_guard<std::mutex> lock(mu_);
    if (db_ == nullptr) return NewErrorIterator(NotOpen(kId, "iterator"));
    return std::make_unique<Sqlite3Iterator>(db_, &mu_);
  }

  Status Flush() override {
    std::lock_guard<std::mutex> lock(mu_);
    if (db_ == nullptr) return NotOpen(kId, "flush");
    if (in_memory_) return Status::OK();
    // With synchronous=OFF a checkpoint does not sync either; FULL for the
    // duration makes the WAL and the database file durable.
    const bool was_sync = sync_;
    DT_RETURN_IF_ERROR(SetSyncLocked(true));
    Status s = ExecLocked("PRAGMA wal_checkpoint(FULL)", "flush");
    Status restore = SetSyncLocked(was_sync);
    return s.ok() ? restore : s;
  }

  // LevelDB's SQLite benchmark ends each write benchmark with a FULL WAL
  // checkpoint at the synchronous level in force (OFF: no fsync).
  Status FinishWriteBenchmark() override {
    std::lock_guard<std::mutex> lock(mu_);
    if (db_ == nullptr) return NotOpen(kId, "finish writes");
    if (in_memory_) return Status::OK();
    const int rc = sqlite3_wal_checkpoint_v2(
        db_, nullptr, SQLITE_CHECKPOINT_FULL, nullptr, nullptr);
    if (rc != SQLITE_OK) return FromSqlite(db_, rc, "finish writes");
    return Status::OK();
  }

  Status CompactAll() override {
    std::lock_guard<std::mutex> lock(mu_);
    if (db_ == nullptr) return NotOpen(kId, "compact");
    // VACUUM rebuilds the table into the minimum number of pages: SQLite's
    // closest counterpart to compacting the whole key range.
    return ExecLocked("VACUUM", "compact");
  }

  std::string StatsText() override {
    std::lock_guard<std::mutex> lock(mu_);
    if (db_ == nullptr) return "";
    std::string text;
    for (const auto& [name, value] : PagePropertiesLocked()) {
      text += name + ": " + value + "\n";
    }
    struct Counter {
      int op;
      const char* name;
    };
    static constexpr Counter kCounters[] = {
        {SQLITE_DBSTATUS_CACHE_USED, "cache_used_bytes"},
        {SQLITE_DBSTATUS_CACHE_HIT, "cache_hits"},
        {SQLITE_DBSTATUS_CACHE_MISS, "cache_misses"},
        {SQLITE_DBSTATUS_CACHE_WRITE, "cache_writes"},
        {SQLITE_DBSTATUS_CACHE_SPILL, "cache_spills"},
    };
    for (const Counter& c : kCounters) {
      int current = 0;
      int highwater = 0;
      if (sqlite3_db_status(db_, c.op, &current, &highwater, 0) == SQLITE_OK) {
        text += std::string(c.name) + ": " + std::to_string(current) + "\n";
      }
    }
    return text;
  }

  std::vector<std::pair<std::string, std::string>> Properties() override {
    std::lock_guard<std::mutex> lock(mu_);
    if (db_ == nullptr) return {};
    return PagePropertiesLocked();
  }

  std::vector<std::pair<std::string, std::string>> Settings() const override {
    return settings_;
  }

  // SQLITE_LIMIT_LENGTH bounds a whole row; the default build allows 1e9.
  std::optional<uint64_t> max_value_bytes() const override {
    return max_length_bytes_;
  }

  bool thread_safe() const override { return true; }

  Status Destroy(const std::string& path) override {
    DT_RETURN_IF_ERROR(Close());
    const std::string base = kDbFileName;
    return RemoveDbFiles(path, kId, [&](std::string_view name) {
      // The database, its -wal / -shm / -journal companions.
      return name == base || StartsWith(name, base + "-");
    });
  }

 private:
  Status Configure(const EngineOptions& o) {
    in_memory_ = o.in_memory;
    // page_size must precede the first table and the switch to WAL; on an
    // existing database the stored page size wins.
    if (o.block_size_bytes()) {
      const uint64_t b = *o.block_size_bytes();
      if (b >= 512 && b <= 65536 && (b & (b - 1)) == 0) {
        DT_RETURN_IF_ERROR(ExecLocked("PRAGMA page_size = " + std::to_string(b),
                                      "set page_size"));
      } else {
        unsupported_.emplace_back(
            "block_size_bytes",
            "sqlite3 page_size must be a power of two in [512, 65536]");
      }
    }
    // Exclusive locking before WAL: the WAL index then lives in heap memory
    // and no -shm file is created.
    DT_RETURN_IF_ERROR(
        ExecLocked("PRAGMA locking_mode = EXCLUSIVE", "set locking_mode"));
    if (!in_memory_) {
      // In-memory databases keep their "memory" journal; WAL needs a file.
      DT_RETURN_IF_ERROR(
          ExecLocked("PRAGMA journal_mode = WAL", "set journal_mode"));
    }
    sync_ = true;  // forces the PRAGMA below
    DT_RETURN_IF_ERROR(SetSyncLocked(false));
    if (o.cache_bytes()) {
      // A negative cache_size is in KiB rather than pages.
      const uint64_t kib = std::max<uint64_t>(1, *o.cache_bytes() / 1024);
      DT_RETURN_IF_ERROR(ExecLocked(
          "PRAGMA cache_size = -" + std::to_string(kib), "set cache_size"));
    } else {
      DT_RETURN_IF_ERROR(
          ExecLocked("PRAGMA cache_size = " + std::to_string(kBenchCachePages),
                     "set cache_size"));
    }
    if (!in_memory_) {
      DT_RETURN_IF_ERROR(ExecLocked("PRAGMA wal_autocheckpoint = " +
                                        std::to_string(EngineSettingCount(
                                            o, "sqlite3.wal_autocheckpoint")),
                                    "set wal_autocheckpoint"));
    }
    DT_RETURN_IF_ERROR(ExecLocked(
        "CREATE TABLE IF NOT EXISTS kv (key BLOB PRIMARY KEY, value BLOB) "
        "WITHOUT ROWID",
        "create table"));
    DT_RETURN_IF_ERROR(put_.Prepare(
        db_, "INSERT OR REPLACE INTO kv (key, value) VALUES (?1, ?2)"));
    DT_RETURN_IF_ERROR(
        get_.Prepare(db_, "SELECT value FROM kv WHERE key = ?1"));
    DT_RETURN_IF_ERROR(del_.Prepare(db_, "DELETE FROM kv WHERE key = ?1"));
    DT_RETURN_IF_ERROR(begin_.Prepare(db_, "BEGIN"));
    DT_RETURN_IF_ERROR(commit_.Prepare(db_, "COMMIT"));
    DT_RETURN_IF_ERROR(rollback_.Prepare(db_, "ROLLBACK"));
    max_length_bytes_ = sqlite3_limit(db_, SQLITE_LIMIT_LENGTH, -1);
    RecordSettingsLocked(o);
    return Status::OK();
  }

  // What SQLite reports it runs with, read back after configuring.
  void RecordSettingsLocked(const EngineOptions& o) {
    auto text = [&](const char* sql) {
      sqlite3_stmt* stmt = nullptr;
      std::string value;
      if (sqlite3_prepare_v2(db_, sql, -1, &stmt, nullptr) == SQLITE_OK &&
          sqlite3_step(stmt) == SQLITE_ROW) {
        const unsigned char* t = sqlite3_column_text(stmt, 0);
        if (t != nullptr) value = reinterpret_cast<const char*>(t);
      }
      sqlite3_finalize(stmt);
      return value;
    };
    const int64_t cache = PragmaIntLocked("PRAGMA cache_size");
    settings_ = {
        {"sqlite3.version", sqlite3_libversion()},
        {"sqlite3.file", in_memory_ ? ":memory:" : kDbFileName},
        {"sqlite3.page_size_bytes", text("PRAGMA page_size")},
        {"sqlite3.cache_size", cache < 0 ? std::to_string(-cache) + " KiB"
                                         : std::to_string(cache) + " pages"},
        {"sqlite3.journal_mode", text("PRAGMA journal_mode")},
        {"sqlite3.locking_mode", text("PRAGMA locking_mode")},
        {"sqlite3.wal_autocheckpoint",
         in_memory_ ? "n/a"
                    : EngineSettingValue(o, "sqlite3.wal_autocheckpoint")},
        {"sqlite3.synchronous",
         o.sync ? "FULL" : "OFF (FULL for writes that ask for sync)"},
        {"sqlite3.table",
         "kv (key BLOB PRIMARY KEY, value BLOB) WITHOUT ROWID"},
        {"sqlite3.put", "INSERT OR REPLACE, one autocommit statement per put"},
        {"sqlite3.write_benchmark_end",
         in_memory_ ? "nothing (no WAL)"
                    : "FULL WAL checkpoint inside the time, as LevelDB's "
                      "SQLite benchmark"},
    };
  }

  Status CloseLocked() {
    if (db_ == nullptr) return Status::OK();
    for (Statement* s : {&put_, &get_, &del_, &begin_, &commit_, &rollback_}) {
      s->Finalize();
    }
    // close_v2 defers the close until live iterators finalize their
    // statements instead of failing with SQLITE_BUSY.
    const int rc = sqlite3_close_v2(db_);
    Status s =
        rc == SQLITE_OK ? Status::OK() : FromSqlite(nullptr, rc, "close");
    db_ = nullptr;
    return s;
  }

  Status SetSyncLocked(bool sync) {
    if (sync == sync_) return Status::OK();
    // FULL syncs the WAL at every commit; OFF never syncs (2011 baseline).
    DT_RETURN_IF_ERROR(ExecLocked(
        sync ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = OFF",
        "set synchronous"));
    sync_ = sync;
    return Status::OK();
  }

  Status PutLocked(std::string_view key, std::string_view value) {
    sqlite3_stmt* stmt = put_.get();
    int rc = BindBlob(stmt, 1, key);
    if (rc == SQLITE_OK) rc = BindBlob(stmt, 2, value);
    if (rc == SQLITE_OK) rc = sqlite3_step(stmt);
    Status s = rc == SQLITE_DONE ? Status::OK() : FromSqlite(db_, rc, "put");
    sqlite3_reset(stmt);
    return s;
  }

  Status DeleteLocked(std::string_view key) {
    sqlite3_stmt* stmt = del_.get();
    int rc = BindBlob(stmt, 1, key);
    if (rc == SQLITE_OK) rc = sqlite3_step(stmt);
    Status s = rc == SQLITE_DONE ? Status::OK() : FromSqlite(db_, rc, "delete");
    sqlite3_reset(stmt);
    return s;
  }

  Status RunLocked(sqlite3_stmt* stmt, std::string_view op) {
    const int rc = sqlite3_step(stmt);
    Status s = rc == SQLITE_DONE ? Status::OK() : FromSqlite(db_, rc, op);
    sqlite3_reset(stmt);
    return s;
  }

  // For statements run rarely (pragmas, VACUUM); rows they return are dropped.
  Status ExecLocked(const std::string& sql, std::string_view op) {
    const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) return FromSqlite(db_, rc, op);
    return Status::OK();
  }

  int64_t PragmaIntLocked(const char* sql) {
    sqlite3_stmt* stmt = nullptr;
    int64_t value = -1;
    if (sqlite3_prepare_v2(db_, sql, -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW) {
      value = sqlite3_column_int64(stmt, 0);
    }
    sqlite3_finalize(stmt);
    return value;
  }

  std::vector<std::pair<std::string, std::string>> PagePropertiesLocked() {
    const int64_t page_size_bytes = PragmaIntLocked("PRAGMA page_size");
    const int64_t page_count = PragmaIntLocked("PRAGMA page_count");
    const int64_t freelist_count = PragmaIntLocked("PRAGMA freelist_count");
    return {
        {"sqlite3.page_size_bytes", std::to_string(page_size_bytes)},
        {"sqlite3.page_count", std::to_string(page_count)},
        {"sqlite3.freelist_count", std::to_string(freelist_count)},
        {"approximate_size_bytes",
         std::to_string(page_size_bytes * page_count)},
    };
  }

  std::mutex mu_;
  sqlite3* db_ = nullptr;
  Statement put_, get_, del_, begin_, commit_, rollback_;
  bool in_memory_ = false;
  std::vector<std::pair<std::string, std::string>> settings_;
  bool sync_ = false;  // the connection's current synchronous setting
  bool sync_by_default_ = false;
  uint64_t max_length_bytes_ = 1000000000;
};

}  // namespace

LibraryBuild Sqlite3Library() {
  LibraryBuild b =
      LibraryOf(kId, sqlite3_libversion(), "library", "sqlite3_sourceid");
  // SQLITE_DEBUG builds (which turn assert() on) list it among their
  // compile options.
  b.assertions = sqlite3_compileoption_used("SQLITE_DEBUG") ? "on" : "off";
  b.assertions_evidence = "sqlite3_compileoption_used(\"SQLITE_DEBUG\")";
  return b;
}

std::unique_ptr<Engine> NewSqlite3Engine() {
  return std::make_unique<Sqlite3Engine>();
}

}  // namespace disktune::engine_internal
