// Histogram of non-negative integer samples (latencies in ns, sizes in bytes).
//
// Log-linear buckets: values below 2^kSubBits are counted exactly; above that
// each power of two is split into 2^kSubBits equal buckets, so a percentile is
// off by at most 1/2^kSubBits (0.8%) of its value. min, max, mean and stddev
// are exact. Memory is fixed (~30 KiB) whatever the sample count, and two
// histograms merge by adding buckets, so per-thread histograms combine cheaply.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

namespace disktune {

// How many samples a percentile needs before a verdict may rest on it:
// n >= 10 / (1 - q), so that at least ten samples lie above the q-quantile
// and it is not just the largest one or two values. p50 20, p90 100,
// p99 1,000, p99.9 10,000.
uint64_t MinSamplesForQuantile(double q);
// "p50" -> 0.50, "p90", "p99", "p999" -> 0.999; nullopt for other keys.
std::optional<double> QuantileOfKey(std::string_view key);

// The percentile summary every latency figure in a report carries.
struct LatencySummary {
  double mean = 0;
  double stddev = 0;
  uint64_t min = 0;
  uint64_t p50 = 0;
  uint64_t p90 = 0;
  uint64_t p99 = 0;
  uint64_t p999 = 0;
  uint64_t max = 0;
  uint64_t samples = 0;
};
// Its JSON form: the report's latency_ns objects.
void to_json(nlohmann::json& j, const LatencySummary& s);
void from_json(const nlohmann::json& j, LatencySummary& s);

class Histogram {
 public:
  static constexpr int kSubBits = 7;

  void Add(uint64_t value);
  void Merge(const Histogram& other);
  void Clear();

  uint64_t count() const { return count_; }
  uint64_t min() const { return count_ ? min_ : 0; }
  uint64_t max() const { return max_; }
  double mean() const;
  double stddev() const;
  // The smallest recorded-bucket value v such that at least q (0..1] of the
  // samples are <= v, clamped to [min, max]. 0 when empty.
  uint64_t Percentile(double q) const;
  // nullopt when empty.
  std::optional<LatencySummary> Summary() const;

 private:
  static constexpr int kBuckets = (64 - kSubBits + 1) << kSubBits;
  static int BucketFor(uint64_t v);
  static uint64_t BucketLow(int b);
  static uint64_t BucketHigh(int b);

  std::array<uint64_t, kBuckets> buckets_{};
  uint64_t count_ = 0;
  uint64_t min_ = UINT64_MAX;
  uint64_t max_ = 0;
  double sum_ = 0;
  double sum_sq_ = 0;
};

}  // namespace disktune
