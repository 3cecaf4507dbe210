#include "src/bench/distributions.h"

#include <cassert>
#include <cmath>
#include <numeric>

#include "src/core/enum_names.h"

namespace disktune::bench {

namespace {

constexpr EnumName<Distribution> kDistributionNames[] = {
    {Distribution::kSequential, "sequential"},
    {Distribution::kUniform, "uniform"},
    {Distribution::kHot, "hot"},
    {Distribution::kZipfian, "zipfian"},
    {Distribution::kLatest, "latest"},
};

}  // namespace

const char* DistributionName(Distribution d) {
  return NameOf(kDistributionNames, d, "unknown");
}

std::optional<Distribution> ParseDistribution(std::string_view s) {
  return ParseName(kDistributionNames, s);
}

double Zipfian::Zeta(uint64_t from, uint64_t to, double theta, double initial) {
  double sum = initial;
  for (uint64_t i = from; i < to; i++) {
    sum += 1.0 / std::pow(static_cast<double>(i + 1), theta);
  }
  return sum;
}

Zipfian::Zipfian(uint64_t items, double theta, std::optional<double> zetan)
    : items_(items), theta_(theta) {
  assert(items >= 1 && theta > 0 && theta < 1);
  alpha_ = 1.0 / (1.0 - theta_);
  zeta2theta_ = Zeta(0, 2, theta_, 0);
  zetan_ = zetan ? *zetan : Zeta(0, items_, theta_, 0);
  eta_ = (1 - std::pow(2.0 / static_cast<double>(items_), 1 - theta_)) /
         (1 - zeta2theta_ / zetan_);
}

void Zipfian::Recompute(uint64_t items) {
  if (items > items_) {
    zetan_ = Zeta(items_, items, theta_, zetan_);
  } else {
    zetan_ = Zeta(0, items, theta_, 0);
  }
  items_ = items;
  eta_ = (1 - std::pow(2.0 / static_cast<double>(items_), 1 - theta_)) /
         (1 - zeta2theta_ / zetan_);
}

uint64_t Zipfian::Next(Rng& rng, uint64_t items) {
  if (items != items_) Recompute(items);
  double u = rng.NextDouble();
  double uz = u * zetan_;
  if (uz < 1.0) return 0;
  if (items_ >= 2 && uz < 1.0 + std::pow(0.5, theta_)) return 1;
  auto r = static_cast<uint64_t>(static_cast<double>(items_) *
                                 std::pow(eta_ * u - eta_ + 1, alpha_));
  return r < items_ ? r : items_ - 1;
}

uint64_t FnvHash64(uint64_t v) {
  uint64_t h = 0xCBF29CE484222325ull;
  for (int i = 0; i < 8; i++) {
    h ^= v & 0xff;
    v >>= 8;
    h *= 1099511628211ull;
  }
  // YCSB returns Math.abs() of the signed value.
  auto s = static_cast<int64_t>(h);
  return s < 0 ? static_cast<uint64_t>(-(s + 1)) + 1 : static_cast<uint64_t>(s);
}

namespace {
// YCSB's constants: zipfian over 10^10 ranks, with zeta(10^10, 0.99)
// precomputed because summing it takes minutes.
constexpr uint64_t kYcsbItemCount = 10000000000ull;
constexpr double kYcsbZetan = 26.46902820178302;

Zipfian MakeScrambledBase(uint64_t n, double theta) {
  if (theta == Zipfian::kYcsbTheta) {
    return Zipfian(kYcsbItemCount, theta, kYcsbZetan);
  }
  return Zipfian(n, theta);
}
}  // namespace

ScrambledZipfian::ScrambledZipfian(uint64_t n, double theta)
    : n_(n), zipf_(MakeScrambledBase(n, theta)) {
  assert(n >= 1);
}

uint64_t ScrambledZipfian::Next(Rng& rng) {
  return FnvHash64(zipf_.Next(rng)) % n_;
}

SkewedLatest::SkewedLatest(uint64_t initial_count)
    : zipf_(initial_count < 1 ? 1 : initial_count, Zipfian::kYcsbTheta) {}

uint64_t SkewedLatest::Next(Rng& rng, uint64_t count) {
  uint64_t back = zipf_.Next(rng, count);
  return count - 1 - back;
}

KeyChooser::KeyChooser(Distribution d, uint64_t n, uint64_t start, double theta)
    : d_(d), n_(n < 1 ? 1 : n), next_(start % (n < 1 ? 1 : n)) {
  if (d_ == Distribution::kZipfian) zipf_.emplace(n_, theta);
  if (d_ == Distribution::kLatest) latest_.emplace(n_);
}

uint64_t KeyChooser::Next(Rng& rng) {
  switch (d_) {
    case Distribution::kSequential: {
      uint64_t k = next_;
      next_ = next_ + 1 == n_ ? 0 : next_ + 1;
      return k;
    }
    case Distribution::kUniform:
      return rng.Uniform(n_);
    case Distribution::kHot:
      return rng.Uniform(HotRange(n_));
    case Distribution::kZipfian:
      return zipf_->Next(rng);
    case Distribution::kLatest:
      return latest_->Next(rng, n_);
  }
  return 0;
}

Permutation::Permutation(uint64_t n, uint64_t seed) : n_(n < 1 ? 1 : n) {
  Rng rng(seed);
  // A multiplier near n * golden ratio scatters neighbours far apart; step
  // it until it is coprime with n so the map is a bijection.
  a_ = static_cast<uint64_t>(static_cast<double>(n_) * 0.6180339887) | 1;
  if (a_ == 0) a_ = 1;
  while (std::gcd(a_, n_) != 1) a_++;
  a_ %= n_;
  if (a_ == 0) a_ = 1;
  b_ = rng.Uniform(n_);
}

uint64_t Permutation::At(uint64_t i) const {
  return static_cast<uint64_t>(
      (static_cast<unsigned __int128>(a_) * (i % n_) + b_) % n_);
}

}  // namespace disktune::bench
