// LMDB adapter: one unnamed database in an environment opened as LMDB's own
// benchmark (the LMDB project's db_bench port) opens it: MDB_NOSYNC (a write
// that asks for sync calls mdb_env_sync after its commit) and MDB_WRITEMAP
// (commits write pages through the map instead of copying them with
// write(2)), with MDB_APPEND for keys that sort after every stored key, which
// is what that benchmark does for its sequential loads. The engine settings
// lmdb.writemap, lmdb.append and lmdb.readahead turn each off. MDB_NOTLS:
// read transactions are not tied to a thread, so a pool of them can serve
// Get from any thread and iterators can hold their own.
#include <lmdb.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "engines/adapter_util.h"
#include "engines/engine_factories.h"
#include "engines/engine_library.h"
#include "engines/engine_settings.h"

namespace disktune::engine_internal {

namespace {

constexpr std::string_view kId = "lmdb";
constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr uint64_t kGiB = uint64_t{1} << 30;
constexpr unsigned int kMaxReaders = 1024;
// LMDB's MAXDATASIZE (mdb.c; not exported).
constexpr uint64_t kMaxValueBytes = 0xffffffffULL;

Status FromLmdb(int rc, std::string_view op) {
  std::string msg = "lmdb " + std::string(op) + ": " + mdb_strerror(rc);
  switch (rc) {
    case MDB_NOTFOUND:
      return Status::NotFound(std::move(msg));
    case MDB_MAP_FULL:
      return Status::NoSpace(std::move(msg) +
                             " (raise expected_db_bytes; the map size is fixed "
                             "at open)");
    case MDB_CORRUPTED:
    case MDB_PAGE_NOTFOUND:
    case MDB_INVALID:
    case MDB_VERSION_MISMATCH:
      return Status::Corruption(std::move(msg));
    case MDB_BAD_VALSIZE:
      return Status::InvalidArgument(std::move(msg));
    case MDB_READERS_FULL:
    case MDB_TXN_FULL:
      return Status::Busy(std::move(msg));
    default:
      if (rc > 0) return Status::FromErrno(rc, "lmdb " + std::string(op));
      return Status::IOError(std::move(msg));
  }
}

MDB_val ToVal(std::string_view s) {
  return {s.size(), const_cast<char*>(s.data())};
}
std::string_view ToView(const MDB_val& v) {
  return {static_cast<const char*>(v.mv_data), v.mv_size};
}

// Holds a read transaction and a cursor for its whole life: key() and value()
// point into the map, which stays valid while the transaction is open.
class LmdbIterator final : public EngineIterator {
 public:
  LmdbIterator(MDB_env* env, MDB_dbi dbi, size_t max_key_bytes)
      : max_key_bytes_(max_key_bytes) {
    int rc = mdb_txn_begin(env, nullptr, MDB_RDONLY, &txn_);
    if (rc == MDB_SUCCESS) rc = mdb_cursor_open(txn_, dbi, &cursor_);
    if (rc != MDB_SUCCESS) status_ = FromLmdb(rc, "iterator open");
  }
  ~LmdbIterator() override {
    if (cursor_ != nullptr) mdb_cursor_close(cursor_);
    if (txn_ != nullptr) mdb_txn_abort(txn_);
  }

  void SeekToFirst() override { Move(MDB_FIRST); }
  void SeekToLast() override { Move(MDB_LAST); }
  void Seek(std::string_view target) override {
    if (target.empty()) return Move(MDB_FIRST);
    // No stored key is longer than the maximum, so the first key >= a longer
    // target is the first key > its truncation.
    const bool truncated = target.size() > max_key_bytes_;
    if (truncated) target = target.substr(0, max_key_bytes_);
    key_ = ToVal(target);
    Move(MDB_SET_RANGE);
    if (truncated && valid_ && key() == target) Move(MDB_NEXT);
  }
  bool Valid() const override { return valid_; }
  void Next() override { Move(MDB_NEXT); }
  void Prev() override { Move(MDB_PREV); }
  std::string_view key() const override { return ToView(key_); }
  std::string_view value() const override { return ToView(value_); }
  Status status() const override { return status_; }

