// Berkeley DB adapter: one B-tree in a transactional environment set up as
// the LMDB project's Berkeley DB benchmark (db_bench_bdb) sets it up: a 4 MiB
// cache, DB_TXN_WRITE_NOSYNC (each commit writes the log to the OS without
// syncing it), 100,000 locks and lock objects, and after every write a
// checkpoint once 80 MiB of log were written or a minute passed. Each write
// is a transaction (DB_TXN_SYNC when the write asks for sync); a batch is one
// transaction. The engine settings bdb.commit and bdb.checkpoint_kib change
// the two write-path choices. Handles are opened DB_THREAD, so every call may
// come from any thread.
//
// The C API (db.h, exported by libdb_cxx as well) is used rather than the
// C++ wrappers: it reports errors as return codes, never as exceptions.
#include <db.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "engines/adapter_util.h"
#include "engines/engine_factories.h"
#include "engines/engine_library.h"
#include "engines/engine_settings.h"

namespace disktune::engine_internal {

namespace {

constexpr std::string_view kId = "bdb";
constexpr const char* kDbFileName = "data.db";
// The LMDB project's Berkeley DB benchmark: --cache_size default and its
// lock table sizes.
constexpr uint64_t kBenchCacheBytes = uint64_t{4} << 20;
constexpr u_int32_t kBenchMaxLocks = 100000;
// Deadlocks between concurrent writers (page locks) are resolved by the lock
// detector aborting one transaction, which the adapter then retries.
constexpr int kMaxDeadlockRetries = 100;

// BDB reports details (which file, which limit) through the error callback,
// not through the return code; the last one seen on this thread is kept for
// the Status message.
thread_local std::string t_last_bdb_message;

void RememberBdbMessage(const DB_ENV*, const char*, const char* msg) {
  t_last_bdb_message = msg != nullptr ? msg : "";
}

// Informational messages (e.g. recovery progress) are dropped: library code
// does not print.
void IgnoreBdbMessage(const DB_ENV*, const char*) {}

Status FromBdb(int rc, std::string_view op) {
  std::string msg = "bdb " + std::string(op) + ": " + db_strerror(rc);
  if (!t_last_bdb_message.empty()) {
    msg += " (" + t_last_bdb_message + ")";
    t_last_bdb_message.clear();
  }
  switch (rc) {
    case DB_NOTFOUND:
    case DB_KEYEMPTY:
      return Status::NotFound(std::move(msg));
    case DB_LOCK_DEADLOCK:
    case DB_LOCK_NOTGRANTED:
    case DB_LOG_BUFFER_FULL:
      return Status::Busy(std::move(msg));
    case DB_RUNRECOVERY:
    case DB_VERIFY_BAD:
      return Status::Corruption(std::move(msg));
    case ENOSPC:
      return Status::NoSpace(std::move(msg));
    case ENOMEM:
      return Status::IOError(std::move(msg));
    default:
      if (rc > 0) return Status::FromErrno(rc, "bdb " + std::string(op));
      return Status::IOError(std::move(msg));
  }
}

bool IsRetryable(int rc) {
  return rc == DB_LOCK_DEADLOCK || rc == DB_LOCK_NOTGRANTED;
}

DBT InDbt(std::string_view s) {
  DBT d;
  std::memset(&d, 0, sizeof(d));
  d.data = const_cast<char*>(s.data());
  d.size = static_cast<u_int32_t>(s.size());
  return d;
}

// DB_THREAD handles may not return data in BDB-owned memory; DB_DBT_REALLOC
// buffers are reused across calls and freed here.
struct OutDbt {
  OutDbt() {
    std::memset(&dbt, 0, sizeof(dbt));
    dbt.flags = DB_DBT_REALLOC;
  }
  ~OutDbt() { std::free(dbt.data); }
  OutDbt(const OutDbt&) = delete;
  OutDbt& operator=(const OutDbt&) = delete;
  std::string_view view() const {
    return {static_cast<const char*>(dbt.data), dbt.size};
  }
  DBT dbt;
};

// Reads in chunks: a cursor is opened in a read transaction, fills a buffer
// with records, and is closed again (the transaction committed). After a seek
// a chunk is one record (a random seek reads one key); forward refills then
// read many records per call (DB_MULTIPLE_KEY: Berkeley DB copies them into
// one buffer, which the entries point into), the buffer growing eightfold per
// refill up to kMaxBulkBytes, so a long scan pays for a cursor and a call
// rarely and copies each record once, as a single cursor walk does. Backward
// refills (no bulk reads going back) grow eightfold up to kMaxChunkEntries.
// Holding a cursor between calls would hold page read locks, blocking writers
// in other threads and deadlocking a thread that writes while it iterates.
// The price is that a scan is not one snapshot: it sees writes committed
// between chunks, like a read-committed cursor would.
class BdbIterator final : public EngineIterator {
 public:
  // `page_bytes`: the database's page size, the least a bulk buffer holds.
  BdbIterator(DB* db, u_int32_t page_bytes)
      : db_(db), page_bytes_(page_bytes) {}

