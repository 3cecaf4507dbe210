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

constexpr size_t kValueSize = 100;

struct Db {
  MDB_env* env = nullptr;
  MDB_dbi dbi = 0;
};

void Check(int rc, const char* what) {
  if (rc != MDB_SUCCESS) Die(what, mdb_strerror(rc));
}

Db Open(const std::string& dir, long num) {
  std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str());
  Db db;
  Check(mdb_env_create(&db.env), "env create");
  Check(mdb_env_set_mapsize(db.env, size_t(num) * 32 * kValueSize / 10),
        "set mapsize");
  Check(mdb_env_open(db.env, dir.c_str(), MDB_NOSYNC | MDB_WRITEMAP, 0664),
        "env open");
  MDB_txn* txn = nullptr;
  Check(mdb_txn_begin(db.env, nullptr, 0, &txn), "txn begin");
  Check(mdb_dbi_open(txn, nullptr, 0, &db.dbi), "dbi open");
  Check(mdb_txn_commit(txn), "txn commit");
  return db;
}

void Write(const Db& db, long num, bool random, std::mt19937_64* rng) {
  direct_loop::Values values;
  char key[32];
  MDB_val k{0, key};
  const unsigned flags = random ? 0 : MDB_APPEND;
  for (long i = 0; i < num; i++) {
    MDB_txn* txn = nullptr;
    MDB_cursor* c = nullptr;
    Check(mdb_txn_begin(db.env, nullptr, 0, &txn), "txn begin");
    Check(mdb_cursor_open(txn, db.dbi, &c), "cursor open");
    k.mv_size =
        direct_loop::Key(key, sizeof(key), random ? long((*rng)() % num) : i);
    std::string_view v = values.Next(kValueSize);
    MDB_val val{v.size(), const_cast<char*>(v.data())};
    Check(mdb_cursor_put(c, &k, &val, flags), "put");
    mdb_cursor_close(c);
    Check(mdb_txn_commit(txn), "commit");
  }
}

}  // namespace

int main(int argc, char** argv) {
  const direct_loop::Args a = direct_loop::ParseArgs(argc, argv);
  std::mt19937_64 rng(1000);
  Db db;
  for (int pass = 0; pass < 2; pass++) {  // fillseq, fillrandom: fresh
    if (db.env != nullptr) mdb_env_close(db.env);
    db = Open(a.dir, a.num);
    const double start = direct_loop::Now();
    Write(db, a.num, pass == 1, &rng);
    direct_loop::Report(pass == 1 ? "fillrandom" : "fillseq", a.num,
                        direct_loop::Now() - start);
  }
  {
    const double start = direct_loop::Now();
    Write(db, a.num, true, &rng);
    direct_loop::Report("overwrite", a.num, direct_loop::Now() - start);
  }
  {
    MDB_txn* txn = nullptr;
    MDB_cursor* c = nullptr;
    Check(mdb_txn_begin(db.env, nullptr, MDB_RDONLY, &txn), "txn begin");
    Check(mdb_cursor_open(txn, db.dbi, &c), "cursor open");
    mdb_txn_reset(txn);
    char key[32];
    MDB_val k{0, key};
    MDB_val v;
    long found = 0;
    const double start = direct_loop::Now();
    for (long i = 0; i < a.num; i++) {
      k.mv_size = direct_loop::Key(key, sizeof(key), long(rng() % a.num));
      mdb_txn_renew(txn);
      if (mdb_cursor_get(c, &k, &v, MDB_SET) == MDB_SUCCESS) found++;
      mdb_txn_reset(txn);
    }
    direct_loop::Report("readrandom", a.num, direct_loop::Now() - start,
                        " (" + std::to_string(found) + " of " +
                            std::to_string(a.num) + " found)");
    mdb_cursor_close(c);
    mdb_txn_abort(txn);
  }
  for (int pass = 0; pass < a.readseq_passes; pass++) {
    MDB_txn* txn = nullptr;
    MDB_cursor* c = nullptr;
    Check(mdb_txn_begin(db.env, nullptr, MDB_RDONLY, &txn), "txn begin");
    Check(mdb_cursor_open(txn, db.dbi, &c), "cursor open");
    MDB_val k;
    MDB_val v;
    long n = 0;
    size_t bytes = 0;
    const double start = direct_loop::Now();
    while (mdb_cursor_get(c, &k, &v, MDB_NEXT) == MDB_SUCCESS) {
      bytes += k.mv_size + v.mv_size;
      n++;
    }
    direct_loop::Report("readseq", n, direct_loop::Now() - start);
    mdb_cursor_close(c);
    mdb_txn_abort(txn);
  }
  mdb_env_close(db.env);
  return 0;
}
