// Access distributions: which key index an operation touches.
//
// Uniform draws with replacement (as db_bench's rand.Uniform(FLAGS_num), so a
// fillrandom of n keys leaves ~63% distinct); hot draws from the first 1%
// (db_bench readhot); zipfian and latest follow YCSB's generators so "YCSB
// workload A" means the same skew here as in YCSB.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "src/core/rng.h"

namespace disktune::bench {

enum class Distribution { kSequential, kUniform, kHot, kZipfian, kLatest };
const char* DistributionName(Distribution d);
std::optional<Distribution> ParseDistribution(std::string_view s);

// YCSB's ZipfianGenerator (Gray et al., "Quickly generating billion-record
// synthetic databases"): item 0 is the most popular. The item count may grow
// (zeta is extended incrementally), which SkewedLatest needs.
class Zipfian {
 public:
  static constexpr double kYcsbTheta = 0.99;

  // REQUIRES: items >= 1, 0 < theta < 1. `zetan` may be given when known
  // (computing it is O(items)).
  Zipfian(uint64_t items, double theta, std::optional<double> zetan = {});

  // An index in [0, items). `items` may be larger than at construction.
  uint64_t Next(Rng& rng, uint64_t items);
  uint64_t Next(Rng& rng) { return Next(rng, items_); }
  uint64_t items() const { return items_; }

  // sum_{i=from+1..to} 1 / i^theta, added to `initial`.
  static double Zeta(uint64_t from, uint64_t to, double theta, double initial);

 private:
  void Recompute(uint64_t items);
  uint64_t items_;
  double theta_;
  double alpha_;
  double zeta2theta_;
  double zetan_;
  double eta_;
};

// YCSB's ScrambledZipfianGenerator: zipfian popularity over 10^10 ranks,
// hashed (FNV-1a 64) onto [0, n) so the hot keys are spread over the key space
// instead of clustered at its start.
class ScrambledZipfian {
 public:
  ScrambledZipfian(uint64_t n, double theta = Zipfian::kYcsbTheta);
  uint64_t Next(Rng& rng);

 private:
  uint64_t n_;
  Zipfian zipf_;
};

// YCSB's fnvhash64.
uint64_t FnvHash64(uint64_t v);

// YCSB's SkewedLatestGenerator: the most recently inserted key is the most
// popular; `count` is how many keys exist now (they are 0..count-1).
class SkewedLatest {
 public:
  explicit SkewedLatest(uint64_t initial_count);
  // An index in [0, count). REQUIRES: count >= 1.
  uint64_t Next(Rng& rng, uint64_t count);

 private:
  Zipfian zipf_;
};

// Chooses key indexes in [0, n) with one distribution. Sequential returns
// `start`, `start+1`, ... wrapping at n. Not thread-safe: one per thread.
class KeyChooser {
 public:
  KeyChooser(Distribution d, uint64_t n, uint64_t start = 0,
             double theta = Zipfian::kYcsbTheta);
  uint64_t Next(Rng& rng);
  // The first 1% of keys, as db_bench's readhot: (n + 99) / 100.
  static uint64_t HotRange(uint64_t n) { return (n + 99) / 100; }

 private:
  Distribution d_;
  uint64_t n_;
  uint64_t next_;
  std::optional<ScrambledZipfian> zipf_;
  std::optional<SkewedLatest> latest_;
};

// A bijection of [0, n) that visits keys in a scattered order, for loads that
// must insert every key exactly once but not sequentially (YCSB's hashed
// inserts). i -> (a * i + b) mod n with gcd(a, n) = 1.
class Permutation {
 public:
  Permutation(uint64_t n, uint64_t seed);
  uint64_t At(uint64_t i) const;

 private:
  uint64_t n_;
  uint64_t a_;
  uint64_t b_;
};

}  // namespace disktune::bench