  void SeekToFirst() override {
    Restart();
    FillForward(DB_FIRST, {}, false);
  }
  void SeekToLast() override {
    Restart();
    FillBackward(DB_LAST, {});
  }
  void Seek(std::string_view target) override {
    Restart();
    FillForward(DB_SET_RANGE, target, false);
  }
  bool Valid() const override { return pos_ < entries_.size(); }

  void Next() override {
    if (pos_ + 1 < entries_.size()) {
      ++pos_;
      return;
    }
    const std::string last(key());
    Grow();
    FillForward(DB_SET_RANGE, last, true);
  }

  void Prev() override {
    if (pos_ > 0 && pos_ < entries_.size()) {
      --pos_;
      return;
    }
    const std::string first(key());
    Grow();
    FillBackward(DB_SET_RANGE, first);
  }

  std::string_view key() const override { return EntryKey(pos_); }
  std::string_view value() const override {
    const Entry& e = entries_[pos_];
    return {Base() + e.value_offset, e.value_size};
  }
  Status status() const override { return status_; }

  // A forward scan counts the records already copied into the chunk without
  // going through Next() one call per record, refilling as Next() does.
  uint64_t Skip(uint64_t n, bool forward, uint64_t* bytes) override {
    if (!forward) return EngineIterator::Skip(n, forward, bytes);
    uint64_t i = 0;
    while (i < n && Valid()) {
      const size_t in_chunk =
          std::min<uint64_t>(n - i, entries_.size() - pos_ - 1);
      for (size_t j = 0; j < in_chunk; j++, pos_++) {
        *bytes += entries_[pos_].key_size + entries_[pos_].value_size;
      }
      i += in_chunk;
      if (i == n) break;
      *bytes += entries_[pos_].key_size + entries_[pos_].value_size;
      Next();  // the chunk's last record: refills
      i++;
    }
    return i;
  }

 private:
  // One record of the chunk: where its key and value are from Base().
  struct Entry {
    size_t key_offset;
    size_t value_offset;
    u_int32_t key_size;
    u_int32_t value_size;
  };

  void Append(const OutDbt& k, const OutDbt& v) {
    const size_t at = arena_.size();
    entries_.push_back({at, at + k.dbt.size, k.dbt.size, v.dbt.size});
    arena_.append(k.view());
    arena_.append(v.view());
  }

  static constexpr size_t kMaxChunkEntries = 512;
  static constexpr size_t kChunkBytes = size_t{1} << 20;
  // Bulk buffers: the first refill after a seek reads 16 KiB (a short range
  // scan copies little more than it uses), a long scan 256 KiB per call, so
  // a call serves a few thousand small records (the one size measured).
  static constexpr u_int32_t kFirstBulkBytes = 16 << 10;
  static constexpr u_int32_t kMaxBulkBytes = 256 << 10;
  // A buffer grows past kMaxBulkBytes only for one record that needs it.
  static constexpr u_int32_t kLargestBulkBytes = u_int32_t{1} << 30;

