// Verdicts an operator gates a deployment on, against the built binary:
// check and compare JSON validate against their schemas, a percentile on
// too few samples is INSUFFICIENT with exit 3 (never PASS), and the etcd
// check is one figure in check, the run's analyses, text and Prometheus.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "reports/schema_validator.h"
#include "tests/binary_runner.h"
#include "tests/test_support.h"

namespace disktune::testing {
namespace {
namespace fs = std::filesystem;

nlohmann::json Schema(const std::string& name) {
  return nlohmann::json::parse(
      ReadFile(SourceDir() + "/reports/schema/" + name));
}

class VerdictTest : public WorkDirTest {
 protected:
  VerdictTest() : WorkDirTest("verdict_test_") {}
  std::string P(const std::string& name) { return work_ + "/" + name; }
};

TEST_F(VerdictTest, CheckAndCompareJsonMatchTheirSchemas) {
  std::string crafted = SourceDir() + "/reports/testdata/crafted_report.json";
  RunOutput c = RunDisktune({"check", crafted, "--preset", "etcd,leveldb-wal",
                             "--require", "rand_read.4k.qd32.iops >= 300",
                             "--json", P("check.json")});
  EXPECT_EQ(c.exit_code, 1) << c.err;
  nlohmann::json cj = nlohmann::json::parse(ReadFile(P("check.json")));
  EXPECT_EQ(ValidateAgainstSchema(Schema("check.v1.schema.json"), cj),
            std::vector<std::string>{});
  EXPECT_EQ(cj["verdict"], "fail");

  RunOutput m =
      RunDisktune({"compare", crafted, crafted, "--json", P("compare.json")});
  EXPECT_EQ(m.exit_code, 0) << m.err;
  nlohmann::json mj = nlohmann::json::parse(ReadFile(P("compare.json")));
  EXPECT_EQ(ValidateAgainstSchema(Schema("compare.v1.schema.json"), mj),
            std::vector<std::string>{});
}

// A short real probe: its p99.9 rests on far fewer than 10,000 syncs, so a
// requirement on it is INSUFFICIENT (exit 3), whichever side it falls on;
// the etcd point issues etcd's 10,029 syncs, so its p99 has a verdict.
TEST_F(VerdictTest, TooFewSamplesIsInsufficientNeverPass) {
  RunOutput p =
      RunDisktune({"probe", "--probes", "fsync", "--fsync-methods", "fdatasync",
                   "--fsync-sizes", "2300,4096", "--fsync-modes",
                   "append,prealloc", "--duration", "200ms", "--warmup", "0s",
                   "--dir", work_, "--json", P("r.json")},
                  work_);
  ASSERT_EQ(p.exit_code, 0) << p.err;
  nlohmann::json r = nlohmann::json::parse(ReadFile(P("r.json")));
  uint64_t etcd_syncs = 0, grown_syncs = 0, other_syncs = 0;
  for (const auto& pr : r["probes"]) {
    if (pr["name"] == "fsync.fdatasync.2300.prealloc")
      etcd_syncs = pr["latency_ns"]["samples"];
    if (pr["name"] == "fsync.fdatasync.2300.append")
      grown_syncs = pr["latency_ns"]["samples"];
    if (pr["name"] == "fsync.fdatasync.4096.append")
      other_syncs = pr["latency_ns"]["samples"];
  }
  EXPECT_GE(etcd_syncs, 10029u) << "the etcd point issues etcd's sync count";
  EXPECT_GE(grown_syncs, 10029u) << "so does the same write to a growing log";
  ASSERT_LT(other_syncs, 10000u);

  RunOutput c = RunDisktune({"check", P("r.json"), "--require",
                             "fsync.fdatasync.4096.append.p999 < 1h", "--json",
                             P("c.json")});
  EXPECT_EQ(c.exit_code, 3) << c.out << c.err;
  EXPECT_NE(c.out.find("INSUFFICIENT"), std::string::npos) << c.out;
  nlohmann::json cj = nlohmann::json::parse(ReadFile(P("c.json")));
  EXPECT_EQ(cj["requirements"][0]["status"], "insufficient");
  EXPECT_EQ(cj["requirements"][0]["samples_needed"], 10000);
  EXPECT_EQ(ValidateAgainstSchema(Schema("check.v1.schema.json"), cj),
            std::vector<std::string>{});

  // The etcd check: one figure (fdatasync alone) everywhere it is shown.
  RunOutput e = RunDisktune(
      {"check", P("r.json"), "--preset", "etcd", "--json", P("e.json")});
  nlohmann::json ej = nlohmann::json::parse(ReadFile(P("e.json")));
  const auto& etcd = r["analyses"]["checks"]["etcd"];
  double sync_p99 = 0;
  for (const auto& pr : r["probes"]) {
    if (pr["name"] == "fsync.fdatasync.2300.prealloc")
      sync_p99 = pr["metrics"]["sync_latency_ns"]["p99"];
  }
  EXPECT_EQ(ej["requirements"][0]["value"].get<double>(), sync_p99);
  EXPECT_EQ(etcd["value_ns"].get<double>(), sync_p99);
  RunOutput named = RunDisktune(
      {"check", P("r.json"), "--require",
       "fsync.fdatasync.2300.prealloc.metrics.sync_latency_ns.p99 < 1h"});
  EXPECT_NE(named.out.find("PASS"), std::string::npos)
      << named.out << named.err;
  RunOutput prom =
      RunDisktune({"report", P("r.json"), "--format", "prometheus"});
  ASSERT_EQ(prom.exit_code, 0) << prom.err;
  size_t at = prom.out.find("\ndisktune_check_value_seconds{");
  ASSERT_NE(at, std::string::npos) << prom.out;
  size_t sp = prom.out.find(' ', at + 1);
  double shown = std::stod(prom.out.substr(sp + 1));
  EXPECT_NEAR(shown, sync_p99 / 1e9, 1e-12)
      << "Prometheus shows another figure than the sync p99";
  EXPECT_EQ(e.exit_code == 0, etcd["verdict"] == "pass") << e.out;
}

// Another process writing the same disk during the measurements: a gate
// missed then is UNRELIABLE (exit 3), with the other I/O named, not FAIL.
TEST_F(VerdictTest, OtherIoOnTheDiskMakesAMissedGateUnreliable) {
  // A writer beside the probe: 64 KiB direct, synced writes, at most
  // 256 MiB, stopped when the probe ends.
  pid_t dd = fork();
  ASSERT_GE(dd, 0);
  if (dd == 0) {
    std::string of = "of=" + P("other.dat");
    execlp("dd", "dd", "if=/dev/zero", of.c_str(), "bs=64k", "count=4096",
           "oflag=direct,dsync", "status=none", static_cast<char*>(nullptr));
    _exit(127);
  }
  RunOutput p = RunDisktune(
      {"probe", "--probes", "fsync", "--fsync-methods", "fdatasync",
       "--fsync-sizes", "4096", "--fsync-modes", "append", "--duration", "4s",
       "--warmup", "0s", "--dir", work_, "--json", P("r.json")},
      work_);
  kill(dd, SIGTERM);
  int st = 0;
  waitpid(dd, &st, 0);
  ASSERT_EQ(p.exit_code, 0) << p.err;
  nlohmann::json r = nlohmann::json::parse(ReadFile(P("r.json")));
  if (!r["environment"].contains("foreign_io"))
    GTEST_SKIP() << "no block device behind " << work_;
  const auto& f = r["environment"]["foreign_io"];
  ASSERT_TRUE(f.contains("after")) << f.dump();
  EXPECT_GT(f["others_bytes"].get<double>(), 0) << f.dump();
  ASSERT_TRUE(f["busy"].get<bool>()) << f.dump();
  EXPECT_NE(r["summary"]["conditions"]["other_io"].get<std::string>().find(
                "other I/O on "),
            std::string::npos);
  EXPECT_TRUE(r["summary"]["conditions"]["busy"].get<bool>());
  EXPECT_EQ(ValidateAgainstSchema(Schema("report.v1.schema.json"), r),
            std::vector<std::string>{});

  RunOutput c = RunDisktune({"check", P("r.json"), "--require",
                             "fsync.fdatasync.4096.append.p99 < 1us"});
  EXPECT_EQ(c.exit_code, 3) << c.out << c.err;
  EXPECT_NE(c.out.find("UNRELIABLE"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("other I/O on "), std::string::npos) << c.out;
  RunOutput text = RunDisktune({"report", P("r.json")});
  EXPECT_NE(text.out.find("conditions:   other I/O on "), std::string::npos)
      << text.out;
}

}  // namespace
}  // namespace disktune::testing