  // A scan as LMDB's own benchmark's readseq: mdb_cursor_get in a tight loop,
  // not this interface per entry. The record goes into locals and the loop
  // tests only the call's code: with members stored and reloaded around
  // every call (valid_, the cursor check) the loop took ~20 instructions
  // per step, a sixth of LMDB's own; on locals about 6 fewer (callgrind).
  uint64_t Skip(uint64_t n, bool forward, uint64_t* bytes) override {
    if (!valid_) return 0;  // valid_ implies an open cursor
    const MDB_cursor_op op = forward ? MDB_NEXT : MDB_PREV;
    MDB_val k = key_;
    MDB_val v = value_;
    uint64_t i = 0, b = 0;
    int rc = MDB_SUCCESS;
    while (i < n) {
      b += k.mv_size + v.mv_size;
      i++;
      rc = mdb_cursor_get(cursor_, &k, &v, op);
      if (rc != MDB_SUCCESS) break;
    }
    key_ = k;
    value_ = v;
    Settle(rc);
    *bytes += b;
    return i;
  }

 private:
  void Move(MDB_cursor_op op) {
    valid_ = false;
    if (cursor_ == nullptr) return;
    Settle(mdb_cursor_get(cursor_, &key_, &value_, op));
  }
  // The iterator's state after a cursor get returned `rc`.
  void Settle(int rc) {
    valid_ = rc == MDB_SUCCESS;
    if (rc != MDB_SUCCESS && rc != MDB_NOTFOUND && status_.ok()) {
      status_ = FromLmdb(rc, "iterator move");
    }
  }

  size_t max_key_bytes_;
  MDB_txn* txn_ = nullptr;
  MDB_cursor* cursor_ = nullptr;
  MDB_val key_{0, nullptr};
  MDB_val value_{0, nullptr};
  bool valid_ = false;
  Status status_;
};

class LmdbEngine final : public AdapterEngine {
 public:
  ~LmdbEngine() override { (void)Close(); }

  std::string_view id() const override { return kId; }

  Status Open(const std::string& path, const EngineOptions& options) override {
    if (env_ != nullptr) {
      return Status::InvalidArgument("lmdb open: already open");
    }
    unsupported_.clear();
    ListUnsupported(options);
    DT_RETURN_IF_ERROR(EnsureDirectory(path, kId));
    int rc = mdb_env_create(&env_);
    if (rc != MDB_SUCCESS) {
      env_ = nullptr;
      return FromLmdb(rc, "env create");
    }
    // The map is reserved address space, not allocated disk (the file grows
    // as pages are used), so the headroom is cheap; running out is fatal to
    // the run (MDB_MAP_FULL).
    const uint64_t expected_bytes = options.expected_db_bytes.value_or(0);
    const uint64_t map_size_bytes =
        std::max(kGiB, 2 * expected_bytes + 64 * kMiB);
    rc = mdb_env_set_mapsize(env_, map_size_bytes);
    // Under MDB_NOTLS every live read transaction holds a reader slot: one
    // per thread in a Get (pooled) plus one per open iterator. LMDB's default
    // of 126 slots is below what 64 reader threads with iterators can hold.
    if (rc == MDB_SUCCESS) rc = mdb_env_set_maxreaders(env_, kMaxReaders);
    env_flags_ = MDB_NOSYNC | MDB_NOTLS;
    if (EngineSettingOn(options, "lmdb.writemap")) env_flags_ |= MDB_WRITEMAP;
    if (!EngineSettingOn(options, "lmdb.readahead")) {
      env_flags_ |= MDB_NORDAHEAD;
    }
    append_ = EngineSettingOn(options, "lmdb.append");
    if (rc == MDB_SUCCESS) {
      rc = mdb_env_open(env_, path.c_str(), env_flags_, 0644);
    }
    if (rc != MDB_SUCCESS) return Fail(FromLmdb(rc, "open " + path));
    MDB_txn* txn = nullptr;
    rc = mdb_txn_begin(env_, nullptr, 0, &txn);
    if (rc == MDB_SUCCESS) rc = mdb_dbi_open(txn, nullptr, 0, &dbi_);
    if (rc == MDB_SUCCESS) rc = LoadLastKey(txn);
    if (rc == MDB_SUCCESS) {
      rc = mdb_txn_commit(txn);
    } else if (txn != nullptr) {
      mdb_txn_abort(txn);
    }
    if (rc != MDB_SUCCESS) return Fail(FromLmdb(rc, "open database"));
    max_key_bytes_ = static_cast<size_t>(mdb_env_get_maxkeysize(env_));
    sync_by_default_ = options.sync;
    map_size_bytes_ = map_size_bytes;
    return Status::OK();
  }