  void Restart() {
    chunk_entries_ = 1;
    bulk_bytes_ = 0;
  }
  void Grow() {
    chunk_entries_ = std::min(chunk_entries_ * 8, kMaxChunkEntries);
    bulk_bytes_ =
        bulk_bytes_ == 0
            ? std::max(kFirstBulkBytes, RoundUpKiB(page_bytes_))
            : std::max(bulk_bytes_, std::min(bulk_bytes_ * 8, kMaxBulkBytes));
  }
  // Bulk buffers are whole KiB (Berkeley DB's rule).
  static u_int32_t RoundUpKiB(u_int32_t n) { return (n + 1023) / 1024 * 1024; }
  bool ChunkFull(size_t bytes) const {
    return entries_.size() >= chunk_entries_ || bytes >= kChunkBytes;
  }

  // From the cursor's record (when `rc` is 0), appends records stepping with
  // `step` (DB_NEXT or DB_PREV) until the chunk is full or the cursor ends;
  // returns the last get's code.
  int AppendRun(DBC* c, int rc, u_int32_t step, OutDbt* k, OutDbt* v) {
    size_t bytes = 0;
    while (rc == 0) {
      Append(*k, *v);
      bytes += k->dbt.size + v->dbt.size;
      if (ChunkFull(bytes)) break;
      rc = c->get(c, &k->dbt, &v->dbt, step);
    }
    return rc;
  }

  // Loads records in ascending order starting at `how` (DB_FIRST, or
  // DB_SET_RANGE on `from`); with `skip_from`, a record equal to `from` is
  // skipped (continuing after the previous chunk's last key).
  void FillForward(u_int32_t how, std::string_view from, bool skip_from) {
    if (bulk_bytes_ > 0) {
      FillForwardBulk(how, from, skip_from);
      return;
    }
    Fill([&](DBC* c, OutDbt* k, OutDbt* v) {
      int rc = Position(c, how, from, k, &v->dbt, 0);
      if (rc == 0 && skip_from && k->view() == from) {
        rc = c->get(c, &k->dbt, &v->dbt, DB_NEXT);
      }
      rc = AppendRun(c, rc, DB_NEXT, k, v);
      pos_ = 0;
      return rc;
    });
  }

  // Loads records in descending order that are < `before` (or, with
  // DB_LAST, from the end), then reverses them so the chunk is ascending.
  void FillBackward(u_int32_t how, std::string_view before) {
    Fill([&](DBC* c, OutDbt* k, OutDbt* v) {
      int rc = Position(c, how, before, k, &v->dbt, 0);
      if (how == DB_SET_RANGE) {
        // At the first key >= `before`; step back to the first one below
        // it, or, when no key is >= `before`, start from the last record.
        rc = rc == 0             ? c->get(c, &k->dbt, &v->dbt, DB_PREV)
             : rc == DB_NOTFOUND ? c->get(c, &k->dbt, &v->dbt, DB_LAST)
                                 : rc;
      }
      rc = AppendRun(c, rc, DB_PREV, k, v);
      std::reverse(entries_.begin(), entries_.end());
      pos_ = entries_.empty() ? 0 : entries_.size() - 1;
      return rc;
    });
  }

  // The same as FillForward, many records per call: bulk gets into bulk_.
  void FillForwardBulk(u_int32_t how, std::string_view from, bool skip_from) {
    Fill([&](DBC* c, OutDbt* k, OutDbt*) {
      int rc = BulkRead([&](DBT* data) {
        return Position(c, how, from, k, data, DB_MULTIPLE_KEY);
      });
      if (rc != 0 || !skip_from || entries_.empty() || EntryKey(0) != from) {
        return rc;
      }
      // Continuing after the previous chunk's last key: that key came first.
      if (entries_.size() > 1) {
        pos_ = 1;  // the one before the position, for Prev()
        return 0;
      }
      // Only it fitted: read on from it.
      entries_.clear();
      return BulkRead([&](DBT* data) {
        return c->get(c, &k->dbt, data, DB_NEXT | DB_MULTIPLE_KEY);
      });
    });
  }

