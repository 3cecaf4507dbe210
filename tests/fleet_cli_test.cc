// `disktune fleet` as an operator runs it, on copies of one real probe
// result from this machine (one made 20x slower): exit codes (0, 1 with
// --fail-on-outlier, 2 for bad input), the JSON against its schema, the
// HTML and Prometheus files, and a bad file skipped without losing the rest.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "reports/schema_validator.h"
#include "tests/binary_runner.h"
#include "tests/test_support.h"

namespace disktune::testing {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

class FleetCliTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    work_ = MakeTempDir(fs::temp_directory_path().string(), "fleet_cli_");
    ASSERT_FALSE(work_.empty());
    RunOutput r = RunDisktune(
        {"probe", "--quick", "--probes", "seq_read,rand_read,fsync",
         "--file-size", "16MiB", "--duration", "100ms", "--warmup", "20ms",
         "--queue-depths", "1,32", "--json", "real.json", "--quiet"},
        work_);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json real = json::parse(ReadFile(work_ + "/real.json"));
    fs::create_directory(work_ + "/results");
    for (const char* h : {"db-01", "db-02", "db-03", "db-04", "db-slow"}) {
      json j = real;
      j["environment"]["hostname"] = h;
      if (std::string(h) == "db-slow") {
        for (json& p : j["probes"]) {
          if (!p.contains("latency_ns")) continue;
          for (auto& [k, v] : p["latency_ns"].items()) {
            if (k != "samples" && v.is_number()) v = v.get<double>() * 20;
          }
          for (const char* rate : {"iops", "ops_per_sec", "bytes_per_sec"}) {
            if (p.contains(rate)) p[rate] = p[rate].get<double>() / 20;
          }
        }
      }
      std::ofstream(work_ + "/results/" + h + ".json") << j.dump();
    }
  }
  static void TearDownTestSuite() { fs::remove_all(work_); }
  static std::string work_;
};
std::string FleetCliTest::work_;

TEST_F(FleetCliTest, FlagsTheSlowHostInEveryFormat) {
  RunOutput r = RunDisktune(
      {"fleet", "results", "--json", "fleet.json", "--html", "fleet.html",
       "--prometheus", "fleet.prom", "--fail-on-outlier"},
      work_);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("db-slow: "), std::string::npos) << r.out;
  json j = json::parse(ReadFile(work_ + "/fleet.json"));
  json schema = json::parse(
      ReadFile(SourceDir() + "/reports/schema/fleet.v1.schema.json"));
  auto errors = ValidateAgainstSchema(schema, j);
  EXPECT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
  ASSERT_FALSE(j["outliers"].empty());
  for (const json& o : j["outliers"]) EXPECT_EQ(o["host"], "db-slow") << o;
  EXPECT_EQ(j["hosts"].size(), 5u);
  EXPECT_NE(ReadFile(work_ + "/fleet.prom").find("host=\"db-slow\""),
            std::string::npos);
  EXPECT_NE(ReadFile(work_ + "/fleet.html").find(">db-slow</text>"),
            std::string::npos);
  // Without the gate, finding an outlier is not an error.
  EXPECT_EQ(RunDisktune({"fleet", "results"}, work_).exit_code, 0);
}

TEST_F(FleetCliTest, ABadFileIsSkippedAndTheRestReported) {
  fs::create_directory(work_ + "/mixed");
  for (const char* h : {"db-01", "db-02", "db-03"}) {
    fs::copy_file(work_ + "/results/" + h + ".json",
                  work_ + "/mixed/" + h + ".json",
                  fs::copy_options::overwrite_existing);
  }
  std::ofstream(work_ + "/mixed/broken.json") << "{ not json";
  RunOutput r = RunDisktune({"fleet", "mixed", "--json", "-"}, work_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("skipping"), std::string::npos) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["hosts"].size(), 3u);
  ASSERT_EQ(j["skipped"].size(), 1u);
}

TEST_F(FleetCliTest, RefusesBadInputInOneLine) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"fleet", "no-such-dir"},
        std::vector<std::string>{"fleet", "results", "--min-ratio", "0.5"},
        std::vector<std::string>{"fleet", "results", "--min-hosts", "2"},
        std::vector<std::string>{"fleet", "results", "--group-by", "rack"}}) {
    RunOutput r = RunDisktune(args, work_);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(CountLines(r.err), 1) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
  fs::create_directory(work_ + "/empty");
  EXPECT_EQ(RunDisktune({"fleet", "empty"}, work_).exit_code, 2);
}

TEST_F(FleetCliTest, ProgressLinesInALog) {
  // stderr is a pipe here, as in an Ansible or nohup log.
  std::vector<std::string> probe = {"probe",      "--quick",        "--probes",
                                    "rand_read",  "--file-size",    "16MiB",
                                    "--duration", "100ms",          "--warmup",
                                    "20ms",       "--queue-depths", "1,2"};
  auto with = [&](const std::string& mode) {
    std::vector<std::string> a = probe;
    a.insert(a.end(), {"--progress", mode});
    return RunDisktune(a, work_);
  };
  RunOutput always = with("always");
  ASSERT_EQ(always.exit_code, 0) << always.err;
  EXPECT_NE(always.err.find("progress: [1/"), std::string::npos) << always.err;
  EXPECT_NE(always.err.find("s elapsed, ~"), std::string::npos);
  EXPECT_EQ(always.err.find('\r'), std::string::npos);
  RunOutput never = with("never");
  ASSERT_EQ(never.exit_code, 0) << never.err;
  EXPECT_EQ(never.err.find("progress:"), std::string::npos) << never.err;
  EXPECT_EQ(with("sometimes").exit_code, 2);
}

}  // namespace
}  // namespace disktune::testing