  Status Close() override {
    if (env_ == nullptr) return Status::OK();
    {
      std::lock_guard<std::mutex> lock(pool_mu_);
      for (MDB_txn* txn : read_pool_) mdb_txn_abort(txn);
      read_pool_.clear();
    }
    // With MDB_NOSYNC nothing else makes the last commits durable.
    const int rc = mdb_env_sync(env_, 1);
    mdb_env_close(env_);
    env_ = nullptr;
    return rc == MDB_SUCCESS ? Status::OK() : FromLmdb(rc, "close: sync");
  }

  Status Put(std::string_view key, std::string_view value,
             const WriteOptions& wo) override {
    if (env_ == nullptr) return NotOpen(kId, "put");
    DT_RETURN_IF_ERROR(CheckKey(key, "put"));
    return WriteTxn(wo, "put",
                    [&](MDB_txn* txn) { return PutOne(txn, key, value); });
  }

  Status Get(std::string_view key, std::string* value) override {
    if (env_ == nullptr) return NotOpen(kId, "get");
    DT_RETURN_IF_ERROR(CheckKey(key, "get"));
    MDB_txn* txn = nullptr;
    int rc = AcquireReadTxn(&txn);
    if (rc != MDB_SUCCESS) return FromLmdb(rc, "get: begin");
    MDB_val k = ToVal(key);
    MDB_val v;
    rc = mdb_get(txn, dbi_, &k, &v);
    if (rc == MDB_SUCCESS) value->assign(ToView(v));
    ReleaseReadTxn(txn);
    if (rc == MDB_NOTFOUND) return KeyNotFound();
    return rc == MDB_SUCCESS ? Status::OK() : FromLmdb(rc, "get");
  }

  Status Delete(std::string_view key, const WriteOptions& wo) override {
    if (env_ == nullptr) return NotOpen(kId, "delete");
    DT_RETURN_IF_ERROR(CheckKey(key, "delete"));
    return WriteTxn(wo, "delete", [&](MDB_txn* txn) { return Del(txn, key); });
  }

  Status Write(const WriteBatch& batch, const WriteOptions& wo) override {
    if (env_ == nullptr) return NotOpen(kId, "write batch");
    for (const WriteBatch::Op& op : batch.ops()) {
      DT_RETURN_IF_ERROR(CheckKey(op.key, "write batch"));
    }
    return WriteTxn(wo, "write batch", [&](MDB_txn* txn) {
      for (const WriteBatch::Op& op : batch.ops()) {
        int rc = MDB_SUCCESS;
        rc = op.is_delete ? Del(txn, op.key) : PutOne(txn, op.key, op.value);
        if (rc != MDB_SUCCESS) return rc;
      }
      return MDB_SUCCESS;
    });
  }

  std::unique_ptr<EngineIterator> NewIterator() override {
    if (env_ == nullptr) return NewErrorIterator(NotOpen(kId, "iterator"));
    return std::make_unique<LmdbIterator>(env_, dbi_, max_key_bytes_);
  }

  Status Flush() override {
    if (env_ == nullptr) return NotOpen(kId, "flush");
    const int rc = mdb_env_sync(env_, 1);
    return rc == MDB_SUCCESS ? Status::OK() : FromLmdb(rc, "flush");
  }

  // LMDB reuses freed pages itself and compacts only into a copy
  // (mdb_env_copy2 with MDB_CP_COMPACT), so there is nothing to do in place.
  Status CompactAll() override {
    if (env_ == nullptr) return NotOpen(kId, "compact");
    return Status::OK();
  }

  std::string StatsText() override {
    if (env_ == nullptr) return "";
    std::string text;
    for (const auto& [name, value] : Properties()) {
      text += name + ": " + value + "\n";
    }
    return text;
  }

  std::vector<std::pair<std::string, std::string>> Properties() override {
    std::vector<std::pair<std::string, std::string>> props;
    if (env_ == nullptr) return props;
    MDB_stat st;
    MDB_envinfo info;
    if (mdb_env_stat(env_, &st) != MDB_SUCCESS ||
        mdb_env_info(env_, &info) != MDB_SUCCESS) {
      return props;
    }
    auto add = [&](const char* name, uint64_t value) {
      props.emplace_back(std::string("lmdb.") + name, std::to_string(value));
    };
    add("page_size_bytes", st.ms_psize);
    add("depth", st.ms_depth);
    add("branch_pages", st.ms_branch_pages);
    add("leaf_pages", st.ms_leaf_pages);
    add("overflow_pages", st.ms_overflow_pages);
    add("entries", st.ms_entries);
    add("map_size_bytes", info.me_mapsize);
    add("last_pgno", info.me_last_pgno);
    add("last_txnid", info.me_last_txnid);
    add("num_readers", info.me_numreaders);
    props.emplace_back(
        "approximate_size_bytes",
        std::to_string(uint64_t{info.me_last_pgno + 1} * st.ms_psize));
    return props;
  }