  // One bulk get (`get` fills the DBT it is given) into bulk_, grown while
  // its first record does not fit; appends the records to entries_.
  template <typename Get>
  int BulkRead(Get get) {
    DBT data;
    int rc = DB_BUFFER_SMALL;
    while (rc == DB_BUFFER_SMALL) {
      if (bulk_capacity_ < bulk_bytes_) {
        bulk_.reset(new char[bulk_bytes_]);
        bulk_capacity_ = bulk_bytes_;
      }
      std::memset(&data, 0, sizeof(data));
      data.data = bulk_.get();
      data.ulen = bulk_bytes_;
      data.flags = DB_DBT_USERMEM;
      rc = get(&data);
      // data.size is then the room the first record needs.
      if (rc == DB_BUFFER_SMALL) {
        if (bulk_bytes_ >= kLargestBulkBytes) return ENOMEM;
        bulk_bytes_ = std::max(bulk_bytes_ * 2, RoundUpKiB(data.size));
      }
    }
    if (rc != 0) return rc;
    bulk_chunk_ = true;
    void* p = nullptr;
    DB_MULTIPLE_INIT(p, &data);
    for (;;) {
      void* key = nullptr;
      void* value = nullptr;
      u_int32_t key_size = 0;
      u_int32_t value_size = 0;
      DB_MULTIPLE_KEY_NEXT(p, &data, key, key_size, value, value_size);
      if (p == nullptr) break;
      entries_.push_back({Offset(key), Offset(value), key_size, value_size});
    }
    return 0;
  }
  std::string_view EntryKey(size_t i) const {
    return {Base() + entries_[i].key_offset, entries_[i].key_size};
  }
  // Where the chunk's entries point: the bulk buffer or the arena.
  const char* Base() const { return bulk_chunk_ ? bulk_.get() : arena_.data(); }
  size_t Offset(const void* p) const {
    return static_cast<size_t>(static_cast<const char*>(p) - bulk_.get());
  }

  // Positions the cursor at `how` (DB_SET_RANGE on `key`) and gets its record
  // into k and v (flags: DB_MULTIPLE_KEY for many records into v).
  static int Position(DBC* c, u_int32_t how, std::string_view key, OutDbt* k,
                      DBT* v, u_int32_t flags) {
    if (how != DB_SET_RANGE) return c->get(c, &k->dbt, v, how | flags);
    // DB_SET_RANGE reads the search key from the DBT, then returns the found
    // key in it, so the search key goes into the reusable buffer first.
    void* buf = std::realloc(k->dbt.data, key.empty() ? 1 : key.size());
    if (buf == nullptr) return ENOMEM;
    if (!key.empty()) std::memcpy(buf, key.data(), key.size());
    k->dbt.data = buf;
    k->dbt.size = static_cast<u_int32_t>(key.size());
    return c->get(c, &k->dbt, v, DB_SET_RANGE | flags);
  }

  template <typename Body>
  void Fill(Body body) {
    for (int attempt = 0;; ++attempt) {
      entries_.clear();
      arena_.clear();
      bulk_chunk_ = false;
      pos_ = 0;
      // As the LMDB project's db_bench_bdb reads: a cursor inside a read
      // transaction, which keeps the page locks it takes until the chunk
      // ends instead of putting each one back as the cursor leaves a page.
      DB_ENV* env = db_->get_env(db_);
      DB_TXN* txn = nullptr;
      int rc = env->txn_begin(env, nullptr, &txn, 0);
      DBC* cursor = nullptr;
      if (rc == 0) rc = db_->cursor(db_, txn, &cursor, 0);
      if (rc == 0) {
        OutDbt k;
        OutDbt v;
        rc = body(cursor, &k, &v);
        const int close_rc = cursor->close(cursor);
        if (rc == 0 || rc == DB_NOTFOUND) rc = close_rc;
      }
      if (txn != nullptr) {
        const int end_rc = rc == 0 || rc == DB_NOTFOUND ? txn->commit(txn, 0)
                                                        : txn->abort(txn);
        if (rc == 0 || rc == DB_NOTFOUND) rc = end_rc;
      }
      if (rc == 0) return;
      if (IsRetryable(rc) && attempt < kMaxDeadlockRetries) continue;
      entries_.clear();
      if (status_.ok()) status_ = FromBdb(rc, "iterator");
      return;
    }
  }

