// What every benchmarks/<engine>_direct_loop.cc shares: db_bench's value
// generator, its key format, the clock, the output line and the arguments.
// Each loop runs fillseq, fillrandom, overwrite, readrandom and readseq (P
// passes) in that order, as `disktune bench --scenario
// fillseq,fillrandom,overwrite,readrandom,readseq,...` does, and prints one
// line per scenario: "<name> <ops> <seconds> <ops_per_sec>[ extra]".
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>

namespace direct_loop {

// db_bench's default --value_size.
constexpr size_t kValueSize = 100;

// db_bench's RandomGenerator: 1 MiB of 100-byte pieces, each a 50-byte random
// printable string repeated (compressible to ~50%), handed out in order.
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
  std::string_view Next(size_t len) {
    if (pos_ + len > data_.size()) pos_ = 0;
    pos_ += len;
    return std::string_view(data_.data() + pos_ - len, len);
  }

 private:
  std::string data_;
  size_t pos_ = 0;
};

inline double Now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

inline void Report(const char* name, long ops, double seconds,
                   const std::string& extra = "") {
  std::printf("%s %ld %.6f %.1f%s\n", name, ops, seconds, ops / seconds,
              extra.c_str());
  std::fflush(stdout);
}

// db_bench's key: "%016d". Returns the length (16 for keys below 10^16).
inline int Key(char* buf, size_t size, long k) {
  return std::snprintf(buf, size, "%016ld", k);
}

// Removes `dir` and makes it again, empty: every run starts from no database.
inline void EmptyDir(const std::string& dir) {
  std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str());
}

[[noreturn]] inline void Die(const char* what, const std::string& detail) {
  std::fprintf(stderr, "%s: %s\n", what, detail.c_str());
  std::exit(1);
}

struct Args {
  std::string dir;
  long num = 0;
  int readseq_passes = 1;
};

// Usage: <loop> DB_DIR NUM [READSEQ_PASSES]
inline Args ParseArgs(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr, "usage: %s DB_DIR NUM [READSEQ_PASSES]\n", argv[0]);
    std::exit(2);
  }
  Args a;
  a.dir = argv[1];
  a.num = std::atol(argv[2]);
  a.readseq_passes = argc == 4 ? std::atoi(argv[3]) : 1;
  if (a.num < 1 || a.readseq_passes < 1) {
    std::fprintf(stderr, "%s: NUM and READSEQ_PASSES must be >= 1\n", argv[0]);
    std::exit(2);
  }
  return a;
}

// The scenarios in disktune's order, each timed from its first operation to
// its last (a benchmark's own closing work, e.g. a checkpoint, included).
// `B` provides:
//   void OpenFresh();                        a new, empty database
//   void Write(long num, bool random, std::mt19937_64* rng);
//   long ReadRandom(long num, std::mt19937_64* rng);   returns hits
//   long ReadSeq(long num);                  returns entries read
// and may provide void BeforeExisting(), untimed work the engine's benchmark
// does before a benchmark on an existing database (BDB's checkpoint).
template <typename B, typename = void>
struct HasBeforeExisting : std::false_type {};
template <typename B>
struct HasBeforeExisting<
    B, std::void_t<decltype(std::declval<B&>().BeforeExisting())>>
    : std::true_type {};

template <typename B>
int RunScenarios(const Args& a, B& b) {
  auto before_existing = [&b] {
    if constexpr (HasBeforeExisting<B>::value) b.BeforeExisting();
  };
  std::mt19937_64 rng(1000);
  for (int pass = 0; pass < 2; pass++) {  // fillseq, fillrandom: fresh
    b.OpenFresh();
    const double start = Now();
    b.Write(a.num, pass == 1, &rng);
    Report(pass == 1 ? "fillrandom" : "fillseq", a.num, Now() - start);
  }
  {
    before_existing();
    const double start = Now();
    b.Write(a.num, true, &rng);
    Report("overwrite", a.num, Now() - start);
  }
  {
    before_existing();
    const double start = Now();
    const long found = b.ReadRandom(a.num, &rng);
    Report("readrandom", a.num, Now() - start,
           " (" + std::to_string(found) + " of " + std::to_string(a.num) +
               " found)");
  }
  for (int pass = 0; pass < a.readseq_passes; pass++) {
    before_existing();
    const double start = Now();
    const long n = b.ReadSeq(a.num);
    Report("readseq", n, Now() - start);
  }
  return 0;
}

}  // namespace direct_loop