  std::vector<std::pair<std::string, std::string>> Settings() const override {
    if (env_flags_ == 0) return {};
    std::string flags = "MDB_NOSYNC|MDB_NOTLS";
    if (env_flags_ & MDB_WRITEMAP) flags += "|MDB_WRITEMAP";
    if (env_flags_ & MDB_NORDAHEAD) flags += "|MDB_NORDAHEAD";
    auto on = [](bool b) { return std::string(b ? "on" : "off"); };
    return {
        {"lmdb.version", mdb_version(nullptr, nullptr, nullptr)},
        {"lmdb.env_flags", flags},
        {"lmdb.writemap", on(env_flags_ & MDB_WRITEMAP)},
        {"lmdb.append", on(append_)},
        {"lmdb.readahead", on(!(env_flags_ & MDB_NORDAHEAD))},
        {"lmdb.map_size_bytes", std::to_string(map_size_bytes_)},
        {"lmdb.max_readers", std::to_string(kMaxReaders)},
        {"lmdb.write_transaction", "one per put, delete or batch"},
        {"lmdb.commit_sync",
         sync_by_default_ ? "mdb_env_sync after every commit"
                          : "mdb_env_sync after commits that ask for sync"},
    };
  }

  std::optional<uint64_t> max_value_bytes() const override {
    return kMaxValueBytes;
  }

  // Writers are serialised by LMDB's own writer lock; readers use
  // per-call transactions, which MDB_NOTLS allows on any thread.
  bool thread_safe() const override { return true; }

  Status Destroy(const std::string& path) override {
    DT_RETURN_IF_ERROR(Close());
    return RemoveDbFiles(path, kId, [](std::string_view name) {
      return name == "data.mdb" || name == "lock.mdb";
    });
  }

 private:
  void ListUnsupported(const EngineOptions& o) {
    AddSingleFileKnobs(o, kId, &unsupported_);
    if (o.cache_bytes()) {
      unsupported_.emplace_back(
          "cache_bytes", "lmdb reads through the OS page cache; it has none");
    }
    if (o.compression().value_or(Compression::kNone) != Compression::kNone) {
      unsupported_.emplace_back("compression", "lmdb does not compress");
    }
    if (o.block_size_bytes()) {
      unsupported_.emplace_back("block_size_bytes",
                                "lmdb's page size is the OS page size");
    }
    if (o.in_memory) {
      unsupported_.emplace_back("in_memory",
                                "lmdb has no in-memory mode (put it on tmpfs)");
    }
  }

  Status Fail(Status s) {
    mdb_env_close(env_);
    env_ = nullptr;
    return s;
  }

  Status CheckKey(std::string_view key, std::string_view op) const {
    if (key.empty() || key.size() > max_key_bytes_) {
      return Status::InvalidArgument("lmdb " + std::string(op) + ": key of " +
                                     std::to_string(key.size()) +
                                     " bytes; lmdb keys are 1 to " +
                                     std::to_string(max_key_bytes_) + " bytes");
    }
    return Status::OK();
  }

  // Deleting an absent key is not an error in the Engine interface.
  int Del(MDB_txn* txn, std::string_view key) {
    MDB_val k = ToVal(key);
    const int rc = mdb_del(txn, dbi_, &k, nullptr);
    // The largest key may be gone: learn it again before the next append.
    if (rc == MDB_SUCCESS && has_last_key_ && key == last_key_) {
      last_key_known_ = false;
    }
    return rc == MDB_NOTFOUND ? MDB_SUCCESS : rc;
  }