  DB* db_;
  u_int32_t page_bytes_ = 0;
  std::vector<Entry> entries_;
  std::string arena_;             // the chunk's keys and values, copied out
  std::unique_ptr<char[]> bulk_;  // or there, by a bulk get
  u_int32_t bulk_capacity_ = 0;
  bool bulk_chunk_ = false;  // the chunk is in bulk_, not arena_
  size_t pos_ = 0;
  size_t chunk_entries_ = 1;
  u_int32_t bulk_bytes_ = 0;  // 0: one record per get
  Status status_;
};

class BdbEngine final : public AdapterEngine {
 public:
  ~BdbEngine() override { (void)Close(); }

  std::string_view id() const override { return kId; }

  Status Open(const std::string& path, const EngineOptions& options) override {
    if (env_ != nullptr) {
      return Status::InvalidArgument("bdb open: already open");
    }
    unsupported_.clear();
    t_last_bdb_message.clear();
    ListUnsupported(options);
    in_memory_ = options.in_memory;
    // Even in memory mode the directory holds any pages that overflow the
    // cache (BDB's temporary backing file), so nothing lands outside it.
    DT_RETURN_IF_ERROR(EnsureDirectory(path, kId));
    int rc = db_env_create(&env_, 0);
    if (rc != 0) {
      env_ = nullptr;
      return FromBdb(rc, "env create");
    }
    env_->set_errcall(env_, RememberBdbMessage);
    env_->set_msgcall(env_, IgnoreBdbMessage);
    rc = env_->set_lk_detect(env_, DB_LOCK_DEFAULT);
    cache_bytes_ = options.cache_bytes().value_or(kBenchCacheBytes);
    if (rc == 0) {
      const uint64_t gib = uint64_t{1} << 30;
      rc = env_->set_cachesize(env_, static_cast<u_int32_t>(cache_bytes_ / gib),
                               static_cast<u_int32_t>(cache_bytes_ % gib), 1);
    }
    if (rc == 0) rc = env_->set_lk_max_locks(env_, kBenchMaxLocks);
    if (rc == 0) rc = env_->set_lk_max_objects(env_, kBenchMaxLocks);
    write_nosync_ = EngineSettingValue(options, "bdb.commit") == "write_nosync";
    checkpoint_kib_ = static_cast<u_int32_t>(
        std::min<uint64_t>(EngineSettingCount(options, "bdb.checkpoint_kib"),
                           std::numeric_limits<u_int32_t>::max()));
    if (rc == 0) {
      u_int32_t flags = DB_REGION_INIT;
      if (write_nosync_) flags |= DB_TXN_WRITE_NOSYNC;
      rc = env_->set_flags(env_, flags, 1);
    }
    u_int32_t env_flags = DB_CREATE | DB_INIT_TXN | DB_INIT_LOG | DB_INIT_LOCK |
                          DB_INIT_MPOOL | DB_THREAD;
    if (rc == 0 && in_memory_) {
      // Private regions in heap memory and logs in memory: no files unless
      // the cache overflows.
      env_flags |= DB_PRIVATE;
      rc = env_->log_set_config(env_, DB_LOG_IN_MEMORY, 1);
      if (rc == 0) rc = env_->set_tmp_dir(env_, path.c_str());
    } else if (rc == 0) {
      env_flags |= DB_RECOVER;
      // Log files older than the last checkpoint are deleted, so a long run
      // does not fill the disk with logs.
      rc = env_->log_set_config(env_, DB_LOG_AUTO_REMOVE, 1);
    }
    if (rc == 0) rc = env_->open(env_, path.c_str(), env_flags, 0644);
    if (rc != 0) return Fail(FromBdb(rc, "open environment " + path));

    rc = db_create(&db_, env_, 0);
    if (rc != 0) {
      db_ = nullptr;
      return Fail(FromBdb(rc, "db create"));
    }
    if (options.block_size_bytes() && page_size_ok_) {
      rc = db_->set_pagesize(
          db_, static_cast<u_int32_t>(*options.block_size_bytes()));
    }
    if (rc == 0) {
      rc = db_->open(db_, nullptr, in_memory_ ? nullptr : kDbFileName, nullptr,
                     DB_BTREE, DB_CREATE | DB_AUTO_COMMIT | DB_THREAD, 0644);
    }
    if (rc != 0) return Fail(FromBdb(rc, "open " + path + "/" + kDbFileName));
    sync_by_default_ = options.sync;
    u_int32_t page_size = 0;
    if (db_->get_pagesize(db_, &page_size) == 0) page_size_bytes_ = page_size;
    return Status::OK();
  }

