// SQLite as LevelDB's SQLite benchmark (db_bench_sqlite3, the 2011 LevelDB
// benchmark page) drives it: a new file for each fresh fill with
// cache_size = 4096 pages, journal_mode = WAL, wal_autocheckpoint = 4096,
// locking_mode = EXCLUSIVE and a WITHOUT ROWID table; synchronous = OFF, one
// autocommitted REPLACE per entry through a prepared statement, and a full WAL
// checkpoint at the end of each write benchmark, inside its time; a prepared
// SELECT per random read and one ORDER BY key scan for readseq. The
// reference for disktune's sqlite3 adapter in bench_fidelity.sh.
#include <sqlite3.h>

#include <string>

#include "direct_loop_common.h"

namespace {

using direct_loop::Die;

class Bench {
 public:
  explicit Bench(std::string dir) : dir_(std::move(dir)) {
    direct_loop::EmptyDir(dir_);
  }
  ~Bench() {
    if (db_ != nullptr) sqlite3_close(db_);
  }

  void OpenFresh() {
    if (db_ != nullptr) sqlite3_close(db_);
    const std::string file =
        dir_ + "/dbbench_sqlite3-" + std::to_string(++db_num_) + ".db";
    if (sqlite3_open(file.c_str(), &db_) != SQLITE_OK) {
      Die("open", sqlite3_errmsg(db_));
    }
    for (const char* sql :
         {"PRAGMA cache_size = 4096", "PRAGMA journal_mode = WAL",
          "PRAGMA wal_autocheckpoint = 4096", "PRAGMA locking_mode = EXCLUSIVE",
          "CREATE TABLE test (key blob, value blob, PRIMARY KEY(key)) "
          "WITHOUT ROWID"}) {
      Exec(sql);
    }
  }

  void Write(long num, bool random, std::mt19937_64* rng) {
    Exec("PRAGMA synchronous = OFF");
    sqlite3_stmt* put = Prepare("REPLACE INTO test (key, value) VALUES (?, ?)");
    direct_loop::Values values;
    char key[32];
    for (long i = 0; i < num; i++) {
      std::string_view v = values.Next(direct_loop::kValueSize);
      direct_loop::Key(key, sizeof(key), random ? long((*rng)() % num) : i);
      sqlite3_bind_blob(put, 1, key, 16, SQLITE_STATIC);
      sqlite3_bind_blob(put, 2, v.data(),
                        static_cast<int>(direct_loop::kValueSize),
                        SQLITE_STATIC);
      if (sqlite3_step(put) != SQLITE_DONE) Die("replace", sqlite3_errmsg(db_));
      sqlite3_clear_bindings(put);
      sqlite3_reset(put);
    }
    sqlite3_finalize(put);
    sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_FULL, nullptr,
                              nullptr);
  }

  long ReadRandom(long num, std::mt19937_64* rng) {
    sqlite3_stmt* get = Prepare("SELECT * FROM test WHERE key = ?");
    char key[32];
    long found = 0;
    int rc = SQLITE_OK;
    for (long i = 0; i < num; i++) {
      direct_loop::Key(key, sizeof(key), long((*rng)() % num));
      sqlite3_bind_blob(get, 1, key, 16, SQLITE_STATIC);
      while ((rc = sqlite3_step(get)) == SQLITE_ROW) found++;
      if (rc != SQLITE_DONE) Die("select", sqlite3_errmsg(db_));
      sqlite3_clear_bindings(get);
      sqlite3_reset(get);
    }
    sqlite3_finalize(get);
    return found;
  }

  long ReadSeq(long num) {
    sqlite3_stmt* scan = Prepare("SELECT * FROM test ORDER BY key");
    long n = 0;
    size_t bytes = 0;
    for (; n < num && sqlite3_step(scan) == SQLITE_ROW; n++) {
      bytes += sqlite3_column_bytes(scan, 0) + sqlite3_column_bytes(scan, 1);
    }
    sqlite3_finalize(scan);
    return bytes > 0 ? n : 0;
  }

 private:
  void Exec(const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
      Die(sql, err != nullptr ? err : "error");
    }
  }
  sqlite3_stmt* Prepare(const char* sql) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db_, sql, -1, &s, nullptr) != SQLITE_OK) {
      Die(sql, sqlite3_errmsg(db_));
    }
    return s;
  }

  std::string dir_;
  int db_num_ = 0;
  sqlite3* db_ = nullptr;
};

}  // namespace

int main(int argc, char** argv) {
  const direct_loop::Args a = direct_loop::ParseArgs(argc, argv);
  Bench b(a.dir);
  return direct_loop::RunScenarios(a, b);
}
