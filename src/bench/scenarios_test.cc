// Scenario semantics, run through the runner on the in-memory test engine.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <set>

#include "src/bench/crc32c.h"
#include "src/bench/mem_engine_for_test.h"
#include "src/bench/pulses_for_test.h"
#include "src/bench/runner.h"
#include "src/bench/scenario.h"
#include "src/bench/scenario_sets.h"
#include "src/core/signals.h"
#include "tests/test_support.h"

namespace disktune::bench {
namespace {

using testing::MemEngine;

TEST(ScenarioTableTest, EveryDbBenchScenarioOfReferenceSection2IsThere) {
  // db_bench's scenario list, in its order.
  for (const char* name :
       {"fillseq",     "fillbatch",   "fillrandom",  "overwrite",
        "fillsync",    "fill100K",    "deleteseq",   "deleterandom",
        "readseq",     "readreverse", "readrandom",  "readmissing",
        "readhot",     "seekrandom",  "seekordered", "readwhilewriting",
        "open",        "compact",     "crc32c",      "snappycomp",
        "snappyuncomp"}) {
    const ScenarioSpec* s = FindScenario(name);
    ASSERT_NE(s, nullptr) << name;
    EXPECT_EQ(s->origin, "db_bench") << name;
  }
  EXPECT_EQ(FindScenario("fillseq")->db, DbUse::kFresh);
  EXPECT_EQ(FindScenario("overwrite")->db, DbUse::kExisting);
  EXPECT_EQ(FindScenario("crc32c")->db, DbUse::kNone);
  EXPECT_EQ(FindScenario("nosuch"), nullptr);
}

TEST(ScenarioTableTest, NamesAreUniqueLowercaseWithHelp) {
  std::set<std::string_view> names;
  for (const ScenarioSpec& s : Scenarios()) {
    EXPECT_TRUE(names.insert(s.name).second) << s.name;
    EXPECT_FALSE(s.help.empty()) << s.name;
    EXPECT_NE(s.run, nullptr) << s.name;
  }
  for (const ScenarioSet& set : ScenarioSets()) {
    EXPECT_FALSE(names.count(set.name)) << "set shadows scenario " << set.name;
    for (const SetStep& step : set.steps) {
      EXPECT_NE(FindScenario(step.scenario), nullptr)
          << set.name << ": " << step.scenario;
    }
  }
}

TEST(ScenarioTableTest, SeedVariantsAreNamedSets) {
  for (const char* name :
       {"db_bench", "baseline-2011", "large-values", "batch-writes",
        "sync-writes", "compression-off", "more-memory", "larger-cache",
        "reads-uncompressed", "utxo", "utxo-reads", "hyperleveldb", "inmemory",
        "ycsb"}) {
    EXPECT_NE(FindScenarioSet(name), nullptr) << name;
  }
  const ScenarioSet* baseline = FindScenarioSet("baseline-2011");
  EXPECT_EQ(baseline->overrides.knobs.cache_bytes(), 4u << 20);
  ASSERT_EQ(baseline->steps.size(), 16u);
  EXPECT_EQ(baseline->steps[0].scenario, "fillseq");
  EXPECT_EQ(baseline->steps[15].scenario, "snappyuncomp");
}

// What the runner and the tuner know of a scenario is in its row, not in its
// name.
TEST(ScenarioTableTest, TraitsAreColumnsOfTheRow) {
  auto spec = [](std::string_view name) {
    const ScenarioSpec* s = FindScenario(name);
    EXPECT_NE(s, nullptr) << name;
    return s != nullptr ? *s : ScenarioSpec{};
  };
  EXPECT_EQ(spec("ycsb-d").keys, KeyOrder::kLatest);
  EXPECT_EQ(spec("ycsb-a").keys, KeyOrder::kZipfian);
  EXPECT_EQ(spec("ycsb-load").keys, KeyOrder::kUniform);
  EXPECT_TRUE(spec("ycsb-load").each_key_once);
  EXPECT_EQ(spec("readhot").keys, KeyOrder::kHot);
  EXPECT_EQ(spec("fillseq").keys, KeyOrder::kSequential);
  EXPECT_EQ(spec("crc32c").keys, KeyOrder::kNone);
  EXPECT_STREQ(KeyOrderName(spec("ycsb-d").keys), "latest");
  EXPECT_STREQ(KeyOrderName(KeyOrder::kNone), "");

  EXPECT_TRUE(spec("utxo-pulse").pulsed);
  EXPECT_FALSE(spec("utxo-load").pulsed);
  EXPECT_EQ(spec("utxo-load").keys, KeyOrder::kSequential);

  EXPECT_TRUE(spec("readrandom").reads);
  EXPECT_TRUE(spec("seekordered").reads);
  EXPECT_FALSE(spec("fillrandom").reads);
  EXPECT_FALSE(spec("ycsb-c").reads);

  EXPECT_EQ(spec("readwhilewriting").threads, ThreadCount::kThreadsAndWriter);
  EXPECT_EQ(spec("fillrandom-threads").threads, ThreadCount::kMaxThreads);
  EXPECT_EQ(spec("fillrandom").threads, ThreadCount::kThreads);
  for (const ScenarioSpec& s : Scenarios()) {
    EXPECT_EQ(s.keys == KeyOrder::kNone, s.db == DbUse::kNone) << s.name;
  }
}

TEST(Crc32cTest, KnownVectors) {
  EXPECT_EQ(Crc32c("123456789", 9), 0xE3069283u);
  std::string zeros(32, '\0');
  EXPECT_EQ(Crc32c(zeros.data(), zeros.size()), 0x8a9136aau);
  std::string ones(32, '\xff');
  EXPECT_EQ(Crc32c(ones.data(), ones.size()), 0x62a8ab43u);
  // Extending in pieces equals one pass.
  std::string s = "hello, leveldb block trailer";
  EXPECT_EQ(Crc32cExtend(Crc32c(s.data(), 5), s.data() + 5, s.size() - 5),
            Crc32c(s.data(), s.size()));
}

class ScenarioRunTest : public disktune::testing::WorkDirTest {
 protected:
  ScenarioRunTest() : WorkDirTest("scenarios_test.") {}

