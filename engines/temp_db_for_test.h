// For engine tests: a mkdtemp'd directory under ::testing::TempDir(), removed
// with everything in it; db() is where an engine opens its database.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace disktune::testing {

class TempDb {
 public:
  explicit TempDb(const std::string& prefix = "disktune_engine_test") {
    std::string pattern =
        (std::filesystem::path(::testing::TempDir()) / (prefix + "_XXXXXX"))
            .string();
    if (mkdtemp(pattern.data()) != nullptr) root_ = pattern;
  }
  ~TempDb() {
    std::error_code ec;
    if (!root_.empty()) std::filesystem::remove_all(root_, ec);
  }
  TempDb(const TempDb&) = delete;
  TempDb& operator=(const TempDb&) = delete;
  std::string db() const { return root_ + "/db"; }

 private:
  std::string root_;
};

}  // namespace disktune::testing
