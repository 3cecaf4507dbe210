#include "src/core/scratch_dir.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/test_support.h"

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

TEST_F(ScratchDirTest, FreshDirectoryInsideAnExistingOneIsRemovedAtTheEnd) {
  std::ofstream(root_ + "/old.txt") << "operator's file";
  std::string path;
  {
    auto dir = ScratchDir::Create(root_);
    ASSERT_TRUE(dir.ok()) << dir.status().ToString();
    path = (*dir)->path();
    EXPECT_EQ(fs::path(path).parent_path(), fs::path(root_));
    EXPECT_EQ(fs::path(path).filename().string().rfind("disktune-", 0), 0u);
    EXPECT_FALSE((*dir)->created_parent());
    std::ofstream((*dir)->Join("probe.dat")) << "x";
    fs::create_directory((*dir)->Join("db"));
    std::ofstream((*dir)->Join("db/table")) << "y";
    // Another program writes beside the scratch during the run.
    std::ofstream(root_ + "/other_app.log") << "mine";
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(fs::exists(root_ + "/old.txt"));
  EXPECT_TRUE(fs::exists(root_ + "/other_app.log"));
}

TEST_F(ScratchDirTest, UsersFilesUnderDisktuneNamesAreNeverTouched) {
  // Files a user keeps in --dir under the names disktune gives its files.
  for (const char* n : {"probe.dat", "fsync-append.dat", ".disktune.lock"})
    std::ofstream(root_ + "/" + n) << "user data";
  fs::create_directories(root_ + "/bench/leveldb");
  std::ofstream(root_ + "/bench/leveldb/CURRENT") << "user data";
  {
    auto dir = ScratchDir::Create(root_);
    ASSERT_TRUE(dir.ok()) << dir.status().ToString();
    std::ofstream((*dir)->Join("probe.dat")) << "scratch";
  }
  for (const char* n : {"probe.dat", "fsync-append.dat", ".disktune.lock",
                        "bench/leveldb/CURRENT"}) {
    std::ifstream in(root_ + "/" + n);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    EXPECT_EQ(text, "user data") << n;
  }
}

TEST_F(ScratchDirTest, TwoRunsInOneDirectoryGetTheirOwnScratch) {
  auto a = ScratchDir::Create(root_);
  auto b = ScratchDir::Create(root_);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE((*a)->path(), (*b)->path());
  std::ofstream((*a)->Join("f")) << "a";
  std::string a_path = (*a)->path();
  b->reset();
  EXPECT_TRUE(fs::exists(a_path + "/f")) << "b's cleanup touched a's scratch";
}

TEST_F(ScratchDirTest, MissingDirIsCreatedAndRemovedWhenEmpty) {
  std::string p = root_ + "/new/";  // a trailing slash is fine
  {
    auto dir = ScratchDir::Create(p);
    ASSERT_TRUE(dir.ok()) << dir.status().ToString();
    EXPECT_TRUE((*dir)->created_parent());
    EXPECT_TRUE(fs::is_directory(root_ + "/new"));
  }
  EXPECT_FALSE(fs::exists(root_ + "/new"));
  // Kept when someone else put a file in it meanwhile.
  {
    auto dir = ScratchDir::Create(root_ + "/new2");
    ASSERT_TRUE(dir.ok());
    std::ofstream(root_ + "/new2/theirs") << "x";
  }
  EXPECT_TRUE(fs::exists(root_ + "/new2/theirs"));
}

TEST_F(ScratchDirTest, CleanupDoesNotFollowSymlinksOrRenamedDirectories) {
  std::string outside = root_ + "/outside";
  fs::create_directory(outside);
  std::ofstream(outside + "/precious") << "x";
  {
    auto dir = ScratchDir::Create(root_);
    ASSERT_TRUE(dir.ok());
    fs::create_directory_symlink(outside, (*dir)->Join("link"));
  }
  EXPECT_TRUE(fs::exists(outside + "/precious"));
  // The scratch renamed away and the name taken by a user's directory.
  std::string moved = root_ + "/moved";
  {
    auto dir = ScratchDir::Create(root_);
    ASSERT_TRUE(dir.ok());
    std::string p = (*dir)->path();
    fs::rename(p, moved);
    fs::create_directory(p);
    std::ofstream(p + "/users") << "x";
    (*dir)->Remove();
    EXPECT_TRUE(fs::exists(p + "/users"));
    fs::remove_all(p);
  }
}

TEST_F(ScratchDirTest, MissingParentIsOneClearError) {
  auto dir = ScratchDir::Create(root_ + "/no/such/parent");
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.status().message().find("parent directory"), std::string::npos);
  EXPECT_NE(dir.status().message().find("does not exist"), std::string::npos);
  EXPECT_FALSE(fs::exists(root_ + "/no"));
}

