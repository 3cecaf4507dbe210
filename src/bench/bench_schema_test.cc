// Real bench output validates against reports/schema/report.v1.schema.json.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "reports/schema_validator.h"
#include "src/bench/mem_engine_for_test.h"
#include "src/bench/pulses_for_test.h"
#include "src/bench/runner.h"
#include "src/model/knob_spec.h"

namespace disktune::bench {
namespace {

nlohmann::json BenchResultSchema() {
  const char* src = std::getenv("DISKTUNE_SOURCE_DIR");
  std::string dir = src ? src : DISKTUNE_TEST_SOURCE_DIR;
  std::ifstream in(dir + "/reports/schema/report.v1.schema.json");
  nlohmann::json full = nlohmann::json::parse(in, nullptr, false);
  EXPECT_FALSE(full.is_discarded());
  nlohmann::json schema = {{"$schema", full["$schema"]},
                           {"definitions", full["definitions"]},
                           {"$ref", "#/definitions/bench_result"}};
  return schema;
}

TEST(BenchSchemaTest, EveryKindOfResultValidates) {
  std::string root = std::filesystem::current_path().string() +
                     "/bench_schema_test." + std::to_string(getpid());
  std::filesystem::remove_all(root);
  BenchRequest req;
  req.engines = {"mem"};
  req.scenarios = {
      "fillseq,readrandom,crc32c,fillrandom-threads,fillrandom-growth,ycsb-"
      "load,"
      "ycsb-a,utxo-load,utxo-pulse,readmissing"};
  req.user.num = 2000;
  testing::SetPulses(&req.user, 100, 100, 10, 1);
  req.user.max_threads = 2;
  req.quick = true;
  req.repeat = 2;
  req.db_root = root;
  req.available = testing::MemRegistry();
  req.factory = [](std::string_view) -> Result<std::unique_ptr<Engine>> {
    return std::unique_ptr<Engine>(std::make_unique<testing::MemEngine>());
  };
  auto results = RunBench(req);
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  // A failed and a skipped result too.
  req.scenarios = {"readrandom,readseq"};
  req.repeat = 1;
  auto failed = RunBench(req);
  ASSERT_TRUE(failed.ok());
  std::filesystem::remove_all(root);

  nlohmann::json schema = BenchResultSchema();
  std::vector<BenchResult> all = *results;
  all.insert(all.end(), failed->begin(), failed->end());
  ASSERT_EQ(all.size(), 12u);
  for (const BenchResult& r : all) {
    nlohmann::json j = r;
    std::vector<std::string> errors = ValidateAgainstSchema(schema, j);
    EXPECT_TRUE(errors.empty()) << r.scenario << ": " << errors.front() << "\n"
                                << j.dump(1);
  }
}

// The schema's engine_options takes every row of the knob table by its
// json_key, and names no knob the table does not have.
TEST(BenchSchemaTest, EngineOptionsTakeEveryRowOfTheKnobTable) {
  nlohmann::json schema = BenchResultSchema();
  const nlohmann::json& eo =
      schema["definitions"]["bench_result"]["properties"]["engine_options"];
  ASSERT_TRUE(eo.is_object());
  for (const auto& [key, _] : eo["properties"].items()) {
    const bool fixed = key == "expected_db_bytes" || key == "in_memory" ||
                       key == "sync" || key == "settings";
    EXPECT_TRUE(fixed || FindKnob(key) != nullptr)
        << "the schema names engine_options." << key
        << ", which is no row of src/model/knob_spec.cc";
  }
  nlohmann::json options_only = {{"$schema", schema["$schema"]},
                                 {"definitions", schema["definitions"]}};
  options_only.update(eo);
  for (const KnobSpec& k : Knobs()) {
    for (KnobValue v : {k.min_value, std::min(k.max_value, k.min_value + 1)}) {
      nlohmann::json doc = {{std::string(k.json_key), KnobValueToJson(k, v)}};
      std::vector<std::string> errors =
          ValidateAgainstSchema(options_only, doc);
      EXPECT_TRUE(errors.empty()) << doc.dump() << ": " << errors.front();
    }
  }
}

}  // namespace
}  // namespace disktune::bench
