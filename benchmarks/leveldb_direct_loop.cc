// The smallest honest LevelDB benchmark: db_bench's fillseq, fillrandom,
// overwrite, readrandom and readseq as plain loops over the LevelDB API, with
// db_bench's key format and value pool, and leveldb::Options() defaults. It is
// the yardstick for the overhead of disktune's bench harness (engine adapter,
// virtual calls, per-op latency histogram): bench_fidelity.sh runs both.
//
// As db_bench: fillseq and fillrandom each start from a fresh DB, and the
// reads run on the DB fillrandom left, still open (compactions may be in
// flight, the memtable still holds the last writes).
#include <leveldb/db.h>
#include <leveldb/options.h>

#include <memory>
#include <string>

#include "direct_loop_common.h"

namespace {

using direct_loop::Die;

class Bench {
 public:
  explicit Bench(std::string dir) : path_(std::move(dir)) {}

  void OpenFresh() {
    db_.reset();
    leveldb::Options options;
    options.create_if_missing = true;
    leveldb::DestroyDB(path_, options);
    leveldb::DB* db = nullptr;
    leveldb::Status s = leveldb::DB::Open(options, path_, &db);
    if (!s.ok()) Die(("open " + path_).c_str(), s.ToString());
    db_.reset(db);
  }

  void Write(long num, bool random, std::mt19937_64* rng) {
    direct_loop::Values values;
    leveldb::WriteOptions wo;
    char key[32];
    for (long i = 0; i < num; i++) {
      const int n =
          direct_loop::Key(key, sizeof(key), random ? long((*rng)() % num) : i);
      const std::string_view v = values.Next(direct_loop::kValueSize);
      leveldb::Status s = db_->Put(wo, leveldb::Slice(key, n),
                                   leveldb::Slice(v.data(), v.size()));
      if (!s.ok()) Die("put", s.ToString());
    }
  }

  long ReadRandom(long num, std::mt19937_64* rng) {
    std::string value;
    long found = 0;
    char key[32];
    for (long i = 0; i < num; i++) {
      const int n = direct_loop::Key(key, sizeof(key), long((*rng)() % num));
      if (db_->Get(leveldb::ReadOptions(), leveldb::Slice(key, n), &value)
              .ok()) {
        found++;
      }
    }
    return found;
  }

  long ReadSeq(long num) {
    std::unique_ptr<leveldb::Iterator> it(
        db_->NewIterator(leveldb::ReadOptions()));
    long n = 0;
    size_t bytes = 0;
    for (it->SeekToFirst(); n < num && it->Valid(); it->Next()) {
      bytes += it->key().size() + it->value().size();
      n++;
    }
    return bytes > 0 ? n : 0;
  }

 private:
  std::string path_;
  std::unique_ptr<leveldb::DB> db_;
};

}  // namespace

int main(int argc, char** argv) {
  const direct_loop::Args a = direct_loop::ParseArgs(argc, argv);
  Bench b(a.dir);
  return direct_loop::RunScenarios(a, b);
}