  BenchRequest Request(std::vector<std::string> scenarios, int64_t num) {
    BenchRequest req;
    req.engines = {"mem"};
    req.scenarios = std::move(scenarios);
    req.user.num = num;
    req.db_root = work_;
    req.available = testing::MemRegistry();
    req.factory = [this](std::string_view) -> Result<std::unique_ptr<Engine>> {
      last_ = std::make_shared<MemEngine>(config_);
      return std::unique_ptr<Engine>(
          std::make_unique<testing::SharedEngine>(last_));
    };
    req.progress = [this](std::string_view line) { lines_.emplace_back(line); };
    return req;
  }

  std::vector<BenchResult> Run(const BenchRequest& req) {
    auto r = RunBench(req);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (!r.ok()) return {};
    for (const BenchResult& b : *r) {
      EXPECT_EQ(b.status, RunStatus::kOk) << b.scenario << ": " << b.error;
    }
    return std::move(*r);
  }

  testing::MemEngineConfig config_;
  std::shared_ptr<MemEngine> last_;
  std::vector<std::string> lines_;
};

TEST_F(ScenarioRunTest, FillRandomLeavesSixtyThreePercentDistinct) {
  auto results = Run(Request({"fillrandom"}, 50000));
  ASSERT_EQ(results.size(), 1u);
  double distinct = static_cast<double>(last_->size()) / 50000;
  EXPECT_NEAR(distinct, 1 - std::exp(-1.0), 0.01);
  EXPECT_EQ(results[0].metrics.ops, 50000u);
  // Live data is what the model says is there: distinct keys x 116 bytes.
  EXPECT_EQ(results[0].metrics.live_data_bytes, last_->size() * 116);
  EXPECT_EQ(results[0].metrics.user_write_bytes, 50000u * 116);
}

TEST_F(ScenarioRunTest, ReadRandomAfterFillRandomAndOverwriteFinds865Percent) {
  auto results =
      Run(Request({"fillrandom,overwrite,readrandom,readmissing"}, 50000));
  ASSERT_EQ(results.size(), 4u);
  const BenchMetrics& m = results[2].metrics;
  ASSERT_TRUE(m.found && m.reads);
  EXPECT_EQ(*m.reads, 50000u);
  EXPECT_NEAR(static_cast<double>(*m.found) / *m.reads, 1 - std::exp(-2.0),
              0.01);
  EXPECT_EQ(m.message, "(" + std::to_string(*m.found) + " of 50000 found)");
  EXPECT_EQ(results[3].metrics.found, 0u);
  bool saw_line = false;
  for (const std::string& l : lines_) {
    saw_line |= l.starts_with("readrandom   : ") && l.find("found)") != l.npos;
  }
  EXPECT_TRUE(saw_line);
}

// As LevelDB's TreeDB and SQLite benchmarks time their end-of-benchmark
// synchronize / checkpoint: each write scenario runs the engine's
// FinishWriteBenchmark() once, inside its time; reads do not.
TEST_F(ScenarioRunTest, WriteScenariosTimeTheEnginesEndOfWriteWork) {
  config_.finish_writes_delay = std::chrono::milliseconds(300);
  auto results = Run(Request({"fillseq", "overwrite", "readrandom"}, 100));
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(last_->finished_write_benchmarks(), 2);
  EXPECT_GE(results[0].metrics.elapsed_ns, 300'000'000u);
  EXPECT_GE(results[1].metrics.elapsed_ns, 300'000'000u);
  EXPECT_LT(results[2].metrics.elapsed_ns, 300'000'000u);
}

TEST_F(ScenarioRunTest, SequentialScansSeeEveryKeyInOrder) {
  auto results = Run(Request({"fillseq,readseq,readreverse,readhot"}, 5000));
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[1].metrics.ops, 5000u);
  EXPECT_EQ(results[1].metrics.bytes, 5000u * 116);
  EXPECT_EQ(results[2].metrics.ops, 5000u);
  EXPECT_EQ(results[3].metrics.found, results[3].metrics.reads);
  // Scans sample latency, one step in ~256 at random, instead of timing
  // every step (or one in 32, as other cheap ops).
  ASSERT_TRUE(results[1].metrics.latency_ns);
  EXPECT_LT(results[1].metrics.latency_ns->samples, 5000u / 64);
  EXPECT_GT(results[1].metrics.latency_ns->samples, 5u);
}

TEST_F(ScenarioRunTest, DbBenchRulesForFillsyncFill100KAndBatches) {
  auto results = Run(Request({"fillsync,fill100K,fillbatch"}, 20000));
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].params.ops, 20u);  // num/1000
  EXPECT_TRUE(results[0].params.sync);
  EXPECT_EQ(results[0].metrics.message, "(20 ops)");
  EXPECT_EQ(results[1].params.value_size_bytes, 100000u);
  EXPECT_EQ(results[1].metrics.ops, 20u);
  EXPECT_EQ(results[2].params.entries_per_batch, 1000u);
  EXPECT_EQ(results[2].metrics.ops, 20000u);
  // One latency sample per engine call: 20 batches.
  EXPECT_EQ(results[2].metrics.latency_ns->samples, 20u);
}

