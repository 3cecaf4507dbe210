#include "src/core/units.h"

#include <gtest/gtest.h>

namespace disktune {
namespace {

TEST(ParseSizeTest, BinaryAndDecimalUnits) {
  EXPECT_EQ(*ParseSize("4KiB"), 4096u);
  EXPECT_EQ(*ParseSize("1MiB"), 1048576u);
  EXPECT_EQ(*ParseSize("1GB"), 1000000000u);
  EXPECT_EQ(*ParseSize("128MB"), 128000000u);
  EXPECT_EQ(*ParseSize("512B"), 512u);
  EXPECT_EQ(*ParseSize("1.5KiB"), 1536u);
  EXPECT_EQ(*ParseSize("4k"), 4096u);
  EXPECT_EQ(*ParseSize("2 GiB"), 2147483648u);
  EXPECT_EQ(*ParseSize("1gib"), 1073741824u);
}

TEST(ParseSizeTest, RefusesBareNegativeAndGarbage) {
  EXPECT_FALSE(ParseSize("4096").ok());
  EXPECT_NE(ParseSize("4096").status().message().find("no unit"),
            std::string::npos);
  EXPECT_FALSE(ParseSize("-4KiB").ok());
  EXPECT_NE(ParseSize("-4KiB").status().message().find("negative"),
            std::string::npos);
  EXPECT_FALSE(ParseSize("").ok());
  EXPECT_FALSE(ParseSize("KiB").ok());
  EXPECT_FALSE(ParseSize("4XB").ok());
  EXPECT_FALSE(ParseSize("4b").ok());  // bits are not bytes
}

TEST(ParseDurationTest, Units) {
  EXPECT_EQ(*ParseDuration("500ms"), 500000000u);
  EXPECT_EQ(*ParseDuration("30s"), 30000000000u);
  EXPECT_EQ(*ParseDuration("2m"), 120000000000u);
  EXPECT_EQ(*ParseDuration("250us"), 250000u);
  EXPECT_EQ(*ParseDuration("1.5s"), 1500000000u);
  EXPECT_FALSE(ParseDuration("30").ok());
  EXPECT_FALSE(ParseDuration("-1s").ok());
  EXPECT_FALSE(
      ParseDuration("1S").ok());  // durations are case-sensitive: m vs M
  EXPECT_FALSE(ParseDuration("fast").ok());
}

TEST(FormatTest, HumanReadable) {
  EXPECT_EQ(FormatBytes(4096), "4 KiB");
  EXPECT_EQ(FormatBytes(1536), "1.5 KiB");
  EXPECT_EQ(FormatDuration(1250000), "1.25 ms");
  EXPECT_EQ(FormatRate(59.7e6), "59.7 MB/s");
}

}  // namespace
}  // namespace disktune
