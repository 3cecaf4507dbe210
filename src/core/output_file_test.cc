#include "src/core/output_file.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace disktune {
namespace {
namespace fs = std::filesystem;

std::string Slurp(const std::string& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class OutputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // On the build tree's disk: user xattrs work there.
    std::string tmpl = fs::current_path().string() + "/output_test_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string root_;
};

TEST_F(OutputFileTest, WritesNewFilesAndReplacesOnlyItsOwn) {
  std::string p = root_ + "/out.json";
  ASSERT_TRUE(WriteOutputFile(p, "one", "--json").ok());
  EXPECT_EQ(Slurp(p), "one");
  EXPECT_TRUE(WrittenByDisktune(p));
  ASSERT_TRUE(WriteOutputFile(p, "two", "--json").ok());
  EXPECT_EQ(Slurp(p), "two");

  std::string user = root_ + "/user.txt";
  std::ofstream(user) << "user's";
  Status s = WriteOutputFile(user, "x", "--out");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("did not write it"), std::string::npos);
  EXPECT_EQ(Slurp(user), "user's");
  EXPECT_FALSE(CheckOutputFile(user, "--out").ok());
  // No temporary file is left either way.
  int files = 0;
  for (const auto& e : fs::directory_iterator(root_)) {
    (void)e;
    files++;
  }
  EXPECT_EQ(files, 2);
}

TEST_F(OutputFileTest, SymlinkAtTheTargetIsNotFollowed) {
  std::string victim = root_ + "/victim";
  std::ofstream(victim) << "keep";
  fs::create_symlink(victim, root_ + "/link");
  EXPECT_FALSE(WriteOutputFile(root_ + "/link", "x", "--out").ok());
  EXPECT_EQ(Slurp(victim), "keep");
}

TEST_F(OutputFileTest, FreshDirectoriesAreNumberedWhenTaken) {
  std::string base = root_ + "/disktune-run-x";
  auto a = CreateFreshDirectory(base, true, "--out");
  auto b = CreateFreshDirectory(base, true, "--out");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, base);
  EXPECT_EQ(*b, base + "-2");
  auto c = CreateFreshDirectory(base, false, "--out");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("already exists"), std::string::npos);
}

}  // namespace
}  // namespace disktune