TEST_F(ScenarioRunTest, DeletesRemoveKeys) {
  // deleterandom draws with replacement: ~e^-1 of the keys survive it.
  auto results = Run(Request({"fillseq,deleterandom,readrandom"}, 40000));
  ASSERT_EQ(results.size(), 3u);
  EXPECT_NEAR(static_cast<double>(last_->size()) / 40000, std::exp(-1.0), 0.01);
  EXPECT_NEAR(static_cast<double>(*results[2].metrics.found) / 40000,
              std::exp(-1.0), 0.01);
  EXPECT_EQ(results[1].metrics.live_data_bytes, last_->size() * 116);
  results = Run(Request({"fillseq,deleteseq"}, 4000));
  EXPECT_EQ(last_->size(), 0u);
}

TEST_F(ScenarioRunTest, SeeksCompactOpenAndReadWhileWriting) {
  auto req = Request(
      {"fillseq,seekrandom,seekordered,compact,open,readwhilewriting"}, 20000);
  req.user.threads = 2;
  auto results = Run(req);
  ASSERT_EQ(results.size(), 6u);
  EXPECT_EQ(results[1].metrics.found, results[1].metrics.reads);
  EXPECT_EQ(results[2].metrics.found, results[2].metrics.reads);
  EXPECT_EQ(last_->compactions(), 1);
  EXPECT_EQ(results[4].metrics.ops, 2u);  // num/10000 reopens
  // Two readers measured; the writer is not counted.
  EXPECT_EQ(results[5].metrics.reads, 2u * 20000);
}

