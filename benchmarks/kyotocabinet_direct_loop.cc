// Kyoto Cabinet TreeDB as LevelDB's TreeDB benchmark (db_bench_tree_db, the
// 2011 LevelDB benchmark page) drives it: TSMALL | TLINEAR | TCOMPRESS with
// raw LZO, a 4 MiB page cache, 1 KiB pages, a 256 MiB map, opened OWRITER |
// OCREATE on a new file for each fresh fill; one set() per entry with the key
// and value as std::string, and synchronize() (not hard) at the end of each
// write benchmark, inside its time; get() for random reads and a cursor
// jump + get(step) walk for readseq. The reference for disktune's
// kyotocabinet adapter in bench_fidelity.sh.
#include <kccompress.h>
#include <kchashdb.h>

#include <string>

#include "direct_loop_common.h"

namespace {

namespace kc = kyotocabinet;
using direct_loop::Die;

class Bench {
 public:
  explicit Bench(std::string dir) : dir_(std::move(dir)) {
    direct_loop::EmptyDir(dir_);
  }
  ~Bench() { Close(); }

  void OpenFresh() {
    Close();
    db_ = new kc::TreeDB();
    db_->tune_options(kc::TreeDB::TSMALL | kc::TreeDB::TLINEAR |
                      kc::TreeDB::TCOMPRESS);
    db_->tune_compressor(&comp_);
    db_->tune_page_cache(4194304);
    db_->tune_page(1024);
    db_->tune_map(256LL << 20);
    const std::string file =
        dir_ + "/dbbench_polyDB-" + std::to_string(++db_num_) + ".kct";
    if (!db_->open(file, kc::BasicDB::OWRITER | kc::BasicDB::OCREATE)) {
      Die("open", db_->error().name());
    }
  }

  void Write(long num, bool random, std::mt19937_64* rng) {
    direct_loop::Values values;
    char key[32];
    for (long i = 0; i < num; i++) {
      direct_loop::Key(key, sizeof(key), random ? long((*rng)() % num) : i);
      std::string cpp_key = key;
      if (!db_->set(cpp_key,
                    std::string(values.Next(direct_loop::kValueSize)))) {
        Die("set", db_->error().name());
      }
    }
    if (!db_->synchronize()) Die("synchronize", db_->error().name());
  }

  long ReadRandom(long num, std::mt19937_64* rng) {
    std::string value;
    long found = 0;
    char key[32];
    for (long i = 0; i < num; i++) {
      direct_loop::Key(key, sizeof(key), long((*rng)() % num));
      if (db_->get(key, &value)) found++;
    }
    return found;
  }

  long ReadSeq(long num) {
    kc::DB::Cursor* cur = db_->cursor();
    cur->jump();
    std::string k;
    std::string v;
    long n = 0;
    size_t bytes = 0;
    while (n < num && cur->get(&k, &v, true)) {
      bytes += k.size() + v.size();
      n++;
    }
    delete cur;
    return bytes > 0 ? n : 0;
  }

 private:
  void Close() {
    if (db_ == nullptr) return;
    if (!db_->close()) Die("close", db_->error().name());
    delete db_;
    db_ = nullptr;
  }

  std::string dir_;
  int db_num_ = 0;
  kc::LZOCompressor<kc::LZO::RAW> comp_;
  kc::TreeDB* db_ = nullptr;
};

}  // namespace

int main(int argc, char** argv) {
  const direct_loop::Args a = direct_loop::ParseArgs(argc, argv);
  Bench b(a.dir);
  return direct_loop::RunScenarios(a, b);
}
