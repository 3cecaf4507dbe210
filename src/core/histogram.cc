#include "src/core/histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace disktune {

int Histogram::BucketFor(uint64_t v) {
  if (v < (uint64_t{1} << kSubBits)) return static_cast<int>(v);
  int msb = 63 - std::countl_zero(v);  // >= kSubBits
  int shift = msb - kSubBits;
  uint64_t sub = (v >> shift) & ((uint64_t{1} << kSubBits) - 1);
  return ((shift + 1) << kSubBits) + static_cast<int>(sub);
}

uint64_t Histogram::BucketLow(int b) {
  int group = b >> kSubBits;
  uint64_t sub = static_cast<uint64_t>(b) & ((uint64_t{1} << kSubBits) - 1);
  if (group == 0) return sub;
  int shift = group - 1;
  return ((uint64_t{1} << kSubBits) | sub) << shift;
}

uint64_t Histogram::BucketHigh(int b) {
  int group = b >> kSubBits;
  if (group == 0) return BucketLow(b);
  int shift = group - 1;
  return BucketLow(b) + ((uint64_t{1} << shift) - 1);
}

void Histogram::Add(uint64_t value) {
  buckets_[BucketFor(value)]++;
  count_++;
  min_ = std::min(min_, value);
  max_ = std::max(max_, value);
  double d = static_cast<double>(value);
  sum_ += d;
  sum_sq_ += d * d;
}

void Histogram::Merge(const Histogram& other) {
  for (int i = 0; i < kBuckets; i++) buckets_[i] += other.buckets_[i];
  count_ += other.count_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  sum_ += other.sum_;
  sum_sq_ += other.sum_sq_;
}

void Histogram::Clear() { *this = Histogram(); }

double Histogram::mean() const { return count_ ? sum_ / count_ : 0.0; }

double Histogram::stddev() const {
  if (count_ < 2) return 0.0;
  double m = mean();
  double var = (sum_sq_ - count_ * m * m) / (count_ - 1);
  return var > 0 ? std::sqrt(var) : 0.0;
}

uint64_t Histogram::Percentile(double q) const {
  if (count_ == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  // Rank of the sample we want (1-based), e.g. p50 of 1..100 -> rank 50.
  uint64_t rank =
      static_cast<uint64_t>(std::ceil(q * static_cast<double>(count_)));
  rank = std::max<uint64_t>(rank, 1);
  uint64_t seen = 0;
  for (int b = 0; b < kBuckets; b++) {
    seen += buckets_[b];
    if (seen >= rank) {
      // The midpoint of the bucket halves the worst-case error.
      uint64_t lo = BucketLow(b), hi = BucketHigh(b);
      uint64_t v = lo + (hi - lo) / 2;
      return std::clamp(v, min(), max_);
    }
  }
  return max_;
}

std::optional<LatencySummary> Histogram::Summary() const {
  if (count_ == 0) return std::nullopt;
  LatencySummary s;
  s.mean = mean();
  s.stddev = stddev();
  s.min = min();
  s.p50 = Percentile(0.50);
  s.p90 = Percentile(0.90);
  s.p99 = Percentile(0.99);
  s.p999 = Percentile(0.999);
  s.max = max_;
  s.samples = count_;
  return s;
}

uint64_t MinSamplesForQuantile(double q) {
  if (q <= 0) return 1;
  if (q >= 1) return UINT64_MAX;
  // 10 / (1 - q), rounded to the nearest integer first: 10 / (1 - 0.99) is
  // 999.9999... in binary floating point.
  double n = 10.0 / (1.0 - q);
  double nearest = std::round(n);
  return static_cast<uint64_t>(std::abs(n - nearest) < 1e-6 ? nearest
                                                            : std::ceil(n));
}

std::optional<double> QuantileOfKey(std::string_view key) {
  if (key == "p50") return 0.50;
  if (key == "p90") return 0.90;
  if (key == "p99") return 0.99;
  if (key == "p999") return 0.999;
  return std::nullopt;
}

void to_json(nlohmann::json& j, const LatencySummary& s) {
  j = nlohmann::json{
      {"mean", s.mean}, {"stddev", s.stddev}, {"min", s.min},
      {"p50", s.p50},   {"p90", s.p90},       {"p99", s.p99},
      {"p999", s.p999}, {"max", s.max},       {"samples", s.samples}};
}

void from_json(const nlohmann::json& j, LatencySummary& s) {
  s.mean = j.at("mean").get<double>();
  s.stddev = j.value("stddev", 0.0);
  s.min = j.value("min", uint64_t{0});
  s.p50 = j.at("p50").get<uint64_t>();
  s.p90 = j.at("p90").get<uint64_t>();
  s.p99 = j.at("p99").get<uint64_t>();
  s.p999 = j.at("p999").get<uint64_t>();
  s.max = j.at("max").get<uint64_t>();
  s.samples = j.value("samples", uint64_t{0});
}

}  // namespace disktune