  Status Close() override {
    if (env_ == nullptr) return Status::OK();
    int rc = 0;
    if (!in_memory_) {
      // A checkpoint lets the next open's recovery start here and lets
      // DB_LOG_AUTO_REMOVE drop the logs before it.
      rc = env_->txn_checkpoint(env_, 0, 0, 0);
    }
    if (db_ != nullptr) {
      const int db_rc = db_->close(db_, 0);
      if (rc == 0) rc = db_rc;
      db_ = nullptr;
    }
    const int env_rc = env_->close(env_, 0);
    if (rc == 0) rc = env_rc;
    env_ = nullptr;
    return rc == 0 ? Status::OK() : FromBdb(rc, "close");
  }

  Status Put(std::string_view key, std::string_view value,
             const WriteOptions& wo) override {
    if (db_ == nullptr) return NotOpen(kId, "put");
    return WriteTxn(wo, "put", [&](DB_TXN* txn) {
      DBT k = InDbt(key);
      DBT v = InDbt(value);
      return db_->put(db_, txn, &k, &v, 0);
    });
  }

  Status Get(std::string_view key, std::string* value) override {
    if (db_ == nullptr) return NotOpen(kId, "get");
    for (int attempt = 0;; ++attempt) {
      DBT k = InDbt(key);
      OutDbt v;
      // No transaction: a read-committed lookup whose locks end with it.
      const int rc = db_->get(db_, nullptr, &k, &v.dbt, 0);
      if (rc == 0) {
        value->assign(v.view());
        return Status::OK();
      }
      if (rc == DB_NOTFOUND) return KeyNotFound();
      if (!IsRetryable(rc) || attempt >= kMaxDeadlockRetries) {
        return FromBdb(rc, "get");
      }
    }
  }

  Status Delete(std::string_view key, const WriteOptions& wo) override {
    if (db_ == nullptr) return NotOpen(kId, "delete");
    return WriteTxn(wo, "delete", [&](DB_TXN* txn) { return Del(txn, key); });
  }

  Status Write(const WriteBatch& batch, const WriteOptions& wo) override {
    if (db_ == nullptr) return NotOpen(kId, "write batch");
    return WriteTxn(wo, "write batch", [&](DB_TXN* txn) {
      for (const WriteBatch::Op& op : batch.ops()) {
        int rc = 0;
        if (op.is_delete) {
          rc = Del(txn, op.key);
        } else {
          DBT k = InDbt(op.key);
          DBT v = InDbt(op.value);
          rc = db_->put(db_, txn, &k, &v, 0);
        }
        if (rc != 0) return rc;
      }
      return 0;
    });
  }

  std::unique_ptr<EngineIterator> NewIterator() override {
    if (db_ == nullptr) return NewErrorIterator(NotOpen(kId, "iterator"));
    return std::make_unique<BdbIterator>(
        db_, static_cast<u_int32_t>(page_size_bytes_));
  }

  Status Flush() override {
    if (db_ == nullptr) return NotOpen(kId, "flush");
    if (in_memory_) return Status::OK();
    // Writing the log makes every committed transaction durable.
    const int rc = env_->log_flush(env_, nullptr);
    return rc == 0 ? Status::OK() : FromBdb(rc, "flush");
  }

  Status CompactAll() override {
    if (db_ == nullptr) return NotOpen(kId, "compact");
    // Merges sparse pages and returns emptied ones to the filesystem.
    int rc = db_->compact(db_, nullptr, nullptr, nullptr, nullptr,
                          DB_FREE_SPACE, nullptr);
    if (rc == 0 && !in_memory_) rc = env_->txn_checkpoint(env_, 0, 0, 0);
    return rc == 0 ? Status::OK() : FromBdb(rc, "compact");
  }

