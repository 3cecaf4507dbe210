#include "src/core/output_file.h"

#include <gtest/gtest.h>
#include <sys/xattr.h>

#include <cstdlib>
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

// The mark is bound to the file written: `cp -a` carries the attribute to a
// new inode, and an edit changes the bytes; both are a user's file now.
TEST_F(OutputFileTest, ACopyOrAnEditedResultIsNotDisktunes) {
  std::string p = work_ + "/r.json";
  ASSERT_TRUE(WriteOutputFile(p, "{\"a\": 1}\n", "--json").ok());
  ASSERT_TRUE(WrittenByDisktune(p));
  std::string copy = work_ + "/kept.json";
  ASSERT_EQ(system(("cp -a " + p + " " + copy).c_str()), 0);
  char v[128] = {};
  ASSERT_GT(getxattr(copy.c_str(), kOutputMark, v, sizeof(v)), 0)
      << "cp -a did not carry the attribute; the case is not tried";
  EXPECT_FALSE(WrittenByDisktune(copy));
  Status s = WriteOutputFile(copy, "new", "--json");
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("did not write it"), std::string::npos);
  EXPECT_EQ(ReadFile(copy), "{\"a\": 1}\n");

  // Edited in place (same inode, attribute kept).
  { std::ofstream(p, std::ios::in | std::ios::out) << "{\"a\": 2}"; }
  EXPECT_FALSE(WrittenByDisktune(p));
  EXPECT_FALSE(WriteOutputFile(p, "new", "--json").ok());
  // An old-style mark ("1") is not trusted either.
  std::string old = work_ + "/old.json";
  std::ofstream(old) << "x";
  ASSERT_EQ(setxattr(old.c_str(), kOutputMark, "1", 1, 0), 0);
  EXPECT_FALSE(WrittenByDisktune(old));
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