TEST_F(ScenarioRunTest, CpuYardsticks) {
  auto req = Request({"crc32c,snappycomp,snappyuncomp"}, 1000);
  req.quick = true;
  req.user.num.reset();
  auto results = Run(req);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].metrics.bytes, 50u * 1048576);  // 500 MiB / 10
  EXPECT_TRUE(results[0].metrics.message.starts_with("(0x"));
  EXPECT_TRUE(results[1].metrics.message.starts_with("(output: "));
  EXPECT_FALSE(results[0].metrics.db_size_bytes);
  EXPECT_FALSE(results[0].metrics.device_write_bytes);
}

TEST_F(ScenarioRunTest, ThreadsRunTogetherAndMergeHistograms) {
  auto req = Request({"fillseq,readrandom"}, 10000);
  req.user.threads = 4;
  auto results = Run(req);
  // db_bench: every thread does the full count.
  EXPECT_EQ(results[1].metrics.ops, 40000u);
  EXPECT_EQ(results[1].metrics.latency_ns->samples, 40000u);
  EXPECT_EQ(results[1].metrics.found, 40000u);
}

TEST_F(ScenarioRunTest, NonThreadSafeEngineIsSerialised) {
  config_.thread_safe = false;
  auto req = Request({"fillrandom,readrandom"}, 5000);
  req.user.threads = 3;
  auto results = Run(req);
  EXPECT_TRUE(results[1].params.serialized);
  EXPECT_EQ(results[1].metrics.reads, 15000u);
}

TEST_F(ScenarioRunTest, HyperLevelDbChartsProduceSeries) {
  auto req = Request({"hyperleveldb"}, 8000);
  req.user.max_threads = 4;
  req.user.intervals = 8;
  auto results = Run(req);
  ASSERT_EQ(results.size(), 2u);
  ASSERT_EQ(results[0].thread_series.size(), 3u);  // 1, 2, 4 writers
  EXPECT_EQ(results[0].thread_series[2].threads, 4);
  for (const ThreadPoint& p : results[0].thread_series) {
    EXPECT_EQ(p.ops, 8000u);
    EXPECT_GT(p.ops_per_sec, 0);
  }
  EXPECT_EQ(results[0].engine_options.write_buffer_bytes(), 64u << 20);
  ASSERT_EQ(results[1].interval_series.size(), 8u);
  EXPECT_EQ(results[1].interval_series.back().ops_done, 8000u);
}

// A cold read step's reopen can start compactions whose reads and output
// would warm the page cache: they finish first, and the cache is evicted
// again before the timed reads.
TEST_F(ScenarioRunTest, ColdReadsWaitForTheReopensCompactionsThenEvictAgain) {
  config_.reopen_settle_ns = 2'500'000'000;
  auto results = Run(Request({"fillseq", "readrandom-cold"}, 2000));
  ASSERT_EQ(results.size(), 2u);
  ASSERT_TRUE(results[1].page_cache);
  EXPECT_NE(results[1].page_cache->note.find(
                "the reopen's flushes and compactions ran 2.5"),
            std::string::npos)
      << results[1].page_cache->note;
  EXPECT_NE(results[1].page_cache->note.find("evicted after them"),
            std::string::npos);
  EXPECT_EQ(last_->opens(), 3);    // the fill's, the reopen, the open after
  EXPECT_EQ(last_->settles(), 3);  // 1 s slices: 1, 1 and 0.5 s
  EXPECT_EQ(*results[1].metrics.found, *results[1].metrics.reads);
}

