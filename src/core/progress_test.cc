#include "src/core/progress.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

namespace disktune {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Counts the calls that would each be one write(2) on an unbuffered stderr.
class CountingBuf : public std::stringbuf {
 public:
  int puts = 0;

 protected:
  // The base xsputn may grow the buffer through overflow(): that is still
  // the one call the stream made, so only calls from outside count.
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    puts++;
    inside_ = true;
    std::streamsize done = std::stringbuf::xsputn(s, n);
    inside_ = false;
    return done;
  }
  int_type overflow(int_type c) override {
    if (!inside_) puts++;
    return std::stringbuf::overflow(c);
  }

 private:
  bool inside_ = false;
};

// A log reader (or another process writing to the same file) must never see
// half a line: every line, with its newline, is one write.
TEST(ProgressTest, EveryLineIsOneWrite) {
  for (bool tty : {false, true}) {
    CountingBuf buf;
    std::ostream err(&buf);
    TerminalProgress p(err, tty, /*quiet=*/false);
    p.Step("rand_read.4k.qd1", 0, 3, 30'000'000'000);
    EXPECT_EQ(buf.puts, 1) << "tty " << tty;
    p.Info("fillseq      :       1.377 micros/op;   80.1 MB/s");
    EXPECT_EQ(buf.puts, 2) << "tty " << tty;
    p.Warn("a warning");
    EXPECT_EQ(buf.puts, 3) << "tty " << tty;
  }
}

// A phase's lines count the phases after it; a line that knows nothing of
// the time left stays without an estimate.
TEST(ProgressTest, LaterPhasesAddToEachEstimate) {
  struct Last : ProgressSink {
    void Step(const std::string&, int, int, uint64_t ns) override { left = ns; }
    void Warn(const std::string&) override {}
    void Info(const std::string& l) override { info = l; }
    uint64_t left = 7;
    std::string info;
  } inner;
  LaterPhasesProgress p(&inner, 100);
  p.Step("a", 0, 3, 20);
  EXPECT_EQ(inner.left, 120u);
  p.Step("b", 4, 0, 0);  // a trial with no estimate
  EXPECT_EQ(inner.left, 0u);
  p.Info("line");
  EXPECT_EQ(inner.info, "line");
}

TEST(ProgressTest, ParsesTheThreeModes) {
  EXPECT_EQ(ParseProgressMode("auto"), ProgressMode::kAuto);
  EXPECT_EQ(ParseProgressMode("always"), ProgressMode::kAlways);
  EXPECT_EQ(ParseProgressMode("never"), ProgressMode::kNever);
  EXPECT_FALSE(ParseProgressMode("yes").has_value());
}

TEST(ProgressTest, ALogGetsPlainLinesAtMostOneEveryFewSeconds) {
  std::ostringstream err;
  {
    TerminalProgress p(err, /*is_terminal=*/false, /*quiet=*/false);
    p.Step("rand_read.4k.qd1", 0, 3, 30'000'000'000);
    // Within the interval: not printed.
    p.Step("rand_read.4k.qd4", 1, 3, 20'000'000'000);
    p.Info("an info line");
  }
  std::string s = err.str();
  EXPECT_EQ(s,
            "progress: [1/3] rand_read.4k.qd1: 0s elapsed, ~30s left\n"
            "an info line\n");
  EXPECT_THAT(s, Not(HasSubstr("\r")));
}

// The tuner does not know its number of trials in advance: no "/0" and no
// "~0s left".
TEST(ProgressTest, UnknownTotalsShowNoCountOfAndNoTimeLeft) {
  std::ostringstream err;
  {
    TerminalProgress p(err, /*is_terminal=*/false, /*quiet=*/false);
    p.Step("calibrate", 0, 0, 0);
  }
  EXPECT_EQ(err.str(), "progress: [1] calibrate: 0s elapsed\n");
}

TEST(ProgressTest, ATerminalGetsOneLineRewrittenInPlace) {
  std::ostringstream err;
  TerminalProgress p(err, /*is_terminal=*/true, /*quiet=*/false);
  p.Step("a", 0, 2, 2'000'000'000);
  p.Step("b", 1, 2, 1'000'000'000);
  p.Finish();
  EXPECT_THAT(err.str(), HasSubstr("[2/2] b"));
  EXPECT_THAT(err.str(), HasSubstr("\r\033[K"));
}

TEST(ProgressTest, QuietNeverAndAlways) {
  std::ostringstream quiet, never, always;
  TerminalProgress q(quiet, false, /*quiet=*/true);
  q.Step("a", 0, 1, 0);
  q.Warn("w");
  EXPECT_EQ(quiet.str(), "");
  TerminalProgress n(never, false, false, ProgressMode::kNever);
  n.Step("a", 0, 1, 0);
  n.Warn("w");
  EXPECT_EQ(never.str(), "warning: w\n");
  TerminalProgress a(always, false, /*quiet=*/true, ProgressMode::kAlways);
  a.Step("a", 0, 1, 0);
  a.Warn("w");
  EXPECT_EQ(always.str(), "progress: [1/1] a: 0s elapsed, ~0s left\n");
}

}  // namespace
}  // namespace disktune
