// The profile format: strict validation with the key path in every message,
// the checked-in profiles, the built-in workloads, and the round trip that
// `bench --profile` relies on.
#include "src/tune/profile.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "src/model/tune_summary_for_test.h"
#include "src/tune/embedded_profiles.h"
#include "src/tune/workload.h"

namespace disktune::tune {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

json Minimal() {
  return json::parse(R"({
    "profile_version": 1,
    "name": "t",
    "engine": "leveldb",
    "engine_options": {"cache_bytes": 8388608, "bloom_bits_per_key": 10},
    "workload": {"scenarios": ["fillrandom", "readrandom"],
                 "measured": ["readrandom"], "num": 1000}
  })");
}

std::string Error(const json& j) {
  auto p = ParseProfile(j, "x.json");
  EXPECT_FALSE(p.ok());
  return p.ok() ? "" : p.status().message();
}

TEST(ProfileTest, ParsesAMinimalProfile) {
  auto p = ParseProfile(Minimal(), "x.json");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->name, "t");
  EXPECT_EQ(p->engine, std::optional<std::string>("leveldb"));
  EXPECT_EQ(p->engine_options.cache_bytes(), std::optional<uint64_t>(8388608));
  EXPECT_EQ(p->engine_options.bloom_bits_per_key(), std::optional<int>(10));
  EXPECT_EQ(p->workload.scenarios,
            (std::vector<std::string>{"fillrandom", "readrandom"}));
  EXPECT_EQ(p->workload.measured, std::vector<std::string>{"readrandom"});
  EXPECT_EQ(p->workload.num, 1000u);
}

