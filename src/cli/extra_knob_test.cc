// A knob is one row: a row added to the engine knob table at run time
// (ScopedExtraKnobForTest), with no code written for it, is a flag of
// `disktune bench`, a key of the result JSON's engine_options (which the
// schema takes), a key of a profile written and read back, a line of the
// OPTIONS file the tuner writes, an option of the database RocksDB opens
// (the OPTIONS file RocksDB writes into the database directory, and the
// settings the adapter reads back from the open database), and a line of
// the text, HTML and Markdown reports.
//
// The row is RocksDB's max_sequential_skip_in_iterations (a CFOptions
// member disktune sets nowhere else): RocksDB takes it by name from the
// same map as every other knob.
#include <gtest/gtest.h>
#include <rocksdb/convenience.h>
#include <rocksdb/env.h>
#include <rocksdb/utilities/options_util.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "reports/html_report.h"
#include "reports/markdown_report.h"
#include "reports/schema_validator.h"
#include "reports/text_report.h"
#include "src/bench/profile.h"
#include "src/cli/cli.h"
#include "src/model/knob_spec.h"
#include "src/model/report.h"
#include "src/model/tune_summary.h"
#include "src/tune/engine_forms.h"
#include "src/tune/knobs.h"
#include "src/tune/profile.h"

namespace disktune {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

constexpr KnobValue kSet = 17;  // RocksDB's default is 8

KnobSpec FakeRow() {
  return KnobSpec{
      .name = "iterator skips before a reseek",
      .json_key = "max_sequential_skip_in_iterations",
      .flag = "max-sequential-skip-in-iterations",
      .help = "entries an iterator steps over before it reseeks",
      .example = "16",
      .unit = KnobUnit::kCount,
      .min_value = 1,
      .max_value = 1 << 20,
      .rocksdb = {8, "max_sequential_skip_in_iterations", "CFOptions"},
  };
}

class ExtraKnobTest : public ::testing::Test {
 protected:
  ExtraKnobTest()
      : dir_(fs::current_path() /
             ("extra_knob_test." + std::to_string(getpid()))) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~ExtraKnobTest() override { fs::remove_all(dir_); }

  // The OPTIONS-file key=value pairs of `section` in `file` as RocksDB
  // reads them back (LoadOptionsFromFile, then RocksDB's own spelling).
  static std::string CfOption(const fs::path& file, const std::string& key) {
    rocksdb::ConfigOptions config;
    config.env = rocksdb::Env::Default();
    rocksdb::DBOptions db;
    std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
    rocksdb::Status s = rocksdb::LoadOptionsFromFile(config, file, &db, &cfs);
    EXPECT_TRUE(s.ok()) << file << ": " << s.ToString();
    if (!s.ok() || cfs.empty()) return "";
    std::string text;
    std::unordered_map<std::string, std::string> m;
    EXPECT_TRUE(
        rocksdb::GetStringFromColumnFamilyOptions(config, cfs[0].options, &text)
            .ok());
    EXPECT_TRUE(rocksdb::StringToMap(text, &m).ok());
    return m[key];
  }

  fs::path dir_;
  ScopedExtraKnobForTest row_{FakeRow()};
};

TEST_F(ExtraKnobTest, TheRowIsInTheTableWithAnId) {
  const KnobSpec* k = FindKnob("max_sequential_skip_in_iterations");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->id, row_.id());
  EXPECT_EQ(&KnobRow(row_.id()), k);
  EXPECT_TRUE(IsRocksDbOnly(*k));
}

