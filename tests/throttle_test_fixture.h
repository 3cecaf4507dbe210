// The fixture of the CLI tests that make a device class (a loop device,
// its mount, the class's cgroup) under a temporary directory: the directory
// and a journal of their own, `disktune restore` after each test, the
// reason a class cannot be made here, and the check that nothing of one is
// left.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

#include "probes/cgroup_throttle.h"
#include "probes/durability_test_util.h"
#include "tests/binary_runner.h"

namespace disktune::testing_util {

class ThrottleTest : public ::testing::Test {
 protected:
  // `name` prefixes the temporary directory ("exec_cli_test").
  explicit ThrottleTest(std::string name) : name_(std::move(name)) {}

  void SetUp() override {
    dir_ = MakeTempDir(name_);
    ASSERT_FALSE(dir_.empty());
    setenv("DISKTUNE_JOURNAL", (dir_ + "/journal.json").c_str(), 1);
  }
  void TearDown() override {
    (void)testing::RunDisktune({"restore"});
    unsetenv("DISKTUNE_JOURNAL");
    std::filesystem::remove_all(dir_);
  }
  // Why a class cannot be made here ("" when it can): root, loop devices
  // and cgroup v1 blkio are needed.
  std::string SkipReason() const {
    std::string why = LoopSkipReason();
    if (!why.empty()) return why;
    if (FindCgroupMounts().v1_blkio.empty())
      return "cgroup v1 blkio is not mounted";
    return "";
  }
  // The class's cgroup `cgroup_dir` is gone, and so are the mount, the loop
  // device, the scratch directory and the journal's entries.
  void ExpectClassGone(const std::string& cgroup_dir) {
    namespace fs = std::filesystem;
    EXPECT_FALSE(fs::exists(cgroup_dir)) << cgroup_dir;
    EXPECT_FALSE(MountsMention(dir_));
    EXPECT_FALSE(LoopsMention(dir_));
    EXPECT_FALSE(fs::exists(dir_ + "/scratch"));
    EXPECT_FALSE(fs::exists(dir_ + "/journal.json"));
  }

  std::string dir_;

 private:
  std::string name_;
};

}  // namespace disktune::testing_util
