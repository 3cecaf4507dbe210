#include "src/core/number_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace disktune {
namespace {

TEST(NumberTextTest, FixedIsPrintfWithDecimals) {
  EXPECT_EQ(Fixed(1.853, 3), "1.853");
  EXPECT_EQ(Fixed(1.855, 0), "2");
  EXPECT_EQ(Fixed(0.25, 1), "0.2");  // printf rounds half to even here
  EXPECT_EQ(Fixed(-3.14159, 2), "-3.14");
}

TEST(NumberTextTest, ThousandsOfIntegersIsExact) {
  EXPECT_EQ(Thousands(uint64_t{0}), "0");
  EXPECT_EQ(Thousands(uint64_t{999}), "999");
  EXPECT_EQ(Thousands(uint64_t{1000}), "1,000");
  EXPECT_EQ(Thousands(uint64_t{1234567}), "1,234,567");
  // Past 2^53 a double would lose the last digit.
  EXPECT_EQ(Thousands(uint64_t{18446744073709551615u}),
            "18,446,744,073,709,551,615");
}

TEST(NumberTextTest, ThousandsOfDoublesRoundsAndKeepsTheSign) {
  EXPECT_EQ(Thousands(4030000.4), "4,030,000");
  EXPECT_EQ(Thousands(999.5), "1,000");
  EXPECT_EQ(Thousands(-1234.6), "-1,235");
  EXPECT_EQ(Thousands(-0.3), "0");
  EXPECT_EQ(Thousands(std::numeric_limits<double>::quiet_NaN()), "-");
  EXPECT_EQ(Thousands(std::numeric_limits<double>::infinity()), "-");
}

TEST(NumberTextTest, SignedPercentAlwaysShowsTheSign) {
  EXPECT_EQ(SignedPercent(3.24), "+3.2%");
  EXPECT_EQ(SignedPercent(-12), "-12.0%");
  EXPECT_EQ(SignedPercent(0), "+0.0%");
}

TEST(NumberTextTest, RatiosAndGains) {
  EXPECT_EQ(RatioText(1.234), "1.23x");
  EXPECT_EQ(RatioText(0.9), "0.90x");
  EXPECT_EQ(GainText(1.234, 1.05, 1.4), "1.23x [1.05x, 1.40x]");
}

}  // namespace
}  // namespace disktune