// `disktune bench --max-sequential-skip-in-iterations 17` on RocksDB: the
// result's engine_options has it, the schema takes it, the adapter read it
// back from the open database, and the reports show it.
TEST_F(ExtraKnobTest, BenchFlagReachesResultAndReports) {
  const std::string out_json = (dir_ / "bench.json").string();
  std::ostringstream out, err;
  int rc = cli::Main(
      {"disktune", "bench", "--engine", "rocksdb", "--scenario", "fillseq",
       "--num", "2000", "--max-sequential-skip-in-iterations",
       std::to_string(kSet), "--dir", dir_.string(), "--json", out_json},
      out, err);
  ASSERT_EQ(rc, 0) << err.str();
  std::ifstream in(out_json);
  json j = json::parse(in, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  ASSERT_TRUE(j.contains("benches") && !j["benches"].empty()) << j.dump(1);
  const json& b = j["benches"][0];
  EXPECT_EQ(b["engine_options"]["max_sequential_skip_in_iterations"], kSet)
      << b["engine_options"].dump();
  bool ran_with = false;
  for (const json& s : b["engine_settings"]) {
    if (s["setting"] == "rocksdb.max_sequential_skip_in_iterations") {
      EXPECT_EQ(s["value"], std::to_string(kSet));
      ran_with = true;
    }
  }
  EXPECT_TRUE(ran_with) << b["engine_settings"].dump(1);

  const char* src = std::getenv("DISKTUNE_SOURCE_DIR");
  std::ifstream schema_in(std::string(src ? src : DISKTUNE_TEST_SOURCE_DIR) +
                          "/reports/schema/report.v1.schema.json");
  json schema = json::parse(schema_in, nullptr, false);
  ASSERT_FALSE(schema.is_discarded());
  std::vector<std::string> errors = ValidateAgainstSchema(schema, j);
  EXPECT_TRUE(errors.empty()) << errors.front();

  Result<Report> report = ReportFromJson(j);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  const std::string shown =
      "max_sequential_skip_in_iterations";  // the adapter's setting
  for (const auto& [format, text] :
       {std::pair<std::string, std::string>{"text", RenderText(*report)},
        {"html", RenderHtml(*report)},
        {"markdown", RenderMarkdown(*report)}}) {
    const size_t at = text.find(shown);
    ASSERT_NE(at, std::string::npos) << format << "\n" << text;
    EXPECT_NE(text.find(std::to_string(kSet), at), std::string::npos) << format;
  }
}

// A profile with the knob, written and read back by the tuner's and the
// bench's readers.
TEST_F(ExtraKnobTest, ProfileRoundTrip) {
  tune::Profile p;
  p.name = "extra";
  p.engine = "rocksdb";
  p.engine_options.Set(row_.id(), kSet);
  p.workload.scenarios = {"fillrandom"};
  json j = tune::ProfileToJson(p);
  EXPECT_EQ(j["engine_options"]["max_sequential_skip_in_iterations"], kSet);
  auto back = tune::ParseProfile(json::parse(j.dump()), "profile");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->engine_options.Get(row_.id()), kSet);
  auto for_bench = bench::ParseBenchProfile(j);
  ASSERT_TRUE(for_bench.ok()) << for_bench.status().ToString();
  EXPECT_EQ(for_bench->overrides.knobs.Get(row_.id()), kSet);
}

// The OPTIONS file the tuner writes for a config with the knob set, and the
// OPTIONS file RocksDB writes for the database the adapter opens with that
// config, say the same value.
TEST_F(ExtraKnobTest, TunerOptionsFileIsWhatRocksDbRan) {
  tune::TuneConfig c = tune::ModelFor("rocksdb").defaults;
  c.Set(row_.id(), kSet);
  EXPECT_NE(tune::ConfigText(c).find("iterator skips before a reseek 17"),
            std::string::npos)
      << tune::ConfigText(c);
  const fs::path ours = dir_ / "disktune.rocksdb.ini";
  {
    std::ofstream f(ours);
    f << tune::RocksDbOptionsIni(c, "extra knob test");
  }
  const fs::path db = dir_ / "db";
  Result<std::unique_ptr<Engine>> engine = NewEngine("rocksdb");
  ASSERT_TRUE(engine.ok());
  ASSERT_TRUE((*engine)->Open(db, tune::ToEngineOptions(c)).ok());
  EXPECT_TRUE((*engine)->unsupported_knobs().empty());
  ASSERT_TRUE((*engine)->Close().ok());
  std::string theirs;
  ASSERT_TRUE(
      rocksdb::GetLatestOptionsFileName(db, rocksdb::Env::Default(), &theirs)
          .ok());
  EXPECT_EQ(CfOption(ours, "max_sequential_skip_in_iterations"),
            std::to_string(kSet));
  EXPECT_EQ(CfOption(db / theirs, "max_sequential_skip_in_iterations"),
            std::to_string(kSet));
  // Another engine is told it cannot honour it.
  Result<std::unique_ptr<Engine>> leveldb = NewEngine("leveldb");
  ASSERT_TRUE(leveldb.ok());
  ASSERT_TRUE(
      (*leveldb)->Open((dir_ / "ldb").string(), tune::ToEngineOptions(c)).ok());
  bool listed = false;
  for (const auto& [knob, why] : (*leveldb)->unsupported_knobs()) {
    listed = listed || knob == "max_sequential_skip_in_iterations";
  }
  EXPECT_TRUE(listed);
  ASSERT_TRUE((*leveldb)->Close().ok());
}

// The tuner's recommendation table in every report names the row.
TEST_F(ExtraKnobTest, TuneReportsNameTheRow) {
  Report report = NewReport("tune");
  model::TuneSummary tune;
  tune.engine = "rocksdb";
  tune.workload = "write-heavy";
  tune.verdict = "tuned";
  tune.evidence.emplace();
  model::JudgedKnob k;
  k.knob = "max_sequential_skip_in_iterations";
  k.default_value = 8;
  k.searched = kSet;
  k.recommended = kSet;
  k.outcome = model::KnobOutcome::kWon;
  k.reason = "because";
  tune.evidence->knobs.push_back(k);
  report.tune = tune;
  for (const auto& [format, text] :
       {std::pair<std::string, std::string>{"text", RenderText(report)},
        {"html", RenderHtml(report)},
        {"markdown", RenderMarkdown(report)}}) {
    EXPECT_NE(text.find("iterator skips before a reseek"), std::string::npos)
        << format << "\n"
        << text;
  }
}

}  // namespace
}  // namespace disktune
