#include "src/model/report.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "reports/html_report.h"
#include "reports/markdown_report.h"
#include "reports/schema_validator.h"
#include "reports/test_util.h"
#include "reports/text_report.h"
#include "src/model/analysis_throttle_by_probe.h"
#include "src/model/environment.h"

namespace disktune {
namespace {

using testing::ExpectHasAll;

nlohmann::json LoadSchema() {
  std::ifstream in(std::string(DISKTUNE_TEST_SOURCE_DIR) +
                   "/reports/schema/report.v1.schema.json");
  std::stringstream ss;
  ss << in.rdbuf();
  return nlohmann::json::parse(ss.str());
}

// What the environment collector records on a machine with a disk, typed
// here so the report's tests need no probe.
Environment SampleEnvironment() {
  Environment e;
  e.system.hostname = "db1";
  e.system.kernel = "6.8.0-45-generic";
  e.system.os = "Ubuntu 24.04.1 LTS";
  e.system.cpu_model = "AMD EPYC 7B13";
  e.system.cpu_count = 2;
  e.system.memory_bytes = 8ull << 30;
  e.system.memory_available_bytes = 6ull << 30;
  e.system.load_average_1m = 0.25;
  e.target_dir = ".";
  e.filesystem.type = "ext4";
  e.filesystem.mount_point = "/";
  e.filesystem.source = "/dev/vda1";
  e.filesystem.mount_options = "rw,relatime";
  e.filesystem.total_bytes = 100ull << 30;
  e.filesystem.free_bytes = 60ull << 30;
  DeviceInfo d;
  d.chain = {"vda1 (partition of vda)"};
  d.disk = "vda";
  d.model = "QEMU HARDDISK";
  d.size_bytes = 100ull << 30;
  d.rotational = false;
  d.scheduler = "mq-deadline";
  d.logical_block_size = 512;
  d.physical_block_size = 4096;
  d.nr_requests = 256;
  d.max_sectors_kb = 1280;
  d.write_cache = "write back";
  d.fua = false;
  e.device = d;
  e.build_type = "RelWithDebInfo";
  return e;
}

Report SampleReport() {
  Report r = NewReport("probe");
  r.environment = SampleEnvironment();
  ProbeResult p;
  p.probe = "seq_read";
  p.name = "seq_read.4k.qd1";
  p.params.block_size_bytes = 4096;
  p.params.queue_depth = 1;
  p.params.pattern = "sequential";
  p.params.direct = true;
  p.iops = 1000;
  p.bytes_per_sec = 4096000;
  p.latency_ns = LatencySummary{.mean = 1000,
                                .p50 = 900,
                                .p90 = 1100,
                                .p99 = 2000,
                                .p999 = 3000,
                                .max = 4000,
                                .samples = 1000};
  p.samples = 1000;
  r.probes.push_back(p);
  r.probes.push_back(ProbeResult::Skipped("rand_read", "rand_read.4k.qd1",
                                          "tmpfs refuses O_DIRECT"));
  r.warnings.push_back("a warning");
  return r;
}

TEST(ReportTest, JsonRoundTripKeepsEverything) {
  Report r = SampleReport();
  nlohmann::json j = ReportToJson(r);
  EXPECT_EQ(j["schema"], "disktune.report");
  EXPECT_EQ(j["schema_version"], "1.9");
  Result<Report> back = ReportFromJson(j);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(ReportToJson(*back), j);
}

TEST(ReportTest, AnalysesComeBackAsReadWithAKeyNoKindDescribes) {
  std::ifstream in(std::string(DISKTUNE_TEST_SOURCE_DIR) +
                   "/reports/testdata/crafted_report.json");
  nlohmann::json j = nlohmann::json::parse(in);
  j["analyses"]["new_probe_finding"] = {{"answer_bytes", 4096}};
  Result<Report> r = ReportFromJson(j);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->analyses.durability);
  EXPECT_EQ(r->analyses.unknown.size(), 1u);
  EXPECT_EQ(ReportToJson(*r)["analyses"], j["analyses"]);
}

TEST(ReportTest, RealReportValidatesAgainstSchema) {
  nlohmann::json schema = LoadSchema();
  auto errors = ValidateAgainstSchema(schema, ReportToJson(SampleReport()));
  EXPECT_TRUE(errors.empty()) << errors.front();
}

// A throttled run's record: kept by the JSON, valid against the schema, and
// said by every human format.
TEST(ReportTest, ThrottleIsRecordedAndSaidByEveryFormat) {
  Report r = SampleReport();
  ThrottleRecord t;
  t.spec = *ParseThrottle("hdd");
  t.mechanism = "cgroup v1 blkio.throttle";
  t.cgroup_version = 1;
  t.cgroup = "/sys/fs/cgroup/blkio/disktune-throttle-1";
  t.loop_device = "/dev/loop0";
  t.filesystem = "ext4 (rw,relatime)";
  t.accounting = ThrottleAccounting{0, 1000, 0, 950};
  r.environment.throttle = t;
  nlohmann::json j = ReportToJson(r);
  auto errors = ValidateAgainstSchema(LoadSchema(), j);
  EXPECT_TRUE(errors.empty()) << errors.front();
  Result<Report> back = ReportFromJson(j);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(ReportToJson(*back), j);
  nlohmann::json bad = j;
  bad["environment"]["throttle"]["mechanism"] = "dm-delay";
  EXPECT_FALSE(ValidateAgainstSchema(LoadSchema(), bad).empty());
  for (const std::string& out :
       {RenderText(r), RenderHtml(r), RenderMarkdown(r)}) {
    EXPECT_NE(out.find("THROTTLED"), std::string::npos);
    EXPECT_NE(out.find("hdd class"), std::string::npos);
    EXPECT_NE(out.find("cgroup v1 blkio.throttle"), std::string::npos);
    EXPECT_NE(out.find("emulates rates and sync latency (8.33 ms per sync, by "
                       "a software floor"),
              std::string::npos);
    EXPECT_NE(out.find("leveldb and rocksdb"), std::string::npos);
    EXPECT_NE(out.find("5.0% escaped"), std::string::npos);
  }
  // Without a floor (cloud) the line says rates only, and the schema holds.
  t.spec = *ParseThrottle("cloud");
  r.environment.throttle = t;
  EXPECT_TRUE(ValidateAgainstSchema(LoadSchema(), ReportToJson(r)).empty());
  EXPECT_NE(RenderText(r).find("emulates rates only"), std::string::npos);
}

// Per-probe accounting (since 1.7): kept by the JSON, valid against the
// schema, and said by the text report beside each probe's table, one line
// per family, and by HTML and Markdown under the throttle's banner.
TEST(ReportTest, ThrottleByProbeIsRecordedAndSaidBesideTheProbe) {
  Report r = SampleReport();
  ThrottleRecord t;
  t.spec = *ParseThrottle("hdd");
  t.mechanism = "cgroup v1 blkio.throttle";
  t.cgroup_version = 1;
  t.loop_device = "/dev/loop0";
  t.filesystem = "ext4 (rw,relatime)";
  t.accounting = ThrottleAccounting{0, 2000, 0, 1500};
  r.environment.throttle = t;
  ThrottleByProbe by;
  by.test_file_fill = ThrottleAccounting{0, 1000, 0, 1000};
  by.Add("seq_read", 1, {400, 0, 400, 0});
  r.analyses.throttle_by_probe = by;
  nlohmann::json j = ReportToJson(r);
  auto errors = ValidateAgainstSchema(LoadSchema(), j);
  EXPECT_TRUE(errors.empty()) << errors.front();
  Result<Report> back = ReportFromJson(j);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(ReportToJson(*back), j);
  nlohmann::json bad = j;
  bad["analyses"]["throttle_by_probe"]["probes"][0].erase("probe");
  EXPECT_FALSE(ValidateAgainstSchema(LoadSchema(), bad).empty());
  // A known kind without its shape is one error naming it.
  Result<Report> malformed = ReportFromJson(bad);
  ASSERT_FALSE(malformed.ok());
  EXPECT_EQ(malformed.status().code(), Status::Code::kCorruption);
  EXPECT_NE(malformed.status().message().find("analyses.throttle_by_probe"),
            std::string::npos)
      << malformed.status().message();
  std::string text = RenderText(r);
  size_t row = text.find("seq_read.4k.qd1");
  size_t line = text.find(
      "  throttle, seq_read (1 point): 400 B reached the "
      "device, 400 B through the throttle, 0 B around it "
      "(0.0% escaped)\n");
  ASSERT_NE(line, std::string::npos) << text;
  EXPECT_LT(row, line);
  EXPECT_NE(text.find("  throttle, test file fill: "), std::string::npos);
  // The generic analyses list does not repeat it.
  EXPECT_EQ(text.find("throttle_by_probe"), std::string::npos) << text;
  // HTML and Markdown say each family under the throttle's banner.
  for (const std::string& out : {RenderHtml(r), RenderMarkdown(r)}) {
    EXPECT_NE(out.find("throttle, seq_read (1 point): 400 B reached the "
                       "device"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("throttle, test file fill: "), std::string::npos);
  }
}

TEST(ReportTest, SchemaRejectsWhatIsWrong) {
  nlohmann::json schema = LoadSchema();
  nlohmann::json j = ReportToJson(SampleReport());
  nlohmann::json missing = j;
  missing.erase("environment");
  EXPECT_FALSE(ValidateAgainstSchema(schema, missing).empty());
  nlohmann::json skipped_without_reason = j;
  skipped_without_reason["probes"][1].erase("reason");
  EXPECT_FALSE(ValidateAgainstSchema(schema, skipped_without_reason).empty());
  nlohmann::json bad_latency = j;
  bad_latency["probes"][0]["latency_ns"].erase("p99");
  EXPECT_FALSE(ValidateAgainstSchema(schema, bad_latency).empty());
  nlohmann::json unknown_key = j;
  unknown_key["surprise"] = 1;
  EXPECT_FALSE(ValidateAgainstSchema(schema, unknown_key).empty());
}

TEST(ReportTest, RefusesOtherSchemasAndMajorVersions) {
  nlohmann::json j = ReportToJson(SampleReport());
  j["schema_version"] = "2.0";
  Result<Report> r = ReportFromJson(j);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("2.0"), std::string::npos);
  j["schema_version"] = "1.9";  // a later minor only adds optional fields
  EXPECT_TRUE(ReportFromJson(j).ok());
  j["schema"] = "something.else";
  EXPECT_FALSE(ReportFromJson(j).ok());
  EXPECT_FALSE(ReportFromJson(nlohmann::json::array()).ok());
}

TEST(ReportTest, TextNamesTheDiskAndEveryProbe) {
  std::string text = RenderText(SampleReport());
  EXPECT_NE(text.find("seq_read.4k.qd1"), std::string::npos);
  EXPECT_NE(text.find("skipped: tmpfs refuses O_DIRECT"), std::string::npos);
  EXPECT_NE(text.find("a warning"), std::string::npos);
}

// probe --measure-with: one point measured by fio, one by the native loop
// because fio failed there; every report format says which.
TEST(ReportTest, EveryPointSaysWhoMeasuredIt) {
  Report r = SampleReport();
  r.probes[0].measured_by = MeasuredBy::kFio;
  r.probes[0].metrics["context_switches"] = 812;
  ProbeResult native = r.probes[0];
  native.name = "seq_read.1m.qd1";
  native.measured_by = MeasuredBy::kNative;
  native.measured_by_reason = "fio failed: fio exited 1: bad option";
  r.probes.push_back(native);
  nlohmann::json j = ReportToJson(r);
  EXPECT_EQ(j["probes"][0]["measured_by"], "fio");
  EXPECT_EQ(j["probes"][2]["measured_by"], "native");
  EXPECT_EQ(j["probes"][2]["measured_by_reason"],
            "fio failed: fio exited 1: bad option");
  auto errors = ValidateAgainstSchema(LoadSchema(), j);
  EXPECT_TRUE(errors.empty()) << errors.front();
  Result<Report> back = ReportFromJson(j);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->probes[0].measured_by, MeasuredBy::kFio);
  EXPECT_EQ(back->probes[2].measured_by_reason,
            "fio failed: fio exited 1: bad option");

  // Each format: the column, the fio point, the native point with the reason.
  const struct {
    std::string (*render)(const Report&);
    std::vector<std::string> wanted;
  } formats[] = {
      {RenderText,
       {"measured by", "  fio\n",
        "  native\n  measured by the native loop: fio failed"}},
      {RenderMarkdown,
       {"| measured by |", "| fio |",
        "| native (fio failed: fio exited 1: bad option) |"}},
      {RenderHtml,
       {"<th>measured by</th>",
        "<td>native: fio failed: fio exited 1: bad option</td>"}},
  };
  for (const auto& f : formats) ExpectHasAll(f.render(r), f.wanted);

  // A report from before the field has no such column.
  EXPECT_EQ(RenderText(SampleReport()).find("measured by"), std::string::npos);
  EXPECT_EQ(RenderMarkdown(SampleReport()).find("measured by"),
            std::string::npos);
}

}  // namespace
}  // namespace disktune