  std::string StatsText() override {
    if (db_ == nullptr) return "";
    std::string text;
    // A full (traversing) statistics pass: StatsText is called once per run,
    // after the measurements.
    for (const auto& [name, value] : BtreeStats(0)) {
      text += name + ": " + value + "\n";
    }
    DB_MPOOL_STAT* mp = nullptr;
    if (env_->memp_stat(env_, &mp, nullptr, 0) == 0 && mp != nullptr) {
      text += "cache_bytes: " +
              std::to_string((uint64_t{mp->st_gbytes} << 30) + mp->st_bytes) +
              "\n";
      text += "cache_hits: " + std::to_string(mp->st_cache_hit) + "\n";
      text += "cache_misses: " + std::to_string(mp->st_cache_miss) + "\n";
      text += "pages_read: " + std::to_string(mp->st_page_in) + "\n";
      text += "pages_written: " + std::to_string(mp->st_page_out) + "\n";
      text += "dirty_evictions: " + std::to_string(mp->st_rw_evict) + "\n";
      std::free(mp);
    }
    return text;
  }

  std::vector<std::pair<std::string, std::string>> Properties() override {
    if (db_ == nullptr) return {};
    return BtreeStats(DB_FAST_STAT);
  }

  std::vector<std::pair<std::string, std::string>> Settings() const override {
    if (cache_bytes_ == 0) return {};
    std::string env_flags =
        "DB_CREATE|DB_INIT_TXN|DB_INIT_LOG|DB_INIT_LOCK|"
        "DB_INIT_MPOOL|DB_THREAD";
    env_flags += in_memory_ ? "|DB_PRIVATE" : "|DB_RECOVER";
    return {
        {"bdb.version", DB_VERSION_STRING},
        {"bdb.access_method", "DB_BTREE"},
        {"bdb.env_flags", env_flags},
        {"bdb.set_flags", write_nosync_ ? "DB_REGION_INIT|DB_TXN_WRITE_NOSYNC"
                                        : "DB_REGION_INIT"},
        {"bdb.commit", write_nosync_ ? "write_nosync" : "nosync"},
        {"bdb.commit_sync", sync_by_default_
                                ? "DB_TXN_SYNC on every commit"
                                : "DB_TXN_SYNC on commits that ask for sync"},
        {"bdb.checkpoint_kib", std::to_string(checkpoint_kib_)},
        {"bdb.cache_bytes", std::to_string(cache_bytes_)},
        {"bdb.page_size_bytes", std::to_string(page_size_bytes_)},
        {"bdb.lk_max_locks", std::to_string(kBenchMaxLocks)},
        {"bdb.lk_max_objects", std::to_string(kBenchMaxLocks)},
        {"bdb.log", in_memory_ ? "DB_LOG_IN_MEMORY" : "DB_LOG_AUTO_REMOVE"},
        {"bdb.get", "DB->get without a transaction"},
        {"bdb.scan",
         "cursor chunks in read transactions; forward refills as bulk gets "
         "(DB_MULTIPLE_KEY), 16-256 KiB per call"},
    };
  }

  // DBT sizes are 32-bit.
  std::optional<uint64_t> max_value_bytes() const override {
    return std::numeric_limits<u_int32_t>::max();
  }

  bool thread_safe() const override { return true; }

  Status Destroy(const std::string& path) override {
    DT_RETURN_IF_ERROR(Close());
    return RemoveDbFiles(path, kId, [](std::string_view name) {
      // The database, the environment's region files and logs, and the
      // temporary backing files of in-memory databases.
      return name == kDbFileName || StartsWith(name, "__db.") ||
             StartsWith(name, "log.") || StartsWith(name, "BDB");
    });
  }

 private:
  void ListUnsupported(const EngineOptions& o) {
    AddSingleFileKnobs(o, kId, &unsupported_);
    if (o.compression().value_or(Compression::kNone) != Compression::kNone) {
      unsupported_.emplace_back("compression",
                                "bdb's B-tree has only key prefix compression");
    }
    page_size_ok_ = true;
    if (o.block_size_bytes()) {
      const uint64_t b = *o.block_size_bytes();
      page_size_ok_ = b >= 512 && b <= 65536 && (b & (b - 1)) == 0;
      if (!page_size_ok_) {
        unsupported_.emplace_back(
            "block_size_bytes",
            "bdb page size must be a power of two in [512, 65536]");
      }
    }
  }

