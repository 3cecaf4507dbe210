// Berkeley DB as the LMDB project's Berkeley DB benchmark (db_bench_bdb)
// drives it: a transactional environment with a 4 MiB cache, 100,000 locks
// and lock objects, DB_REGION_INIT | DB_TXN_WRITE_NOSYNC and
// DB_LOG_AUTO_REMOVE, a new environment for each fresh fill; one transaction
// per put committed with no flags, each followed by txn_checkpoint(81920 KiB,
// 1 min); a transaction and a cursor (DB_SET) per random read and one cursor
// walk in a transaction for readseq. The reference for disktune's bdb adapter
// in bench_fidelity.sh.
#include <db.h>

#include <string>

#include "direct_loop_common.h"

namespace {

using direct_loop::Die;

void Check(int rc, const char* what) {
  if (rc != 0) Die(what, db_strerror(rc));
}

class Bench {
 public:
  explicit Bench(std::string dir) : dir_(std::move(dir)) {}
  ~Bench() { Close(); }

  void OpenFresh() {
    Close();
    const std::string home = dir_ + "/dbbench_bdb-" + std::to_string(++num_);
    direct_loop::EmptyDir(home);
    Check(db_env_create(&env_, 0), "env create");
    Check(env_->set_cachesize(env_, 0, 4194304, 1), "set cachesize");
    Check(env_->set_lk_max_locks(env_, 100000), "set lk_max_locks");
    Check(env_->set_lk_max_objects(env_, 100000), "set lk_max_objects");
    Check(env_->set_flags(env_, DB_REGION_INIT | DB_TXN_WRITE_NOSYNC, 1),
          "set flags");
    Check(env_->log_set_config(env_, DB_LOG_AUTO_REMOVE, 1), "log config");
    Check(env_->open(env_, home.c_str(),
                     DB_INIT_LOCK | DB_INIT_LOG | DB_INIT_TXN | DB_INIT_MPOOL |
                         DB_THREAD | DB_CREATE,
                     0664),
          "env open");
    Check(db_create(&db_, env_, 0), "db create");
    Check(db_->open(db_, nullptr, "data.bdb", nullptr, DB_BTREE,
                    DB_AUTO_COMMIT | DB_CREATE | DB_THREAD, 0664),
          "db open");
  }

  // As the benchmark does before a benchmark on an existing database.
  void BeforeExisting() {
    Check(env_->txn_checkpoint(env_, 1, 1, 0), "checkpoint");
  }

  void Write(long num, bool random, std::mt19937_64* rng) {
    direct_loop::Values values;
    char key[32];
    DBT k{};
    DBT v{};
    k.data = key;
    v.size = static_cast<u_int32_t>(direct_loop::kValueSize);
    for (long i = 0; i < num; i++) {
      DB_TXN* txn = nullptr;
      Check(env_->txn_begin(env_, nullptr, &txn, 0), "txn begin");
      k.size =
          direct_loop::Key(key, sizeof(key), random ? long((*rng)() % num) : i);
      v.data = const_cast<char*>(values.Next(direct_loop::kValueSize).data());
      Check(db_->put(db_, txn, &k, &v, 0), "put");
      Check(txn->commit(txn, 0), "commit");
      env_->txn_checkpoint(env_, 81920, 1, 0);
    }
  }

  long ReadRandom(long num, std::mt19937_64* rng) {
    char key[32];
    DBT k{};
    DBT v{};
    k.data = key;
    // DB_THREAD handles hand back data only into memory the caller names.
    v.flags = DB_DBT_REALLOC;
    long found = 0;
    for (long i = 0; i < num; i++) {
      DB_TXN* txn = nullptr;
      DBC* c = nullptr;
      Check(env_->txn_begin(env_, nullptr, &txn, 0), "txn begin");
      Check(db_->cursor(db_, txn, &c, 0), "cursor");
      k.size = direct_loop::Key(key, sizeof(key), long((*rng)() % num));
      const int rc = c->get(c, &k, &v, DB_SET);
      if (rc == 0) {
        found++;
      } else if (rc != DB_NOTFOUND) {
        Check(rc, "cursor get");
      }
      c->close(c);
      txn->abort(txn);
    }
    std::free(v.data);
    return found;
  }

  long ReadSeq(long num) {
    DB_TXN* txn = nullptr;
    DBC* c = nullptr;
    Check(env_->txn_begin(env_, nullptr, &txn, 0), "txn begin");
    Check(db_->cursor(db_, txn, &c, 0), "cursor");
    DBT k{};
    DBT v{};
    k.flags = DB_DBT_REALLOC;
    v.flags = DB_DBT_REALLOC;
    long n = 0;
    size_t bytes = 0;
    while (n < num && c->get(c, &k, &v, DB_NEXT) == 0) {
      bytes += k.size + v.size;
      n++;
    }
    c->close(c);
    txn->abort(txn);
    std::free(k.data);
    std::free(v.data);
    return bytes > 0 ? n : 0;
  }

 private:
  void Close() {
    if (db_ != nullptr) db_->close(db_, 0);
    if (env_ != nullptr) env_->close(env_, 0);
    db_ = nullptr;
    env_ = nullptr;
  }

  std::string dir_;
  int num_ = 0;
  DB_ENV* env_ = nullptr;
  DB* db_ = nullptr;
};

}  // namespace

int main(int argc, char** argv) {
  const direct_loop::Args a = direct_loop::ParseArgs(argc, argv);
  direct_loop::EmptyDir(a.dir);
  Bench b(a.dir);
  return direct_loop::RunScenarios(a, b);
}
