// The engine knob table reaches every layer: each row of Knobs() is a flag of
// `disktune bench`, a key of a result's and a profile's engine options, a
// knob of the tuner (its evidence and engine forms) and a row of the
// reports' recommendation table. A row added to src/model/knob_spec.cc shows
// up in all of them with no other list to edit; one that did not would fail
// here.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "reports/markdown_report.h"
#include "reports/text_report.h"
#include "src/bench/profile.h"
#include "src/cli/cli.h"
#include "src/model/bench_result.h"
#include "src/model/knob_spec.h"
#include "src/model/tune_summary.h"
#include "src/tune/engine_forms.h"
#include "src/tune/knobs.h"
#include "src/tune/profile.h"

namespace disktune {
namespace {

using json = nlohmann::json;

// An in-range value for any row.
KnobValue Sample(const KnobSpec& k) {
  return std::clamp<KnobValue>(3 << 20, k.min_value, k.max_value);
}

EngineOptions AllSet() {
  EngineOptions o;
  for (const KnobSpec& k : Knobs()) o.Set(k.id, Sample(k));
  return o;
}

TEST(KnobTableTest, EveryRowIsABenchFlag) {
  std::ostringstream out, err;
  cli::Main({"disktune", "bench", "--help"}, out, err);
  for (const KnobSpec& k : Knobs()) {
    EXPECT_NE(out.str().find("--" + std::string(k.flag)), std::string::npos)
        << k.flag << "\n"
        << out.str();
    // The flag reaches the row's parser: a value it cannot read is refused,
    // naming the flag, before anything runs.
    std::ostringstream o2, e2;
    int rc = cli::Main({"disktune", "bench", "--" + std::string(k.flag),
                        "not-a-value", "--dir", "/nonexistent-knob-test"},
                       o2, e2);
    EXPECT_EQ(rc, 2) << k.flag << ": " << e2.str();
    EXPECT_NE(e2.str().find("--" + std::string(k.flag)), std::string::npos)
        << e2.str();
  }
}

TEST(KnobTableTest, EveryRowIsInResultJson) {
  bench::BenchResult r;
  r.engine = "leveldb";
  r.scenario = "fillseq";
  r.engine_options = AllSet();
  json j = r;
  for (const KnobSpec& k : Knobs()) {
    EXPECT_TRUE(j["engine_options"].contains(k.json_key)) << k.json_key;
  }
  bench::BenchResult back = j.get<bench::BenchResult>();
  EXPECT_TRUE(SameKnobs(back.engine_options, r.engine_options));
}

TEST(KnobTableTest, EveryRowIsInProfiles) {
  tune::Profile p;
  p.name = "knobs";
  p.engine = "leveldb";
  p.engine_options = AllSet();
  p.workload.scenarios = {"fillrandom"};
  json j = tune::ProfileToJson(p);
  for (const KnobSpec& k : Knobs()) {
    EXPECT_TRUE(j["engine_options"].contains(k.json_key)) << k.json_key;
  }
  auto back = tune::ParseProfile(j, "profile");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(SameKnobs(back->engine_options, p.engine_options));
  auto for_bench = bench::ParseBenchProfile(j);
  ASSERT_TRUE(for_bench.ok()) << for_bench.status().ToString();
  EXPECT_TRUE(SameKnobs(for_bench->overrides.knobs, p.engine_options));
}

TEST(KnobTableTest, EveryRowIsATunerKnobWithEngineForms) {
  const tune::TuneConfig d = tune::ModelFor("rocksdb").defaults;
  std::string ini = tune::RocksDbOptionsIni(d, "header");
  std::string snippet =
      tune::LevelDbSnippet(tune::ModelFor("leveldb").defaults, "header");
  for (const KnobSpec& k : Knobs()) {
    bool tuned = std::any_of(tune::AllKnobs().begin(), tune::AllKnobs().end(),
                             [&](tune::Knob t) { return t.spec == &k; });
    // The block cache is the budget's remainder, never searched alone.
    EXPECT_EQ(tuned, k.json_key != "cache_bytes") << k.json_key;
    if (k.rocksdb.default_value && k.unit != KnobUnit::kBitsPerKey) {
      EXPECT_NE(ini.find(std::string(k.rocksdb.option) + "="),
                std::string::npos)
          << k.json_key << "\n"
          << ini;
    }
    if (k.leveldb.default_value && k.unit != KnobUnit::kBitsPerKey) {
      EXPECT_NE(snippet.find("options." + std::string(k.leveldb.option)),
                std::string::npos)
          << k.json_key << "\n"
          << snippet;
    }
  }
}

TEST(KnobTableTest, EveryRowIsInTheReportsRecommendationTable) {
  Report report;
  report.command = "tune";
  model::TuneSummary tune;
  tune.engine = "leveldb";
  tune.workload = "write-heavy";
  tune.verdict = "tuned";
  tune.evidence.emplace();
  for (const KnobSpec& k : Knobs()) {
    model::JudgedKnob j;
    j.knob = k.json_key;
    j.default_value = KnobValueToJson(k, k.min_value);
    j.searched = KnobValueToJson(k, Sample(k));
    j.recommended = KnobValueToJson(k, Sample(k));
    j.outcome = model::KnobOutcome::kWon;
    j.gain = model::GainFigure{
        .median = 1.5, .ci95_low = 1.2, .ci95_high = 1.8, .repeats = 5};
    j.reason = "because";
    tune.evidence->knobs.push_back(j);
  }
  report.tune = tune;
  std::string text = RenderText(report);
  std::string md = RenderMarkdown(report);
  for (const KnobSpec& k : Knobs()) {
    std::string value = KnobValueText(k, Sample(k));
    EXPECT_NE(text.find(std::string(k.name)), std::string::npos) << k.name;
    EXPECT_NE(text.find(value), std::string::npos) << value;
    EXPECT_NE(md.find("| " + std::string(k.name) + " | " + value + " |"),
              std::string::npos)
        << k.name << "\n"
        << md;
  }
  EXPECT_NE(text.find("1.50x [1.20x, 1.80x]"), std::string::npos) << text;
}

}  // namespace
}  // namespace disktune
