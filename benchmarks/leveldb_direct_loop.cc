// The smallest honest LevelDB benchmark: db_bench's fillseq, fillrandom,
// overwrite, readrandom and readseq as plain loops over the LevelDB API, with
// db_bench's key format and value pool, and leveldb::Options() defaults. It is
// the yardstick for the overhead of disktune's bench harness (engine adapter,
// virtual calls, per-op latency histogram): bench_fidelity.sh runs both.
//
// Usage: leveldb_direct_loop DB_DIR NUM
// Prints one line per scenario: "<name> <ops> <seconds> <ops_per_sec>".
#include <leveldb/db.h>
#include <leveldb/options.h>
#include <leveldb/write_batch.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>

namespace {

// db_bench's RandomGenerator: 1 MiB of 100-byte pieces, each a 50-byte random
// printable string repeated (compressible to ~50%).
class Values {
 public:
  Values() {
    std::mt19937_64 rng(301);
    while (data_.size() < (1 << 20)) {
      std::string raw(50, ' ');
      for (char& c : raw) c = static_cast<char>(' ' + rng() % 95);
      data_ += raw;
      data_ += raw;
    }
  }
  leveldb::Slice Next(size_t len) {
    if (pos_ + len > data_.size()) pos_ = 0;
    pos_ += len;
    return leveldb::Slice(data_.data() + pos_ - len, len);
  }

 private:
  std::string data_;
  size_t pos_ = 0;
};

double Now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void Report(const char* name, long ops, double seconds,
            const std::string& extra) {
  std::printf("%s %ld %.6f %.1f%s\n", name, ops, seconds, ops / seconds,
              extra.c_str());
  std::fflush(stdout);
}

std::unique_ptr<leveldb::DB> Open(const std::string& path, bool fresh) {
  leveldb::Options options;
  options.create_if_missing = true;
  if (fresh) leveldb::DestroyDB(path, options);
  leveldb::DB* db = nullptr;
  leveldb::Status s = leveldb::DB::Open(options, path, &db);
  if (!s.ok()) {
    std::fprintf(stderr, "open %s: %s\n", path.c_str(), s.ToString().c_str());
    std::exit(1);
  }
  return std::unique_ptr<leveldb::DB>(db);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr, "usage: %s DB_DIR NUM [READSEQ_PASSES]\n", argv[0]);
    return 2;
  }
  const std::string path = argv[1];
  const long num = std::atol(argv[2]);
  // readseq may run several times in a row (as "readseq,readseq,..." does in
  // db_bench and disktune): one pass of 1M entries is ~130 ms, short enough
  // for the machine's noise to swamp a 5% difference.
  const int readseq_passes = argc == 4 ? std::atoi(argv[3]) : 1;
  char key[32];
  std::mt19937_64 rng(1000);
  leveldb::WriteOptions wo;

  // As db_bench: fillseq and fillrandom each start from a fresh DB, and the
  // reads run on the DB fillrandom left, still open (compactions may be in
  // flight, the memtable still holds the last writes).
  std::unique_ptr<leveldb::DB> db;
  for (int pass = 0; pass < 2; pass++) {
    const bool random = pass == 1;
    db.reset();
    db = Open(path, /*fresh=*/true);
    Values values;
    double start = Now();
    for (long i = 0; i < num; i++) {
      long k = random ? static_cast<long>(rng() % num) : i;
      std::snprintf(key, sizeof(key), "%016ld", k);
      leveldb::Status s = db->Put(wo, key, values.Next(100));
      if (!s.ok()) {
        std::fprintf(stderr, "put: %s\n", s.ToString().c_str());
        return 1;
      }
    }
    Report(random ? "fillrandom" : "fillseq", num, Now() - start, "");
  }
  {
    // overwrite: random puts on the database fillrandom left.
    Values values;
    double start = Now();
    for (long i = 0; i < num; i++) {
      std::snprintf(key, sizeof(key), "%016ld", static_cast<long>(rng() % num));
      leveldb::Status s = db->Put(wo, key, values.Next(100));
      if (!s.ok()) {
        std::fprintf(stderr, "put: %s\n", s.ToString().c_str());
        return 1;
      }
    }
    Report("overwrite", num, Now() - start, "");
  }

  {
    std::string value;
    long found = 0;
    double start = Now();
    for (long i = 0; i < num; i++) {
      std::snprintf(key, sizeof(key), "%016ld", static_cast<long>(rng() % num));
      if (db->Get(leveldb::ReadOptions(), key, &value).ok()) found++;
    }
    Report("readrandom", num, Now() - start,
           " (" + std::to_string(found) + " of " + std::to_string(num) +
               " found)");
  }
  for (int pass = 0; pass < readseq_passes; pass++) {
    std::unique_ptr<leveldb::Iterator> it(
        db->NewIterator(leveldb::ReadOptions()));
    long n = 0;
    size_t bytes = 0;
    double start = Now();
    for (it->SeekToFirst(); n < num && it->Valid(); it->Next()) {
      bytes += it->key().size() + it->value().size();
      n++;
    }
    Report("readseq", n, Now() - start, "");
  }
  return 0;
}
