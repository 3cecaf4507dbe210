#include "src/bench/profile.h"

#include <gtest/gtest.h>

namespace disktune::bench {
namespace {

TEST(BenchProfileTest, ReadsWorkloadAndEngineOptions) {
  auto j = nlohmann::json::parse(R"({
    "profile_version": 1, "name": "utxo-node", "engine": "leveldb",
    "engine_options": {"cache_bytes": 8388608, "bloom_bits_per_key": 10,
                       "compression": "none", "max_open_files": 11000},
    "workload": {"scenarios": ["utxo"], "num": 5000, "threads": 8,
                 "value_size_bytes": 64}})");
  auto p = ParseBenchProfile(j);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->name, "utxo-node");
  EXPECT_EQ(p->engine, "leveldb");
  EXPECT_EQ(p->scenarios, std::vector<std::string>{"utxo"});
  EXPECT_EQ(p->overrides.num, 5000);
  EXPECT_EQ(p->overrides.threads, 8);
  EXPECT_EQ(p->overrides.value_size, 64);
  EXPECT_EQ(p->overrides.knobs.cache_bytes(), 8388608u);
  EXPECT_EQ(p->overrides.knobs.bloom_bits_per_key(), 10);
  EXPECT_EQ(p->overrides.knobs.compression(), Compression::kNone);
  EXPECT_EQ(p->overrides.knobs.max_open_files(), 11000);
}

TEST(BenchProfileTest, UnknownKeysVersionsAndBadValuesAreErrors) {
  auto typo = ParseBenchProfile(nlohmann::json::parse(
      R"({"profile_version": 1, "workload": {"thread": 4}})"));
  ASSERT_FALSE(typo.ok());
  EXPECT_NE(typo.status().message().find("unknown key 'thread'"),
            std::string::npos);
  EXPECT_FALSE(
      ParseBenchProfile(nlohmann::json::parse(R"({"name": "x"})")).ok());
  EXPECT_FALSE(
      ParseBenchProfile(nlohmann::json::parse(R"({"profile_version": 2})"))
          .ok());
  auto negative = ParseBenchProfile(nlohmann::json::parse(
      R"({"profile_version": 1, "workload": {"num": -3}})"));
  ASSERT_FALSE(negative.ok());
  EXPECT_NE(negative.status().message().find("got -3"), std::string::npos);
  EXPECT_FALSE(
      ParseBenchProfile(
          nlohmann::json::parse(
              R"({"profile_version": 1, "workload": {"num": "many"}})"))
          .ok());
  EXPECT_EQ(ReadBenchProfile("/nonexistent/p.json").status().code(),
            Status::Code::kNotFound);
}

}  // namespace
}  // namespace disktune::bench
