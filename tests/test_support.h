// What the tests share: a directory of their own for each test, reading a
// file back whole, and the one-line-error contract of a bad command line.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "src/core/scratch_dir.h"
#include "tests/binary_runner.h"

namespace disktune::testing {

// The whole file ("" when it cannot be read).
inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A new, empty directory `<parent>/<prefix>XXXXXX` (mkdtemp); "" when it
// cannot be made.
inline std::string MakeTempDir(const std::string& parent,
                               const std::string& prefix) {
  std::string tmpl = parent + "/" + prefix + "XXXXXX";
  if (mkdtemp(tmpl.data()) == nullptr) return "";
  return tmpl;
}

// A fixture whose every test gets a fresh directory, `work_`, removed after
// it. By default it is made in the current directory (the build tree's disk,
// where user xattrs work).
class WorkDirTest : public ::testing::Test {
 protected:
  explicit WorkDirTest(std::string prefix, std::string parent = "")
      : prefix_(std::move(prefix)), parent_(std::move(parent)) {}
  void SetUp() override {
    std::string parent =
        parent_.empty() ? std::filesystem::current_path().string() : parent_;
    work_ = MakeTempDir(parent, prefix_);
    ASSERT_FALSE(work_.empty()) << "cannot make a directory in " << parent;
  }
  void TearDown() override {
    std::error_code ec;
    if (!work_.empty()) std::filesystem::remove_all(work_, ec);
  }
  std::string work_;

 private:
  std::string prefix_, parent_;
};

// A WorkDirTest with a scratch directory made inside `work_` the way a run
// makes one in --dir.
class ScratchDirTest : public WorkDirTest {
 protected:
  using WorkDirTest::WorkDirTest;
  void SetUp() override {
    WorkDirTest::SetUp();
    if (HasFatalFailure()) return;
    auto s = ScratchDir::Create(work_);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    scratch_ = std::move(*s);
  }
  void TearDown() override {
    scratch_.reset();
    WorkDirTest::TearDown();
  }
  std::unique_ptr<ScratchDir> scratch_;
};

// Every file and directory under `dir`, relative to it, sorted.
inline std::vector<std::string> ListTree(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir, ec)) {
    out.push_back(std::filesystem::relative(e.path(), dir).string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// For ExpectOneLineError: any exit code but 0.
constexpr int kAnyFailure = -1;

// Runs `args` in `dir` and checks the bad-input contract: exit `code` (or
// any failure), one line on stderr naming the problem (`needle`), nothing on
// stdout, and nothing created or removed under `dir`.
inline void ExpectOneLineError(const std::vector<std::string>& args,
                               const std::string& dir, int code,
                               const std::string& needle) {
  auto before = ListTree(dir);
  RunOutput r = RunDisktune(args, dir);
  if (code == kAnyFailure) {
    EXPECT_NE(r.exit_code, 0) << r.err;
  } else {
    EXPECT_EQ(r.exit_code, code) << r.err;
  }
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(ListTree(dir), before) << "left something behind in " << dir;
}

}  // namespace disktune::testing
