#include "src/core/output_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/test_support.h"

namespace disktune {
namespace {
namespace fs = std::filesystem;

using testing::ReadFile;

// On the build tree's disk: user xattrs work there.
class OutputFileTest : public testing::WorkDirTest {
 protected:
  OutputFileTest() : WorkDirTest("output_test_") {}
};

TEST_F(OutputFileTest, WritesNewFilesAndReplacesOnlyItsOwn) {
  std::string p = work_ + "/out.json";
  ASSERT_TRUE(WriteOutputFile(p, "one", "--json").ok());
  EXPECT_EQ(ReadFile(p), "one");
  EXPECT_TRUE(WrittenByDisktune(p));
  ASSERT_TRUE(WriteOutputFile(p, "two", "--json").ok());
  EXPECT_EQ(ReadFile(p), "two");

  std::string user = work_ + "/user.txt";
  std::ofstream(user) << "user's";
  Status s = WriteOutputFile(user, "x", "--out");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("did not write it"), std::string::npos);
  EXPECT_EQ(ReadFile(user), "user's");
  EXPECT_FALSE(CheckOutputFile(user, "--out").ok());
  // No temporary file is left either way.
  int files = 0;
  for (const auto& e : fs::directory_iterator(work_)) {
    (void)e;
    files++;
  }
  EXPECT_EQ(files, 2);
}

TEST_F(OutputFileTest, SymlinkAtTheTargetIsNotFollowed) {
  std::string victim = work_ + "/victim";
  std::ofstream(victim) << "keep";
  fs::create_symlink(victim, work_ + "/link");
  EXPECT_FALSE(WriteOutputFile(work_ + "/link", "x", "--out").ok());
  EXPECT_EQ(ReadFile(victim), "keep");
}

TEST_F(OutputFileTest, FreshDirectoriesAreNumberedWhenTaken) {
  std::string base = work_ + "/disktune-run-x";
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