  // Reads the largest stored key into last_key_. Called inside a write
  // transaction (or at open), so no other writer can change it meanwhile.
  int LoadLastKey(MDB_txn* txn) {
    MDB_cursor* c = nullptr;
    int rc = mdb_cursor_open(txn, dbi_, &c);
    if (rc != MDB_SUCCESS) return rc;
    MDB_val k{0, nullptr};
    MDB_val v{0, nullptr};
    rc = mdb_cursor_get(c, &k, &v, MDB_LAST);
    mdb_cursor_close(c);
    has_last_key_ = rc == MDB_SUCCESS;
    if (has_last_key_) last_key_.assign(ToView(k));
    if (rc == MDB_NOTFOUND) rc = MDB_SUCCESS;
    last_key_known_ = rc == MDB_SUCCESS;
    return rc;
  }

  // MDB_APPEND (no search, and a full page split off instead of halved) when
  // the key sorts after every stored key: a sequential load takes LMDB's own
  // benchmark's path, any other put the ordinary one. The largest key is
  // tracked under LMDB's writer lock (this runs inside a write transaction).
  int PutOne(MDB_txn* txn, std::string_view key, std::string_view value) {
    MDB_val k = ToVal(key);
    MDB_val v = ToVal(value);
    unsigned int flags = 0;
    if (append_) {
      if (!last_key_known_) {
        const int rc = LoadLastKey(txn);
        if (rc != MDB_SUCCESS) return rc;
      }
      if (!has_last_key_ || key > std::string_view(last_key_)) {
        flags = MDB_APPEND;
      }
    }
    const int rc = mdb_put(txn, dbi_, &k, &v, flags);
    if (rc == MDB_SUCCESS && flags == MDB_APPEND) {
      last_key_.assign(key);
      has_last_key_ = true;
    }
    return rc;
  }

  template <typename Body>
  Status WriteTxn(const WriteOptions& wo, std::string_view op, Body body) {
    MDB_txn* txn = nullptr;
    int rc = mdb_txn_begin(env_, nullptr, 0, &txn);
    if (rc != MDB_SUCCESS) return FromLmdb(rc, std::string(op) + ": begin");
    rc = body(txn);
    if (rc != MDB_SUCCESS) {
      mdb_txn_abort(txn);
      last_key_known_ = false;  // the transaction's appends are undone
      return FromLmdb(rc, op);
    }
    rc = mdb_txn_commit(txn);
    if (rc != MDB_SUCCESS) {
      last_key_known_ = false;
      return FromLmdb(rc, std::string(op) + ": commit");
    }
    if (wo.sync || sync_by_default_) {
      rc = mdb_env_sync(env_, 1);
      if (rc != MDB_SUCCESS) return FromLmdb(rc, std::string(op) + ": sync");
    }
    return Status::OK();
  }

  // A reset read transaction keeps its reader slot, so renewing one is much
  // cheaper than mdb_txn_begin, which (under MDB_NOTLS) searches the reader
  // table under its mutex on every call.
  int AcquireReadTxn(MDB_txn** txn) {
    {
      std::lock_guard<std::mutex> lock(pool_mu_);
      if (!read_pool_.empty()) {
        *txn = read_pool_.back();
        read_pool_.pop_back();
      }
    }
    if (*txn == nullptr) return mdb_txn_begin(env_, nullptr, MDB_RDONLY, txn);
    const int rc = mdb_txn_renew(*txn);
    if (rc != MDB_SUCCESS) {
      mdb_txn_abort(*txn);
      *txn = nullptr;
    }
    return rc;
  }

  void ReleaseReadTxn(MDB_txn* txn) {
    mdb_txn_reset(txn);
    std::lock_guard<std::mutex> lock(pool_mu_);
    read_pool_.push_back(txn);
  }

  MDB_env* env_ = nullptr;
  MDB_dbi dbi_ = 0;
  unsigned int env_flags_ = 0;  // as opened; 0 before the first Open()
  uint64_t map_size_bytes_ = 0;
  bool append_ = true;
  // The largest stored key, when known (guarded by LMDB's writer lock).
  std::string last_key_;
  bool has_last_key_ = false;
  bool last_key_known_ = false;
  size_t max_key_bytes_ = 511;
  bool sync_by_default_ = false;
  std::mutex pool_mu_;
  std::vector<MDB_txn*> read_pool_;
};

}  // namespace

LibraryBuild LmdbLibrary() {
  LibraryBuild b = LibraryOf(kId, mdb_version(nullptr, nullptr, nullptr),
                             "library", "mdb_reader_check");
  b.assertions_evidence = "LMDB exports nothing that tells";
  return b;
}

std::unique_ptr<Engine> NewLmdbEngine() {
  return std::make_unique<LmdbEngine>();
}

}  // namespace disktune::engine_internal
