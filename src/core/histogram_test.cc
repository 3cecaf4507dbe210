#include "src/core/histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "src/core/rng.h"

namespace disktune {
namespace {

TEST(HistogramTest, SmallValuesAreExact) {
  Histogram h;
  for (uint64_t v = 1; v <= 100; v++) h.Add(v);
  EXPECT_EQ(h.count(), 100u);
  EXPECT_EQ(h.min(), 1u);
  EXPECT_EQ(h.max(), 100u);
  EXPECT_DOUBLE_EQ(h.mean(), 50.5);
  EXPECT_EQ(h.Percentile(0.50), 50u);
  EXPECT_EQ(h.Percentile(0.90), 90u);
  EXPECT_EQ(h.Percentile(0.99), 99u);
  EXPECT_EQ(h.Percentile(1.0), 100u);
}

TEST(HistogramTest, LargeValuesWithinRelativeError) {
  // Latencies spread over 4 decades: compare with the exact sorted percentiles.
  Rng rng(42);
  std::vector<uint64_t> values;
  Histogram h;
  for (int i = 0; i < 200000; i++) {
    uint64_t v = static_cast<uint64_t>(std::exp(rng.NextDouble() * 9.2) * 1000);
    values.push_back(v);
    h.Add(v);
  }
  std::sort(values.begin(), values.end());
  for (double q : {0.5, 0.9, 0.99, 0.999}) {
    uint64_t exact =
        values[static_cast<size_t>(std::ceil(q * values.size())) - 1];
    double err =
        std::fabs(static_cast<double>(h.Percentile(q)) - exact) / exact;
    EXPECT_LT(err, 1.0 / 128) << "q=" << q << " exact=" << exact;
  }
  EXPECT_EQ(h.max(), values.back());
  EXPECT_EQ(h.min(), values.front());
}

TEST(HistogramTest, MergeEqualsAddingAll) {
  Histogram a, b, all;
  for (uint64_t v = 0; v < 5000; v += 7) {
    a.Add(v * 1000);
    all.Add(v * 1000);
  }
  for (uint64_t v = 0; v < 3000; v += 3) {
    b.Add(v * 10);
    all.Add(v * 10);
  }
  a.Merge(b);
  EXPECT_EQ(a.count(), all.count());
  for (double q : {0.1, 0.5, 0.9, 0.99})
    EXPECT_EQ(a.Percentile(q), all.Percentile(q));
  EXPECT_DOUBLE_EQ(a.mean(), all.mean());
}

TEST(HistogramTest, EmptyHasNoSummary) {
  Histogram h;
  EXPECT_FALSE(h.Summary().has_value());
  EXPECT_EQ(h.Percentile(0.5), 0u);
  h.Add(10);
  auto s = h.Summary();
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->samples, 1u);
  EXPECT_EQ(s->p999, 10u);
  EXPECT_DOUBLE_EQ(s->stddev, 0.0);
}

TEST(HistogramTest, StddevOfKnownData) {
  Histogram h;
  for (uint64_t v : {2, 4, 4, 4, 5, 5, 7, 9}) h.Add(v);
  EXPECT_NEAR(h.stddev(), 2.138, 0.001);  // sample standard deviation
}

}  // namespace
}  // namespace disktune

namespace disktune {
namespace {

TEST(MinSamplesTest, TenBeyondTheQuantile) {
  EXPECT_EQ(MinSamplesForQuantile(0.50), 20u);
  EXPECT_EQ(MinSamplesForQuantile(0.90), 100u);
  EXPECT_EQ(MinSamplesForQuantile(0.99), 1000u);
  EXPECT_EQ(MinSamplesForQuantile(0.999), 10000u);
  EXPECT_EQ(QuantileOfKey("p999"), 0.999);
  EXPECT_FALSE(QuantileOfKey("max").has_value());
}

}  // namespace
}  // namespace disktune