TEST(ProfileTest, UnknownKeysAreErrorsNamingThePath) {
  json j = Minimal();
  j["nmae"] = "typo";
  std::string e = Error(j);
  EXPECT_NE(e.find("x.json: unknown key 'nmae'"), std::string::npos) << e;

  j = Minimal();
  j["workload"]["nmu"] = 5;
  e = Error(j);
  EXPECT_NE(e.find("x.json.workload: unknown key 'nmu'"), std::string::npos)
      << e;
  EXPECT_NE(e.find("target_writes_per_sec"), std::string::npos)
      << "the known list includes the tuner's keys: " << e;

  j = Minimal();
  j["engine_options"]["bloom_bits"] = 10;
  e = Error(j);
  EXPECT_NE(e.find("engine_options: unknown key 'bloom_bits'"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("x.json"), std::string::npos) << e;
}

TEST(ProfileTest, WrongTypesAreErrors) {
  json j = Minimal();
  j["workload"]["num"] = "many";
  std::string e = Error(j);
  EXPECT_NE(e.find("workload.num"), std::string::npos) << e;

  j = Minimal();
  j["workload"]["measured"] = "readrandom";
  e = Error(j);
  EXPECT_NE(e.find("workload.measured must be a list"), std::string::npos) << e;

  j = Minimal();
  j["name"] = 5;
  e = Error(j);
  EXPECT_NE(e.find("x.json.name must be a string"), std::string::npos) << e;

  j = Minimal();
  j["workload"]["target_writes_per_sec"] = -1;
  e = Error(j);
  EXPECT_NE(e.find("target_writes_per_sec"), std::string::npos) << e;

  j = Minimal();
  j["workload"]["measured"] = {"readseq"};
  e = Error(j);
  EXPECT_NE(e.find("'readseq' is not one of the scenarios"), std::string::npos)
      << e;
}

TEST(ProfileTest, OtherVersionsAreErrors) {
  json j = Minimal();
  j["profile_version"] = 2;
  j["something_new"] = true;  // the version is reported, not the key
  std::string e = Error(j);
  EXPECT_NE(e.find("profile_version 2 is not supported"), std::string::npos)
      << e;
  j.erase("profile_version");
  e = Error(j);
  EXPECT_NE(e.find("missing profile_version"), std::string::npos) << e;
  j["profile_version"] = "1";
  e = Error(j);
  EXPECT_NE(e.find("not supported"), std::string::npos) << e;
}

// The profile reader's shape of the tune object (profile.cc) admits all the
// typed summary writes (src/model/tune_summary.h).
TEST(ProfileTest, TheTuneSectionAdmitsEverythingTheSummaryWrites) {
  json j = Minimal();
  j["tune"] = model::TuneSummaryToJson(model::FullTuneSummary());
  Result<Profile> p = ParseProfile(j, "x.json");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  // Read as the typed summary and written back, the section is unchanged.
  EXPECT_EQ(ProfileToJson(*p)["tune"], j["tune"]);
  j["tune"] = model::TuneSummaryToJson(model::MinimalTuneSummary());
  p = ParseProfile(j, "x.json");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(ProfileToJson(*p)["tune"], j["tune"]);
}

TEST(ProfileTest, TheTuneSectionIsValidatedToo) {
  json j = Minimal();
  j["tune"] = {
      {"engine", "leveldb"},
      {"workload", "t"},
      {"memory_budget_bytes", uint64_t{1}},
      {"verdict", "x"},
      {"recommendation",
       {{"engine_options", json::object()},
        {"options", json::array()},
        {"changed", json::array()},
        {"memory",
         {{"write_buffers_bytes", uint64_t{0}},
          {"cache_bytes", uint64_t{0}},
          {"total_bytes", uint64_t{0}}}}}},
      {"evidence",
       {{"knobs",
         {{{"knob", "compression"}, {"status", "won"}, {"gian", 1}}}}}}};
  std::string e = Error(j);
  EXPECT_NE(e.find("x.json.tune.evidence.knobs[0]: unknown key 'gian'"),
            std::string::npos)
      << e;
  j["tune"]["evidence"]["knobs"][0].erase("gian");
  EXPECT_TRUE(ParseProfile(j, "x.json").ok());
  // The shape admits a recommendation without its memory; the tuner's
  // summary, which a profile carries, does not.
  json memory = j["tune"]["recommendation"]["memory"];
  j["tune"]["recommendation"].erase("memory");
  e = Error(j);
  EXPECT_NE(e.find("x.json.tune.recommendation.memory is missing"),
            std::string::npos)
      << e;
  j["tune"]["recommendation"]["memory"] = memory;
  j["tune"]["memory_budget_bytes"] = "1MiB";
  e = Error(j);
  EXPECT_NE(e.find("tune.memory_budget_bytes must be an integer"),
            std::string::npos)
      << e;
  j["tune"]["memory_budget_bytes"] = uint64_t{1};
  j["tune"].erase("verdict");
  e = Error(j);
  EXPECT_NE(e.find("missing key 'verdict'"), std::string::npos) << e;
}

TEST(ProfileTest, RoundTripAndWhatBenchRuns) {
  auto p = ParseProfile(Minimal(), "x.json");
  ASSERT_TRUE(p.ok());
  p->workload.entries_per_batch = 8;
  p->workload.target_writes_per_sec = 1000;
  json j = ProfileToJson(*p);
  auto again = ParseProfile(j, "again");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->workload.entries_per_batch, 8u);
  EXPECT_EQ(again->workload.target_writes_per_sec, 1000.0);
  EXPECT_EQ(again->workload.scenarios, p->workload.scenarios);

  std::string path = fs::temp_directory_path() /
                     ("profile_test_" + std::to_string(getpid()) + ".json");
  {
    std::ofstream f(path);
    f << j.dump(2);
  }
  auto b = ReadProfileForBench(path);
  fs::remove(path);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(b->overrides.entries_per_batch, std::optional<int64_t>(8));
  EXPECT_EQ(b->overrides.num, std::optional<int64_t>(1000));
  EXPECT_EQ(b->overrides.knobs.bloom_bits_per_key(), std::optional<int>(10));
  EXPECT_FALSE(b->overrides.threads.has_value() && *b->overrides.threads != 1);
}

