// Shared by the reports tests: the crafted report under reports/testdata,
// golden-file comparison, and what a rendered text must or must not hold.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "src/model/report.h"

namespace disktune::testing {

inline std::string TestdataPath(const std::string& name) {
  return std::string(DISKTUNE_TEST_SOURCE_DIR) + "/reports/testdata/" + name;
}

inline std::string ReadFileOrEmpty(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The crafted report: every section filled, nothing from this machine.
inline Report CraftedReport() {
  Result<Report> r = ReadReportFile(TestdataPath("crafted_report.json"));
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : Report{};
}

// Compares `actual` with reports/testdata/<name>. DISKTUNE_UPDATE_GOLDEN=1
// rewrites the file instead (then review the diff before committing it).
inline void ExpectGolden(const std::string& name, const std::string& actual) {
  std::string path = TestdataPath(name);
  const char* update = std::getenv("DISKTUNE_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << actual;
    GTEST_SKIP() << "rewrote " << path;
  }
  std::string expected = ReadFileOrEmpty(path);
  ASSERT_FALSE(expected.empty())
      << path << " is missing; run with DISKTUNE_UPDATE_GOLDEN=1";
  if (expected != actual) {
    // Point at the first differing line rather than dumping both files.
    std::istringstream a(actual), e(expected);
    std::string la, le;
    int line = 1;
    while (true) {
      bool ga = static_cast<bool>(std::getline(a, la));
      bool ge = static_cast<bool>(std::getline(e, le));
      if (!ga && !ge) break;
      if (!ga || !ge || la != le) {
        ADD_FAILURE() << name << " differs at line " << line
                      << "\n  expected: " << le << "\n  actual:   " << la
                      << "\n(DISKTUNE_UPDATE_GOLDEN=1 rewrites it after a "
                         "deliberate change)";
        return;
      }
      line++;
    }
    ADD_FAILURE() << name << " differs (line endings?)";
  }
}

// Fails the test for each of `wanted` that `text` does not hold, naming it.
inline void ExpectHasAll(const std::string& text,
                         const std::vector<std::string>& wanted) {
  for (const std::string& w : wanted) {
    EXPECT_NE(text.find(w), std::string::npos) << "missing: " << w;
  }
}

// Fails the test for each of `unwanted` that `text` holds, naming it.
inline void ExpectHasNone(const std::string& text,
                          const std::vector<std::string>& unwanted) {
  for (const std::string& u : unwanted) {
    EXPECT_EQ(text.find(u), std::string::npos) << "present: " << u;
  }
}

}  // namespace disktune::testing
