#include "src/core/scratch_dir.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace disktune {
namespace {
namespace fs = std::filesystem;

class ScratchDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = ::testing::TempDir() + "scratch_test_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string root_;
};

TEST_F(ScratchDirTest, CreatesLocksAndRemovesWhatItCreated) {
  std::string p = root_ + "/work";
  {
    auto dir = ScratchDir::Open(p);
    ASSERT_TRUE(dir.ok()) << dir.status().ToString();
    EXPECT_TRUE((*dir)->created());
    std::ofstream((*dir)->Join("data")) << "x";
    fs::create_directory((*dir)->Join("db"));
    std::ofstream((*dir)->Join("db/table")) << "y";
    // A second run on the same directory is refused while the first holds it.
    auto second = ScratchDir::Open(p);
    ASSERT_FALSE(second.ok());
    EXPECT_EQ(second.status().code(), Status::Code::kBusy);
    EXPECT_NE(second.status().message().find("another disktune run"),
              std::string::npos);
    EXPECT_TRUE(
        fs::exists((*dir)->Join("data")));  // the refused run removed nothing
  }
  EXPECT_FALSE(fs::exists(p));
}

TEST_F(ScratchDirTest, AdoptsExistingDirectoryAndKeepsItsFiles) {
  std::ofstream(root_ + "/mine") << "operator's file";
  {
    auto dir = ScratchDir::Open(root_);
    ASSERT_TRUE(dir.ok()) << dir.status().ToString();
    EXPECT_FALSE((*dir)->created());
    std::ofstream((*dir)->Join("probe.dat")) << "x";
  }
  EXPECT_TRUE(fs::exists(root_ + "/mine"));
  EXPECT_FALSE(fs::exists(root_ + "/probe.dat"));
  EXPECT_FALSE(fs::exists(root_ + "/.disktune.lock"));
}

TEST_F(ScratchDirTest, MissingParentIsOneClearError) {
  auto dir = ScratchDir::Open(root_ + "/no/such/parent");
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.status().message().find("parent directory"), std::string::npos);
  EXPECT_NE(dir.status().message().find("does not exist"), std::string::npos);
  EXPECT_FALSE(fs::exists(root_ + "/no"));
}

TEST_F(ScratchDirTest, FileIsNotADirectory) {
  std::ofstream(root_ + "/f") << "x";
  auto dir = ScratchDir::Open(root_ + "/f");
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.status().message().find("is a file"), std::string::npos);
  EXPECT_TRUE(fs::exists(root_ + "/f"));
}

TEST_F(ScratchDirTest, ReadOnlyDirectoryRefused) {
  if (geteuid() == 0) GTEST_SKIP() << "root bypasses directory permissions";
  std::string ro = root_ + "/ro";
  fs::create_directory(ro);
  chmod(ro.c_str(), 0555);
  auto dir = ScratchDir::Open(ro);
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.status().message().find("not writable"), std::string::npos);
  chmod(ro.c_str(), 0755);
}

TEST_F(ScratchDirTest, FreeSpaceCheck) {
  auto dir = ScratchDir::Open(root_ + "/w");
  ASSERT_TRUE(dir.ok());
  EXPECT_TRUE((*dir)->RequireFreeSpace(1, "probe file").ok());
  Status s = (*dir)->RequireFreeSpace(uint64_t{1} << 60, "probe file");
  EXPECT_EQ(s.code(), Status::Code::kNoSpace);
  EXPECT_NE(s.message().find("probe file needs"), std::string::npos);
}

TEST(RemoveTreeUnderTest, RefusesOutsideRoot) {
  EXPECT_FALSE(RemoveTreeUnder("/tmp/a", "/tmp/b").ok());
  EXPECT_FALSE(RemoveTreeUnder("/tmp/a", "/tmp/a").ok());
  EXPECT_FALSE(RemoveTreeUnder("/tmp/a", "/tmp/a/../b").ok());
}

}  // namespace
}  // namespace disktune