// Every file under profiles/ loads, names only known scenarios, can be
// tuned, and is the one embedded in the binary.
TEST(ProfileTest, EveryCheckedInProfileLoads) {
  fs::path dir = fs::path(DISKTUNE_TEST_SOURCE_DIR) / "profiles";
  std::set<std::string> on_disk;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    std::string name = entry.path().stem().string();
    on_disk.insert(name);
    auto p = ReadProfile(entry.path().string());
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    EXPECT_EQ(p->name, name) << entry.path();
    EXPECT_FALSE(p->description.empty()) << entry.path();
    EXPECT_TRUE(ValidateWorkload(p->workload).ok())
        << name << ": " << ValidateWorkload(p->workload).ToString();
    auto b = ReadProfileForBench(entry.path().string());
    EXPECT_TRUE(b.ok()) << b.status().ToString();
  }
  for (const char* seed :
       {"baseline-2011", "large-values", "batch", "sync-writes", "more-memory",
        "larger-cache", "utxo-pulse", "in-memory", "writer-concurrency",
        "ycsb-a", "ycsb-b", "ycsb-c", "ycsb-d", "ycsb-e", "ycsb-f"}) {
    EXPECT_TRUE(on_disk.count(seed)) << seed << " is not checked in";
  }
  std::set<std::string> embedded;
  for (const EmbeddedProfile& e : EmbeddedProfiles()) {
    embedded.emplace(e.name);
  }
  EXPECT_EQ(embedded, on_disk) << "rebuild: the embedded profiles are stale";
}

TEST(WorkloadTest, BuiltinsResolve) {
  for (const char* name :
       {"write-heavy", "read-heavy", "mixed", "utxo-pulse", "ycsb-a", "ycsb-b",
        "ycsb-c", "ycsb-d", "ycsb-e", "ycsb-f", "sync-writes"}) {
    auto w = ResolveWorkload(name);
    ASSERT_TRUE(w.ok()) << name << ": " << w.status().ToString();
    EXPECT_TRUE(ValidateWorkload(*w).ok()) << name;
    EXPECT_TRUE(ShapeOf(*w, "leveldb").ok()) << name;
  }
  auto bad = ResolveWorkload("write-haevy");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("built-in: write-heavy"),
            std::string::npos)
      << bad.status().message();
  auto missing = ResolveWorkload("no/such/profile.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("no/such/profile.json"),
            std::string::npos);
}

TEST(WorkloadTest, TraitsAndShape) {
  auto rh = ResolveWorkload("read-heavy");
  ASSERT_TRUE(rh.ok());
  WorkloadTraits t = TraitsOf(*rh);
  EXPECT_EQ(t.point_read_share, 1.0);
  EXPECT_EQ(t.write_share, 0.0);
  auto wh = ResolveWorkload("write-heavy");
  ASSERT_TRUE(wh.ok());
  EXPECT_EQ(TraitsOf(*wh).write_share, 1.0);
  EXPECT_LT(TraitsOf(*ResolveWorkload("ycsb-c")).hot_fraction, 0.5);

  // fillrandom + overwrite leave 1 - e^-2 = 86.5% of the keys (db_bench's
  // scenario list).
  auto shape = ShapeOf(*wh, "leveldb");
  ASSERT_TRUE(shape.ok());
  EXPECT_NEAR(static_cast<double>(shape->live_entries) / 1e6, 0.865, 0.01);
  EXPECT_EQ(shape->key_bytes, 16u);
  EXPECT_EQ(shape->value_bytes, 100u);
  // UTXO: 40-byte keys, loaded in order.
  auto utxo = ShapeOf(*ResolveWorkload("utxo-pulse"), "leveldb");
  ASSERT_TRUE(utxo.ok());
  EXPECT_EQ(utxo->key_bytes, 40u);

  Workload w = *wh;
  ASSERT_TRUE(ApplyDataSize(10 * kGiB, "leveldb", &w).ok());
  EXPECT_EQ(w.num, 10 * kGiB / 116);
}

TEST(WorkloadTest, ScaledCopiesShrinkCountsTogether) {
  Workload w = *ResolveWorkload("sync-writes");
  bench::Overrides o = WorkloadOverrides(w, 0.1);
  EXPECT_EQ(o.num, std::optional<int64_t>(100000));
  EXPECT_EQ(o.writes, std::optional<int64_t>(1000));
  EXPECT_EQ(o.sync, std::optional<bool>(true));
  EXPECT_EQ(o.pulse_reads, std::optional<int64_t>(9000));
  // Never below the floor.
  EXPECT_EQ(WorkloadOverrides(w, 1e-9).num,
            std::optional<int64_t>(kMinTrialNum));
  EXPECT_DOUBLE_EQ(EffectiveScale(w, 1e-9),
                   static_cast<double>(kMinTrialNum) / 1e6);
}

}  // namespace
}  // namespace disktune::tune