  Status Fail(Status s) {
    if (db_ != nullptr) db_->close(db_, 0);
    db_ = nullptr;
    env_->close(env_, 0);
    env_ = nullptr;
    return s;
  }

  // Deleting an absent key is not an error in the Engine interface.
  int Del(DB_TXN* txn, std::string_view key) {
    DBT k = InDbt(key);
    const int rc = db_->del(db_, txn, &k, 0);
    return rc == DB_NOTFOUND ? 0 : rc;
  }

  template <typename Body>
  Status WriteTxn(const WriteOptions& wo, std::string_view op, Body body) {
    // 0 takes the environment's DB_TXN_WRITE_NOSYNC.
    const u_int32_t commit_flags = (wo.sync || sync_by_default_) ? DB_TXN_SYNC
                                   : write_nosync_               ? 0
                                                   : DB_TXN_NOSYNC;
    for (int attempt = 0;; ++attempt) {
      DB_TXN* txn = nullptr;
      int rc = env_->txn_begin(env_, nullptr, &txn, 0);
      if (rc != 0) return FromBdb(rc, std::string(op) + ": begin");
      rc = body(txn);
      if (rc == 0) {
        // commit frees the handle whatever it returns.
        rc = txn->commit(txn, commit_flags);
        if (rc != 0) return FromBdb(rc, std::string(op) + ": commit");
        if (checkpoint_kib_ > 0 && !in_memory_) {
          rc = env_->txn_checkpoint(env_, checkpoint_kib_, 1, 0);
          if (rc != 0) return FromBdb(rc, std::string(op) + ": checkpoint");
        }
        return Status::OK();
      }
      txn->abort(txn);
      if (!IsRetryable(rc) || attempt >= kMaxDeadlockRetries) {
        return FromBdb(rc, op);
      }
    }
  }

  std::vector<std::pair<std::string, std::string>> BtreeStats(u_int32_t flags) {
    std::vector<std::pair<std::string, std::string>> props;
    DB_BTREE_STAT* st = nullptr;
    if (db_->stat(db_, nullptr, &st, flags) != 0 || st == nullptr) return props;
    auto add = [&](const char* name, uint64_t value) {
      props.emplace_back(std::string("bdb.") + name, std::to_string(value));
    };
    add("page_size_bytes", st->bt_pagesize);
    add("page_count", st->bt_pagecnt);
    add("keys", st->bt_nkeys);
    add("levels", st->bt_levels);
    add("internal_pages", st->bt_int_pg);
    add("leaf_pages", st->bt_leaf_pg);
    add("overflow_pages", st->bt_over_pg);
    add("free_pages", st->bt_free);
    props.emplace_back(
        "approximate_size_bytes",
        std::to_string(uint64_t{st->bt_pagecnt} * st->bt_pagesize));
    std::free(st);
    return props;
  }

  DB_ENV* env_ = nullptr;
  DB* db_ = nullptr;
  bool in_memory_ = false;
  bool page_size_ok_ = true;
  bool sync_by_default_ = false;
  bool write_nosync_ = true;
  u_int32_t checkpoint_kib_ = 0;
  uint64_t cache_bytes_ = 0;  // 0 before the first Open()
  uint64_t page_size_bytes_ = 0;
};

}  // namespace

LibraryBuild BdbLibrary() {
  LibraryBuild b = LibraryOf(kId, db_version(nullptr, nullptr, nullptr),
                             "library", "db_sequence_create");
  // --enable-diagnostic builds define __db_assert, the function assertions
  // call; release builds leave it out.
  if (!b.shared_object.empty()) {
    b.assertions =
        SharedObjectDefines(b.shared_object, "__db_assert") ? "on" : "off";
    b.assertions_evidence = "the symbol __db_assert in the shared object";
  }
  return b;
}

std::unique_ptr<Engine> NewBdbEngine() { return std::make_unique<BdbEngine>(); }

}  // namespace disktune::engine_internal