// The wait hears Ctrl-C between its slices.
TEST_F(ScenarioRunTest, ColdReadsStopWaitingForTheReopenOnInterrupt) {
  InstallInterruptHandlers();
  ResetInterruptForTesting();
  config_.reopen_settle_ns = 100'000'000'000;
  config_.on_settle = [](int settles) {
    if (settles == 2) raise(SIGINT);
  };
  auto r = RunBench(Request({"fillseq", "readrandom-cold"}, 2000));
  const bool interrupted = InterruptRequested();
  ResetInterruptForTesting();
  ASSERT_TRUE(interrupted);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_NE((*r)[1].status, RunStatus::kOk);
  EXPECT_NE((*r)[1].error.find("interrupted"), std::string::npos)
      << (*r)[1].error;
  EXPECT_EQ(last_->settles(), 2);
}

TEST_F(ScenarioRunTest, ColdReadsReopenOnceWhenNothingRunsInTheBackground) {
  auto results = Run(Request({"fillseq", "readrandom-cold"}, 2000));
  ASSERT_EQ(results.size(), 2u);
  ASSERT_TRUE(results[1].page_cache);
  EXPECT_EQ(results[1].page_cache->note.find("compactions"), std::string::npos);
  EXPECT_EQ(last_->opens(), 2);
  EXPECT_EQ(last_->settles(), 1);
}

TEST_F(ScenarioRunTest, UtxoPulseReadsSortedKeysAndWrites) {
  auto req = Request({"utxo-load,utxo-pulse"}, 20000);
  testing::SetPulses(&req.user, 900, 2100, 300, 2);
  req.user.threads = 2;
  auto results = Run(req);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].params.key_size_bytes, 40u);
  ASSERT_EQ(results[1].pulses.size(), 2u);
  const PulsePoint& p1 = results[1].pulses[0];
  EXPECT_EQ(p1.read_ops, 900u);
  EXPECT_EQ(p1.found, 900u);  // all keys exist before the first deletes
  EXPECT_EQ(p1.inserts, 2100u);
  EXPECT_EQ(p1.deletes, 300u);
  EXPECT_EQ(p1.threads, 2);
  ASSERT_TRUE(results[1].page_cache);
  EXPECT_EQ(results[1].page_cache->policy, "fadvise");
  EXPECT_EQ(results[1].page_cache->method, "fadvise_dontneed");
  EXPECT_FALSE(results[1].page_cache->method.empty());
  EXPECT_LE(last_->size(), 20000u + 4200);
  EXPECT_GE(last_->size(), 20000u + 4200 - 600);
  // Live bytes stay exact with variable-length values.
  uint64_t expect = 0;
  auto it = last_->NewIterator();
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    EXPECT_EQ(it->value().size(), UtxoValueLength(ParseUtxoKey(it->key())));
    expect += it->key().size() + it->value().size();
  }
  EXPECT_EQ(results[1].metrics.live_data_bytes, expect);
}

TEST_F(ScenarioRunTest, YcsbWorkloads) {
  auto req = Request({"ycsb"}, 5000);
  req.user.reads = 4000;
  auto results = Run(req);
  ASSERT_EQ(results.size(), 7u);
  EXPECT_EQ(results[0].metrics.ops, 5000u);  // load inserts every key
  const BenchResult& a = results[1];
  EXPECT_EQ(a.scenario, "ycsb-a");
  EXPECT_EQ(a.params.distribution, "zipfian");
  ASSERT_EQ(a.op_latency.size(), 2u);
  uint64_t reads = 0, updates = 0;
  for (const OpLatency& o : a.op_latency) {
    (o.op == "read" ? reads : updates) += o.ops;
  }
  EXPECT_NEAR(static_cast<double>(reads) / 4000, 0.5, 0.05);
  EXPECT_EQ(reads + updates, 4000u);
  EXPECT_EQ(a.metrics.found, a.metrics.reads);  // every key was loaded
  // D inserts about 5% new keys and reads the latest.
  EXPECT_GT(last_->size(), 5000u + 100);
  EXPECT_EQ(results[5].params.distribution, "latest");
}

}  // namespace
}  // namespace disktune::bench
