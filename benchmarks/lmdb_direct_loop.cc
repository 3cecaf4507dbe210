// LMDB as LMDB's own benchmark (the LMDB project's db_bench port,
// db_bench_mdb) drives it: an environment opened MDB_NOSYNC | MDB_WRITEMAP
// with a map of num * 32 * value_size / 10 bytes, one write transaction and
// cursor per put, MDB_APPEND for the sequential load, one read transaction
// reset and renewed around each random read (a cursor MDB_SET), and one
// cursor walk for readseq. The reference for disktune's lmdb adapter in
// bench_fidelity.sh.
#include <lmdb.h>

#include <string>

#include "direct_loop_common.h"

namespace {

using direct_loop::Die;

void Check(int rc, const char* what) {
  if (rc != MDB_SUCCESS) Die(what, mdb_strerror(rc));
}

class Bench {
 public:
  Bench(std::string dir, long num) : dir_(std::move(dir)), num_(num) {}
  ~Bench() { Close(); }

  // Each fresh fill starts from an empty directory; the map size is set
  // from the entry count, as LMDB's benchmark does.
  void OpenFresh() {
    Close();
    direct_loop::EmptyDir(dir_);
    Check(mdb_env_create(&env_), "env create");
    Check(mdb_env_set_mapsize(env_,
                              size_t(num_) * 32 * direct_loop::kValueSize / 10),
          "set mapsize");
    Check(mdb_env_open(env_, dir_.c_str(), MDB_NOSYNC | MDB_WRITEMAP, 0664),
          "env open");
    MDB_txn* txn = nullptr;
    Check(mdb_txn_begin(env_, nullptr, 0, &txn), "txn begin");
    Check(mdb_dbi_open(txn, nullptr, 0, &dbi_), "dbi open");
    Check(mdb_txn_commit(txn), "txn commit");
  }

  void Write(long num, bool random, std::mt19937_64* rng) {
    direct_loop::Values values;
    char key[32];
    MDB_val k{0, key};
    const unsigned flags = random ? 0 : MDB_APPEND;
    for (long i = 0; i < num; i++) {
      MDB_txn* txn = nullptr;
      MDB_cursor* c = nullptr;
      Check(mdb_txn_begin(env_, nullptr, 0, &txn), "txn begin");
      Check(mdb_cursor_open(txn, dbi_, &c), "cursor open");
      k.mv_size =
          direct_loop::Key(key, sizeof(key), random ? long((*rng)() % num) : i);
      std::string_view v = values.Next(direct_loop::kValueSize);
      MDB_val val{v.size(), const_cast<char*>(v.data())};
      Check(mdb_cursor_put(c, &k, &val, flags), "put");
      mdb_cursor_close(c);
      Check(mdb_txn_commit(txn), "commit");
    }
  }

  long ReadRandom(long num, std::mt19937_64* rng) {
    MDB_txn* txn = nullptr;
    MDB_cursor* c = nullptr;
    Check(mdb_txn_begin(env_, nullptr, MDB_RDONLY, &txn), "txn begin");
    Check(mdb_cursor_open(txn, dbi_, &c), "cursor open");
    mdb_txn_reset(txn);
    char key[32];
    MDB_val k{0, key};
    MDB_val v;
    long found = 0;
    for (long i = 0; i < num; i++) {
      k.mv_size = direct_loop::Key(key, sizeof(key), long((*rng)() % num));
      mdb_txn_renew(txn);
      if (mdb_cursor_get(c, &k, &v, MDB_SET) == MDB_SUCCESS) found++;
      mdb_txn_reset(txn);
    }
    mdb_cursor_close(c);
    mdb_txn_abort(txn);
    return found;
  }

  long ReadSeq(long num) {
    MDB_txn* txn = nullptr;
    MDB_cursor* c = nullptr;
    Check(mdb_txn_begin(env_, nullptr, MDB_RDONLY, &txn), "txn begin");
    Check(mdb_cursor_open(txn, dbi_, &c), "cursor open");
    MDB_val k;
    MDB_val v;
    long n = 0;
    size_t bytes = 0;
    while (n < num && mdb_cursor_get(c, &k, &v, MDB_NEXT) == MDB_SUCCESS) {
      bytes += k.mv_size + v.mv_size;
      n++;
    }
    mdb_cursor_close(c);
    mdb_txn_abort(txn);
    return bytes > 0 ? n : 0;
  }

 private:
  void Close() {
    if (env_ != nullptr) mdb_env_close(env_);
    env_ = nullptr;
  }

  std::string dir_;
  long num_;
  MDB_env* env_ = nullptr;
  MDB_dbi dbi_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  const direct_loop::Args a = direct_loop::ParseArgs(argc, argv);
  Bench b(a.dir, a.num);
  return direct_loop::RunScenarios(a, b);
}
