// The "~Ns left" of the progress lines comes from the plan (plan_clock.h):
// on a real short probe and a real small bench, every line's elapsed + left
// is within 30% of the time the command actually took.
#include <gtest/gtest.h>

#include <chrono>
#include <regex>

#include "tests/binary_runner.h"
#include "tests/test_support.h"

namespace disktune::testing {
namespace {

struct Line {
  std::string text;
  double elapsed = 0, left = 0;
};

// "progress: [3/18] rand_read.4k.qd4: 5s elapsed, ~7s left" (a log's form:
// stderr is a pipe here).
std::vector<Line> EstimateLines(const std::string& err) {
  static const std::regex re(
      R"(progress: \[[0-9/]+\] [^\n]*: ([0-9]+)s elapsed, ~([0-9]+)s left)");
  std::vector<Line> out;
  for (std::sregex_iterator it(err.begin(), err.end(), re), end; it != end;
       ++it) {
    out.push_back({it->str(), std::stod((*it)[1]), std::stod((*it)[2])});
  }
  return out;
}

struct Timed {
  RunOutput out;
  double seconds = 0;
};

Timed RunTimed(const std::vector<std::string>& args, const std::string& cwd) {
  auto start = std::chrono::steady_clock::now();
  Timed t;
  t.out = RunDisktune(args, cwd);
  t.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return t;
}

// Each line's elapsed + left against the whole run. Lines are printed with
// whole seconds, so half a second each way is rounding, not error. Lines in
// the first `early_share` of the run may be off by `early_factor` (the
// caller says why).
void ExpectWithin30Percent(const Timed& t, double early_share = 0,
                           double early_factor = 1) {
  std::vector<Line> lines = EstimateLines(t.out.err);
  ASSERT_GE(lines.size(), 2u) << t.out.err;
  for (const Line& l : lines) {
    double predicted = l.elapsed + l.left;
    double slack = 1.0;  // the two roundings
    if (l.elapsed < early_share * t.seconds) {
      EXPECT_LE(predicted, t.seconds * early_factor + slack) << l.text;
      EXPECT_GE(predicted, t.seconds / early_factor - slack) << l.text;
      continue;
    }
    EXPECT_NEAR(predicted, t.seconds, 0.3 * t.seconds + slack)
        << l.text << " (the run took " << t.seconds << " s)";
  }
}

class ProgressEstimateTest : public WorkDirTest {
 protected:
  ProgressEstimateTest() : WorkDirTest("progress_estimate_test_") {}
};

// Block points are time-bound; the fsync points are bound by their sync
// count (1,000, and etcd's 10,029 for the 2300 B point), so their time is
// the disk's sync latency: the estimate must know it before they run.
TEST_F(ProgressEstimateTest, ProbeLinesAddUpToTheRun) {
  Timed t = RunTimed({"probe",           "--quick",
                      "--duration",      "300ms",
                      "--warmup",        "50ms",
                      "--file-size",     "32MiB",
                      "--fsync-methods", "fdatasync,fsync",
                      "--fsync-sizes",   "2300,4096",
                      "--fsync-modes",   "append,overwrite",
                      "--dir",           work_,
                      "--progress",      "always",
                      "--json",          work_ + "/r.json"},
                     work_);
  ASSERT_EQ(t.out.exit_code, 0) << t.out.err;
  // The first line comes before any point ran: its sync cost is the 32-sync
  // calibration alone, and on the shared development VM the sync latency
  // moves by half within a minute (one run's etcd point took 1.2 ms a sync,
  // the next 2.3 ms). Lines in the first 10% of the run may be off by 2x;
  // later ones rest on the points that ran and on the point's own pace.
  ExpectWithin30Percent(t, 0.10, 2.0);
}

// A bench's first line comes before anything ran on this machine: its
// rates are guesses (bench_clock.h), so the lines in the first 10% of the
// run may be off by 3x; from the second step on the rates are measured.
// --no-predict: the prediction's own measurements after the steps are not
// in the bench's plan.
TEST_F(ProgressEstimateTest, BenchLinesAddUpToTheRun) {
  Timed t = RunTimed(
      {"bench", "--engine", "leveldb", "--scenario",
       "fillseq,fillrandom,overwrite,readrandom,readseq", "--num", "700000",
       "--no-predict", "--dir", work_, "--progress", "always"},
      work_);
  ASSERT_EQ(t.out.exit_code, 0) << t.out.err;
  ExpectWithin30Percent(t, 0.10, 3.0);
}

}  // namespace
}  // namespace disktune::testing
