#include "src/bench/distributions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

namespace disktune::bench {
namespace {

TEST(DistributionsTest, UniformWithReplacementLeavesSixtyThreePercentDistinct) {
  const uint64_t n = 200000;
  KeyChooser c(Distribution::kUniform, n);
  Rng rng(1);
  std::vector<bool> seen(n);
  for (uint64_t i = 0; i < n; i++) seen[c.Next(rng)] = true;
  double distinct =
      static_cast<double>(std::count(seen.begin(), seen.end(), true)) / n;
  EXPECT_NEAR(distinct, 1 - std::exp(-1.0), 0.005);
}

TEST(DistributionsTest, SequentialWraps) {
  KeyChooser c(Distribution::kSequential, 3, 1);
  Rng rng(1);
  EXPECT_EQ(c.Next(rng), 1u);
  EXPECT_EQ(c.Next(rng), 2u);
  EXPECT_EQ(c.Next(rng), 0u);
}

TEST(DistributionsTest, HotStaysInFirstPercentAndCoversIt) {
  const uint64_t n = 100000;
  KeyChooser c(Distribution::kHot, n);
  Rng rng(2);
  std::set<uint64_t> seen;
  for (int i = 0; i < 50000; i++) {
    uint64_t k = c.Next(rng);
    ASSERT_LT(k, KeyChooser::HotRange(n));
    seen.insert(k);
  }
  EXPECT_EQ(KeyChooser::HotRange(n), 1000u);
  EXPECT_EQ(seen.size(), 1000u);
}

// Share of draws that hit the most popular `fraction` of keys.
double TopShare(const std::vector<uint64_t>& counts, double fraction) {
  std::vector<uint64_t> sorted = counts;
  std::sort(sorted.rbegin(), sorted.rend());
  uint64_t total = 0, top = 0;
  size_t k = static_cast<size_t>(sorted.size() * fraction);
  for (size_t i = 0; i < sorted.size(); i++) {
    total += sorted[i];
    if (i < k) top += sorted[i];
  }
  return static_cast<double>(top) / static_cast<double>(total);
}

TEST(DistributionsTest, ZipfianItemZeroHasOneOverZetaOfDraws) {
  const uint64_t n = 1000;
  Zipfian z(n, 0.99);
  Rng rng(3);
  std::vector<uint64_t> counts(n);
  const int draws = 400000;
  for (int i = 0; i < draws; i++) counts[z.Next(rng)]++;
  double zeta = Zipfian::Zeta(0, n, 0.99, 0);
  EXPECT_NEAR(static_cast<double>(counts[0]) / draws, 1 / zeta, 0.01);
  // Popularity falls with rank.
  EXPECT_GT(counts[0], counts[1]);
  EXPECT_GT(counts[1], counts[10]);
  EXPECT_GT(counts[10], counts[500]);
}

TEST(DistributionsTest, ScrambledZipfianIsSkewedButSpread) {
  const uint64_t n = 10000;
  KeyChooser zipf(Distribution::kZipfian, n);
  KeyChooser uniform(Distribution::kUniform, n);
  Rng rng(4);
  std::vector<uint64_t> zc(n), uc(n);
  for (int i = 0; i < 500000; i++) {
    zc[zipf.Next(rng)]++;
    uc[uniform.Next(rng)]++;
  }
  // YCSB's scrambled zipfian 0.99 ranks 10^10 items and hashes them onto
  // the keys, so the head of the distribution (sum 1/i^0.99 over the first
  // 100 ranks / zeta(10^10) = ~19%) lands on ~100 keys: the hottest 1% of
  // keys get ~20% of the draws, where uniform gives them ~1.3%.
  EXPECT_GT(TopShare(zc, 0.01), 0.17);
  EXPECT_LT(TopShare(uc, 0.01), 0.03);
  EXPECT_GT(TopShare(zc, 0.10), 0.30);
  EXPECT_LT(TopShare(uc, 0.10), 0.15);
  // Scrambled: the hottest key is not simply key 0, and hot keys are spread
  // over the key space (both halves get a fair share).
  uint64_t low = 0, high = 0;
  for (uint64_t k = 0; k < n; k++) (k < n / 2 ? low : high) += zc[k];
  EXPECT_GT(std::min(low, high), 500000u / 5);
}

TEST(DistributionsTest, LatestFavoursRecentKeys) {
  const uint64_t n = 100000;
  KeyChooser c(Distribution::kLatest, n);
  Rng rng(5);
  int recent = 0;
  const int draws = 100000;
  for (int i = 0; i < draws; i++) {
    uint64_t k = c.Next(rng);
    ASSERT_LT(k, n);
    if (k >= n - 100) recent++;
  }
  // The newest 0.1% of keys get a large share of the reads.
  EXPECT_GT(recent, draws / 3);
}

TEST(DistributionsTest, SkewedLatestFollowsGrowth) {
  SkewedLatest latest(10);
  Rng rng(6);
  uint64_t k = 0;
  for (int i = 0; i < 100; i++) k = std::max(k, latest.Next(rng, 1000));
  EXPECT_EQ(k, 999u);
}

TEST(DistributionsTest, PermutationIsABijection) {
  for (uint64_t n : {1ull, 2ull, 10ull, 1000ull, 65536ull, 99991ull}) {
    Permutation p(n, 42);
    std::vector<bool> seen(n);
    for (uint64_t i = 0; i < n; i++) {
      uint64_t v = p.At(i);
      ASSERT_LT(v, n);
      ASSERT_FALSE(seen[v]) << n << " " << i;
      seen[v] = true;
    }
    if (n >= 1000) {
      EXPECT_NE(p.At(1), p.At(0) + 1);  // scattered
    }
  }
}

TEST(DistributionsTest, NamesRoundTrip) {
  for (auto d :
       {Distribution::kSequential, Distribution::kUniform, Distribution::kHot,
        Distribution::kZipfian, Distribution::kLatest}) {
    EXPECT_EQ(ParseDistribution(DistributionName(d)), d);
  }
  EXPECT_FALSE(ParseDistribution("gaussian"));
}

}  // namespace
}  // namespace disktune::bench
