// bench_harness_overhead: what disktune's bench harness costs per operation,
// measured on an engine that does nothing (Put/Get return at once, the
// iterator walks a counter). Every nanosecond it prints is the harness's own:
// key formatting, value cursor, latency clock and histogram, the live-key
// model, the interrupt poll. benchmarks/bench_fidelity.sh prints it next to
// the comparisons with db_bench and a direct LevelDB loop, where machine
// noise makes small differences invisible.
//
// Usage: bench_harness_overhead [NUM]   (default 2000000)
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "src/bench/runner.h"

namespace disktune::bench {
namespace {

class NullIterator : public EngineIterator {
 public:
  explicit NullIterator(uint64_t n) : n_(n) {}
  void SeekToFirst() override { i_ = 0; }
  void SeekToLast() override { i_ = n_ - 1; }
  void Seek(std::string_view) override { i_ = 0; }
  bool Valid() const override { return i_ < n_; }
  void Next() override { i_++; }
  void Prev() override { i_--; }
  std::string_view key() const override { return {key_, sizeof(key_)}; }
  std::string_view value() const override { return {value_, sizeof(value_)}; }
  Status status() const override { return Status::OK(); }

 private:
  uint64_t n_;
  uint64_t i_ = 0;
  char key_[16] = {};
  char value_[100] = {};
};

class NullEngine : public Engine {
 public:
  std::string_view id() const override { return "null"; }
  Status Open(const std::string& path, const EngineOptions&) override {
    std::error_code ec;
    std::filesystem::create_directories(path, ec);
    return Status::OK();
  }
  Status Close() override { return Status::OK(); }
  Status Put(std::string_view, std::string_view, const WriteOptions&) override {
    entries_++;
    return Status::OK();
  }
  Status Get(std::string_view, std::string* value) override {
    value->assign(100, 'v');
    return Status::OK();
  }
  Status Delete(std::string_view, const WriteOptions&) override {
    return Status::OK();
  }
  Status Write(const WriteBatch&, const WriteOptions&) override {
    return Status::OK();
  }
  std::unique_ptr<EngineIterator> NewIterator() override {
    return std::make_unique<NullIterator>(entries_ ? entries_ : 1);
  }
  Status Flush() override { return Status::OK(); }
  Status CompactAll() override { return Status::OK(); }
  std::string StatsText() override { return ""; }
  std::vector<std::pair<std::string, std::string>> Properties() override {
    return {};
  }
  std::vector<std::pair<std::string, std::string>> unsupported_knobs()
      const override {
    return {};
  }
  bool thread_safe() const override { return true; }
  Status Destroy(const std::string& path) override {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
    entries_ = 0;
    return Status::OK();
  }

 private:
  uint64_t entries_ = 0;
};

int Main(int argc, char** argv) {
  int64_t num = argc > 1 ? std::atoll(argv[1]) : 2000000;
  std::string root = std::filesystem::temp_directory_path().string() +
                     "/bench_harness_overhead." + std::to_string(getpid());
  BenchRequest req;
  req.engines = {"null"};
  req.scenarios = {"fillseq,fillrandom,readrandom,readseq"};
  req.user.num = num;
  req.db_root = root;
  req.available = {EngineInfo{"null", "does nothing", false}};
  req.factory = [](std::string_view) -> Result<std::unique_ptr<Engine>> {
    return std::unique_ptr<Engine>(std::make_unique<NullEngine>());
  };
  auto results = RunBench(req);
  std::filesystem::remove_all(root);
  if (!results.ok()) {
    std::fprintf(stderr, "%s\n", results.status().ToString().c_str());
    return 1;
  }
  for (const BenchResult& r : *results) {
    std::printf("%s %.1f\n", r.scenario.c_str(), 1e9 / r.metrics.ops_per_sec);
  }
  return 0;
}

}  // namespace
}  // namespace disktune::bench

int main(int argc, char** argv) { return disktune::bench::Main(argc, argv); }
