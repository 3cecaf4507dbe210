#include "src/bench/key_value.h"

#include <gtest/gtest.h>
#include <snappy.h>

#include <cstdio>
#include <random>
#include <set>

namespace disktune::bench {
namespace {

TEST(KeyFormatTest, DefaultIsDbBenchPercent016d) {
  KeyFormat kf;
  for (uint64_t k : {0ull, 7ull, 123456ull, 999999ull, 2147483647ull}) {
    char expect[32];
    std::snprintf(expect, sizeof(expect), "%016d", static_cast<int>(k));
    EXPECT_EQ(kf.Make(k), expect) << k;
  }
  EXPECT_EQ(kf.Make(42).size(), 16u);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100000; i++) {
    uint64_t k = rng() % 10000000000000000ull;
    char expect[32];
    std::snprintf(expect, sizeof(expect), "%016llu",
                  static_cast<unsigned long long>(k));
    ASSERT_EQ(kf.Make(k), expect) << k;
  }
}

TEST(KeyFormatTest, WiderKeysArePaddedAndKeepIntegerOrder) {
  KeyFormat kf(24);
  EXPECT_EQ(kf.Make(42), "000000000000000000000042");
  EXPECT_LT(kf.Make(9), kf.Make(10));
  EXPECT_LT(kf.Make(99999), kf.Make(100000));
}

TEST(KeyFormatTest, FitsChecksDigits) {
  KeyFormat kf(4);
  EXPECT_TRUE(kf.Fits(10000));   // keys 0..9999
  EXPECT_FALSE(kf.Fits(10001));  // key 10000 needs 5 digits
  EXPECT_EQ(KeyFormat::Digits(0), 1u);
  EXPECT_EQ(KeyFormat::Digits(1000000), 7u);
}

TEST(UtxoKeyTest, FortyByteBigEndianRoundTripAndOrder) {
  std::string a, b;
  FormatUtxoKey(1210292943ull, &a);
  ASSERT_EQ(a.size(), kUtxoKeySize);
  EXPECT_EQ(ParseUtxoKey(a), 1210292943ull);
  for (size_t i = 0; i < 32; i++) EXPECT_EQ(a[i], '\0');
  FormatUtxoKey(255, &a);
  FormatUtxoKey(256, &b);
  EXPECT_LT(a, b);  // bytewise order is integer order
  EXPECT_EQ(static_cast<unsigned char>(b[38]), 1);
}

TEST(UtxoKeyTest, ValueLengthsCoverThirtyToHundredOne) {
  std::set<uint32_t> seen;
  double sum = 0;
  const int n = 100000;
  for (int k = 0; k < n; k++) {
    uint32_t len = UtxoValueLength(k);
    ASSERT_GE(len, kUtxoMinValue);
    ASSERT_LE(len, kUtxoMaxValue);
    seen.insert(len);
    sum += len;
  }
  EXPECT_EQ(seen.size(), kUtxoMaxValue - kUtxoMinValue + 1);
  EXPECT_NEAR(sum / n, 65.5, 0.5);
  EXPECT_EQ(UtxoValueLength(12345), UtxoValueLength(12345));
}

double SnappyRatio(std::string_view data) {
  std::string out;
  snappy::Compress(data.data(), data.size(), &out);
  return static_cast<double>(out.size()) / static_cast<double>(data.size());
}

TEST(ValuePoolTest, CompressesToTheRequestedRatio) {
  // db_bench's default: values shrink to about half (db_bench's own
  // snappycomp line reports "(output: 55.1%)" on its pool).
  ValuePool pool(0.5, 301);
  EXPECT_EQ(pool.size(), ValuePool::kPoolBytes);
  EXPECT_NEAR(SnappyRatio(pool.data()), 0.5, 0.07);
  // A 4 KiB block of 100-byte values, as an engine compresses them.
  ValuePool::Cursor c(&pool);
  std::string block;
  for (int i = 0; i < 40; i++) block += c.Next(100);
  EXPECT_NEAR(SnappyRatio(block), 0.5, 0.06);
  // Other ratios track the request (snappy's framing adds a few percent).
  double quarter = SnappyRatio(ValuePool(0.25, 301).data());
  double three_quarters = SnappyRatio(ValuePool(0.75, 301).data());
  EXPECT_NEAR(quarter, 0.25, 0.08);
  EXPECT_NEAR(three_quarters, 0.75, 0.1);
  EXPECT_LT(quarter, SnappyRatio(pool.data()));
  EXPECT_LT(SnappyRatio(pool.data()), three_quarters);
}

TEST(ValuePoolTest, RandomBytesAreIncompressibleAtRatioOne) {
  ValuePool pool(1.0, 7);
  EXPECT_GT(SnappyRatio(pool.data()), 0.9);
}

TEST(ValuePoolTest, CursorWrapsAndPoolHoldsLargeValues) {
  ValuePool pool(0.5, 301, 3 << 20);
  EXPECT_GE(pool.size(), 6u << 20);
  ValuePool::Cursor c(&pool);
  std::string_view first = c.Next(pool.size() / 2);
  std::string_view second = c.Next(pool.size() / 2);
  std::string_view third = c.Next(10);  // wraps to the start
  EXPECT_EQ(first.data(), pool.data().data());
  EXPECT_EQ(second.data(), pool.data().data() + pool.size() / 2);
  EXPECT_EQ(third.data(), pool.data().data());
}

TEST(ValuePoolTest, SameSeedSameBytes) {
  ValuePool a(0.5, 301), b(0.5, 301), c(0.5, 302);
  EXPECT_EQ(a.data(), b.data());
  EXPECT_NE(a.data(), c.data());
}

}  // namespace
}  // namespace disktune::bench
