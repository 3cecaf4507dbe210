// Real bench output validates against reports/schema/report.v1.schema.json.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "reports/schema_validator.h"
#include "src/bench/mem_engine_for_test.h"
#include "src/bench/pulses_for_test.h"
#include "src/bench/runner.h"

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

}  // namespace
}  // namespace disktune::bench
