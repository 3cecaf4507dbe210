// `disktune report`, `compare` and `check` as an operator runs them: outputs,
// exit codes (0 ok, 1 a failed gate, 2 bad input), one line per error, and
// nothing written when the input is bad.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/binary_runner.h"
#include "tests/test_support.h"

namespace disktune::testing {
namespace {
namespace fs = std::filesystem;

std::string Crafted() {
  return SourceDir() + "/reports/testdata/crafted_report.json";
}

class ReportsCliTest : public WorkDirTest {
 protected:
  ReportsCliTest()
      : WorkDirTest("reports_cli_", fs::temp_directory_path().string()) {}
  void SetUp() override {
    WorkDirTest::SetUp();
    if (HasFatalFailure()) return;
    nlohmann::json j = nlohmann::json::parse(ReadFile(Crafted()));
    Write("good.json", j.dump());
    Write("not_json.json", "{ this is not json");
    Write("array.json", "[1, 2, 3]");
    // The good result with one field changed.
    auto variant = [&](const std::string& name, const char* key,
                       const nlohmann::json& value) {
      nlohmann::json v = j;
      v[key] = value;
      Write(name, v.dump());
    };
    variant("other_schema.json", "schema", "fio.output");
    variant("major2.json", "schema_version", "2.0");
    variant("minor7.json", "schema_version", "1.7");
    variant("broken.json", "probes", "not a list");
    // B: the fillrandom bench 30% slower, outside its spread.
    nlohmann::json slower = j;
    for (auto& b : slower["benches"]) {
      if (b["engine"] == "leveldb" && b["scenario"] == "fillrandom") {
        b["metrics"]["ops_per_sec"] = 114800.0;
        b["repeats"]["ops_per_sec"] = {
            {"median", 114800.0},
            {"min", 110000.0},
            {"max", 118000.0},
            {"ci95_low", 110000.0},
            {"ci95_high", 118000.0},
            {"values", {110000.0, 114800.0, 118000.0}}};
      }
    }
    Write("slower.json", slower.dump());
    // The good result without rounds: what a run without --repeat writes.
    nlohmann::json single = j;
    for (auto& p : single["probes"]) p.erase("repeats");
    for (auto& b : single["benches"]) b.erase("repeats");
    Write("single.json", single.dump());
    // Every figure measured with other parameters (another duration and
    // value size): nothing in common to compare.
    nlohmann::json unlike = j;
    for (auto& p : unlike["probes"]) {
      if (p.contains("params")) p["params"]["duration_ns"] = 123456789;
    }
    for (auto& b : unlike["benches"]) b["params"]["value_size_bytes"] = 777;
    Write("unlike.json", unlike.dump());
  }
  void Write(const std::string& name, const std::string& text) {
    std::ofstream(work_ + "/" + name) << text;
  }
  std::string P(const std::string& name) { return work_ + "/" + name; }
  // The bad-input contract: exit 2, one line on stderr naming the problem,
  // nothing on stdout, no file created.
  void ExpectBadInput(const std::vector<std::string>& args,
                      const std::string& needle) {
    ExpectOneLineError(args, work_, 2, needle);
  }
};

TEST_F(ReportsCliTest, RendersEveryFormat) {
  RunOutput t = RunDisktune({"report", P("good.json")});
  EXPECT_EQ(t.exit_code, 0) << t.err;
  EXPECT_EQ(t.out,
            ReadFile(SourceDir() + "/reports/testdata/crafted_report.txt"));
  RunOutput md =
      RunDisktune({"report", P("good.json"), "--format", "markdown"});
  EXPECT_EQ(md.exit_code, 0);
  EXPECT_EQ(md.out,
            ReadFile(SourceDir() + "/reports/testdata/crafted_report.md"));
  RunOutput prom = RunDisktune({"report", P("good.json"), "--format",
                                "prometheus", "--out", P("disktune.prom")});
  EXPECT_EQ(prom.exit_code, 0) << prom.err;
  EXPECT_TRUE(prom.out.empty());
  EXPECT_EQ(ReadFile(P("disktune.prom")),
            ReadFile(SourceDir() + "/reports/testdata/crafted_report.prom"));
  EXPECT_FALSE(fs::exists(P("disktune.prom.tmp")));
  RunOutput html = RunDisktune({"report", P("good.json"), "--format", "html",
                                "--out", P("report.html")});
  EXPECT_EQ(html.exit_code, 0) << html.err;
  EXPECT_NE(ReadFile(P("report.html")).find("<svg"), std::string::npos);
  RunOutput html_stdout =
      RunDisktune({"report", P("good.json"), "--format", "html", "--out", "-"});
  EXPECT_EQ(html_stdout.exit_code, 0);
  EXPECT_EQ(html_stdout.out, ReadFile(P("report.html")));
  // A newer minor version of the same major is read.
  EXPECT_EQ(RunDisktune({"report", P("minor7.json")}).exit_code, 0);
}

TEST_F(ReportsCliTest, ReportRefusesBadInput) {
  ExpectBadInput({"report", P("missing.json")}, "missing.json");
  ExpectBadInput({"report", P("not_json.json")}, "is not valid JSON");
  ExpectBadInput({"report", P("array.json")}, "not a JSON object");
  ExpectBadInput({"report", P("other_schema.json")}, "not a disktune report");
  ExpectBadInput({"report", P("major2.json")},
                 "schema_version 2.0 is not supported");
  ExpectBadInput({"report", P("broken.json")}, "broken.json");
  ExpectBadInput({"report", P("good.json"), "--format", "pdf"},
                 "--format 'pdf' is not a format");
  ExpectBadInput({"report", P("good.json"), "--format", "html"},
                 "pass --out report.html");
  ExpectBadInput(
      {"report", P("missing.json"), "--format", "html", "--out", P("r.html")},
      "missing.json");
  ExpectBadInput({"report"}, "RESULT");
}

TEST_F(ReportsCliTest, CheckPassesFailsAndWritesAVerdict) {
  RunOutput pass = RunDisktune({"check", P("good.json"), "--require",
                                "fsync.fdatasync.2300.overwrite.p99 < 10ms",
                                "--require", "rand_read.4k.qd32.iops >= 300"});
  EXPECT_EQ(pass.exit_code, 0) << pass.out << pass.err;
  EXPECT_NE(pass.out.find("2 of 2 requirements met: PASS"), std::string::npos)
      << pass.out;

  RunOutput fail = RunDisktune({"check", P("good.json"), "--preset", "etcd",
                                "--json", P("verdict.json")});
  EXPECT_EQ(fail.exit_code, 1) << fail.err;
  EXPECT_NE(fail.out.find("FAIL"), std::string::npos);
  EXPECT_NE(fail.out.find("35.00 ms"), std::string::npos) << fail.out;
  nlohmann::json v = nlohmann::json::parse(ReadFile(P("verdict.json")));
  EXPECT_EQ(v["pass"], false);
  EXPECT_EQ(v["requirements"][0]["resolved"], "fsync.fdatasync.2300.prealloc");

  RunOutput both = RunDisktune(
      {"check", P("good.json"), "--preset", "etcd,leveldb-wal", "--json", "-"});
  EXPECT_EQ(both.exit_code, 1);
  nlohmann::json bj = nlohmann::json::parse(both.out);  // only JSON on stdout
  EXPECT_EQ(bj["requirements"].size(), 3u);
  EXPECT_NE(both.err.find("requirements met"), std::string::npos);

  RunOutput missing = RunDisktune({"check", P("good.json"), "--require",
                                   "fsync.fdatasync.65536.p99 < 10ms"});
  EXPECT_EQ(missing.exit_code, 1) << "an unmeasured requirement is not met";
  EXPECT_NE(missing.out.find("NOT MEASURED"), std::string::npos);

  RunOutput list = RunDisktune({"check", "--list-presets"});
  EXPECT_EQ(list.exit_code, 0);
  EXPECT_NE(list.out.find("leveldb-wal"), std::string::npos);
}

TEST_F(ReportsCliTest, CheckRefusesBadInput) {
  ExpectBadInput({"check", P("good.json"), "--require",
                  "fsync.fdatasync.2300.p99 < 10 xs", "--json", P("v.json")},
                 "--require 'fsync.fdatasync.2300.p99 < 10 xs': column 31: "
                 "unknown unit 'xs'");
  ExpectBadInput(
      {"check", P("good.json"), "--require", "fsync.fdatasync.2300.p99 < 10"},
      "column 30: 'p99' is a time");
  ExpectBadInput(
      {"check", P("good.json"), "--require", "rand_read.4k.qd32.p98 < 1ms"},
      "column 19: unknown metric 'p98'");
  ExpectBadInput({"check", P("good.json"), "--preset", "etc"},
                 "unknown preset 'etc'");
  ExpectBadInput({"check", P("good.json")}, "nothing to check");
  ExpectBadInput({"check", P("major2.json"), "--preset", "etcd"},
                 "schema_version 2.0");
  ExpectBadInput({"check", P("not_json.json"), "--preset", "etcd"},
                 "not valid JSON");
  ExpectBadInput({"check", "--preset", "etcd"}, "needs a RESULT.json");
}

TEST_F(ReportsCliTest, CompareGatesOnRegressions) {
  RunOutput same = RunDisktune(
      {"compare", P("good.json"), P("good.json"), "--fail-on-regression", "5"});
  EXPECT_EQ(same.exit_code, 0) << same.err;
  EXPECT_NE(same.out.find("0 regressions beyond 5.0%: PASS"), std::string::npos)
      << same.out;

  RunOutput informative =
      RunDisktune({"compare", P("good.json"), P("slower.json")});
  EXPECT_EQ(informative.exit_code, 0)
      << "without the gate a regression is reported, not failed";
  EXPECT_NE(informative.out.find("-30.0%"), std::string::npos)
      << informative.out;

  RunOutput gate =
      RunDisktune({"compare", P("good.json"), P("slower.json"),
                   "--fail-on-regression", "10", "--json", P("cmp.json")});
  EXPECT_EQ(gate.exit_code, 1) << gate.out << gate.err;
  EXPECT_NE(gate.out.find("REGRESSION"), std::string::npos);
  nlohmann::json j = nlohmann::json::parse(ReadFile(P("cmp.json")));
  EXPECT_EQ(j["regressions"], 1);

  EXPECT_EQ(RunDisktune({"compare", P("good.json"), P("slower.json"),
                         "--fail-on-regression", "40"})
                .exit_code,
            0);
}

// Two single runs cannot be gated (noise alone moves them past a small
// threshold), and results measured with other parameters have nothing to
// compare: both are refused with one line that says what to do.
TEST_F(ReportsCliTest, CompareRefusesToGateSingleRunsAndUnlikeRuns) {
  ExpectBadInput({"compare", P("single.json"), P("single.json"),
                  "--fail-on-regression", "10"},
                 "measure both with --repeat 3");
  RunOutput informative =
      RunDisktune({"compare", P("single.json"), P("single.json")});
  EXPECT_EQ(informative.exit_code, 0) << informative.err;
  ExpectBadInput({"compare", P("good.json"), P("unlike.json")},
                 "compare results made with the same flags");
}

TEST_F(ReportsCliTest, CompareRefusesBadInput) {
  ExpectBadInput({"compare", P("good.json"), P("major2.json")},
                 "schema_version 2.0");
  ExpectBadInput({"compare", P("other_schema.json"), P("good.json")},
                 "not a disktune report");
  ExpectBadInput({"compare", P("good.json"), P("missing.json")},
                 "missing.json");
  ExpectBadInput({"compare", P("good.json"), P("good.json"),
                  "--fail-on-regression", "-3", "--json", P("c.json")},
                 "--fail-on-regression must be a percent");
  ExpectBadInput({"compare", P("good.json")}, "B");
}

}  // namespace
}  // namespace disktune::testing
