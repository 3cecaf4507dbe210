#include "src/core/json_input.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

namespace disktune {
namespace {
namespace fs = std::filesystem;

TEST(JsonInputTest, PathsRoundTripThroughTheirJsonForm) {
  for (std::string p :
       {std::string("/plain/path"), std::string("/caf\xc3\xa9/x"),
        std::string("/bad\xff\xfe/x"), std::string("/back\\slash\\x41"),
        std::string("/over\xc0\xaflong")}) {
    std::string j = PathToJson(p);
    EXPECT_TRUE(IsValidUtf8(j)) << j;
    EXPECT_EQ(PathFromJson(j), p) << j;
    // And it serialises.
    EXPECT_NO_THROW((void)nlohmann::json(j).dump());
  }
  EXPECT_EQ(PathToJson("/a\xff"), "/a\\xff");
  EXPECT_EQ(PathToJson("/caf\xc3\xa9"), "/caf\xc3\xa9");
}

TEST(JsonInputTest, DumpNeverThrowsOnBadUtf8) {
  nlohmann::json j = {{"x", std::string("\xff")}};
  EXPECT_NO_THROW((void)DumpJson(j));
}

TEST(JsonInputTest, DepthLimit) {
  std::string deep(200, '[');
  auto r = ParseJsonInput(deep, "x");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("nests deeper"), std::string::npos);
  EXPECT_TRUE(ParseJsonInput("[[[[1]]]]", "x").ok());
}

TEST(JsonInputTest, OnlyRegularFilesOfBoundedSize) {
  std::string tmpl = ::testing::TempDir() + "json_input_XXXXXX";
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  std::string fifo = tmpl + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  auto r = ReadJsonInput(fifo, "result file");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("a FIFO"), std::string::npos);
  r = ReadJsonInput("/dev/zero", "result file");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("character device"), std::string::npos);
  std::string big = tmpl + "/big.json";
  std::ofstream(big) << "[" << std::string(2000, ' ') << "]";
  JsonInputLimits small;
  small.max_bytes = 1000;
  r = ReadJsonInput(big, "result file", small);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("more than the 1000"), std::string::npos);
  EXPECT_TRUE(ReadJsonInput(big, "result file").ok());
  r = ReadJsonInput(tmpl + "/missing.json", "result file");
  EXPECT_NE(r.status().message().find("does not exist"), std::string::npos);
  fs::remove_all(tmpl);
}

TEST(JsonInputTest, TypeErrorsNameTheField) {
  nlohmann::json j = nlohmann::json::parse(R"({"a": {"b": [1, "x"]}})");
  try {
    (void)j["a"]["b"][1].get<int>();
    FAIL();
  } catch (const nlohmann::json::exception& e) {
    std::string m = DescribeJsonError(e);
    EXPECT_EQ(m.rfind("/a/b/1: ", 0), 0u) << m;
  }
  Result<int> r = GuardJson("f.json", [&]() -> Result<int> {
    return j.at("a").at("b").at(1).get<int>();
  });
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("f.json: /a/b/1"), std::string::npos)
      << r.status().message();
}

}  // namespace
}  // namespace disktune