TEST_F(ScratchDirTest, DanglingSymlinkIsNamed) {
  fs::create_symlink(root_ + "/gone", root_ + "/link");
  auto dir = ScratchDir::Create(root_ + "/link");
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.status().message().find("symbolic link"), std::string::npos)
      << dir.status().message();
  EXPECT_FALSE(fs::exists(root_ + "/gone"));
}

TEST_F(ScratchDirTest, FileIsNotADirectory) {
  std::ofstream(root_ + "/f") << "x";
  auto dir = ScratchDir::Create(root_ + "/f");
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.status().message().find("is a file"), std::string::npos);
  EXPECT_TRUE(fs::exists(root_ + "/f"));
}

TEST_F(ScratchDirTest, ReadOnlyDirectoryRefused) {
  if (geteuid() == 0) GTEST_SKIP() << "root bypasses directory permissions";
  std::string ro = root_ + "/ro";
  fs::create_directory(ro);
  chmod(ro.c_str(), 0555);
  auto dir = ScratchDir::Create(ro);
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.status().message().find("not writable"), std::string::npos);
  chmod(ro.c_str(), 0755);
}

TEST_F(ScratchDirTest, FreeSpaceCheck) {
  auto dir = ScratchDir::Create(root_ + "/w");
  ASSERT_TRUE(dir.ok());
  EXPECT_TRUE((*dir)->RequireFreeSpace(1, "probe file").ok());
  Status s = (*dir)->RequireFreeSpace(uint64_t{1} << 60, "probe file");
  EXPECT_EQ(s.code(), Status::Code::kNoSpace);
  EXPECT_NE(s.message().find("probe file needs"), std::string::npos);
}

// The directory is 0700, its files 0600, and every file is reached through
// the handle: a swap of the name during the run steers nothing.
TEST_F(ScratchDirTest, FilesAreMadeThroughTheHandleNotTheName) {
  auto dir = ScratchDir::Create(root_);
  ASSERT_TRUE(dir.ok()) << dir.status().ToString();
  ScratchDir& d = **dir;
  struct stat st {};
  ASSERT_EQ(stat(d.path().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0700u);

  Result<int> fd = d.CreateFile("a.dat", O_WRONLY);
  ASSERT_TRUE(fd.ok()) << fd.status().ToString();
  ASSERT_EQ(fstat(*fd, &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  close(*fd);
  // Created exclusively: an existing name (or a link) is an error.
  EXPECT_FALSE(d.CreateFile("a.dat", O_WRONLY).ok());
  std::string victim = root_ + "/victim";
  std::ofstream(victim) << "precious";
  fs::create_symlink(victim, d.Join("link"));
  EXPECT_FALSE(d.CreateFile("link", O_WRONLY | O_TRUNC).ok());
  EXPECT_FALSE(d.OpenFile("link", O_WRONLY | O_TRUNC).ok());
  EXPECT_EQ(testing::ReadFile(victim), "precious");

  // Renamed away, and a user's directory with a planted link in its place.
  std::string p = d.path();
  std::string moved = root_ + "/moved";
  fs::rename(p, moved);
  fs::create_directory(p);
  fs::create_symlink(victim, p + "/b.dat");
  fd = d.CreateFile("b.dat", O_WRONLY);
  ASSERT_TRUE(fd.ok()) << fd.status().ToString();
  close(*fd);
  EXPECT_TRUE(fs::exists(moved + "/b.dat"));
  // The handle path reaches the directory created, not the name.
  std::ofstream(d.HandlePath("c.dat")) << "through the handle";
  EXPECT_EQ(testing::ReadFile(moved + "/c.dat"), "through the handle");
  EXPECT_FALSE(fs::exists(p + "/c.dat"));
  EXPECT_TRUE(d.MakeSubdir("sub").ok());
  EXPECT_TRUE(fs::is_directory(moved + "/sub"));
  EXPECT_TRUE(d.Unlink("b.dat").ok());
  EXPECT_FALSE(fs::exists(moved + "/b.dat"));
  EXPECT_TRUE(fs::is_symlink(p + "/b.dat"));
  d.RemoveTree("sub");
  EXPECT_FALSE(fs::exists(moved + "/sub"));
  d.Remove();
  EXPECT_EQ(testing::ReadFile(victim), "precious");
  EXPECT_TRUE(fs::is_empty(moved));
  EXPECT_NE(d.leftover().find("renamed or replaced"), std::string::npos);
  fs::remove_all(p);
  fs::remove_all(moved);
}

}  // namespace
}  // namespace disktune
