// Bad input and faults, on the in-memory test engine.
#include "src/bench/runner.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "src/bench/mem_engine_for_test.h"
#include "src/bench/watcher.h"
#include "src/core/signals.h"
#include "tests/test_support.h"

namespace disktune::bench {
namespace {

using testing::MemEngine;

class RunnerTest : public disktune::testing::WorkDirTest {
 protected:
  RunnerTest() : WorkDirTest("runner_test.") {}

  BenchRequest Request(std::string scenarios, int64_t num = 2000) {
    BenchRequest req;
    req.engines = {"mem"};
    req.scenarios = {std::move(scenarios)};
    req.user.num = num;
    req.db_root = work_;
    req.available = testing::MemRegistry(in_memory_mode_);
    req.factory = [this](std::string_view) -> Result<std::unique_ptr<Engine>> {
      return std::unique_ptr<Engine>(std::make_unique<MemEngine>(config_));
    };
    return req;
  }

  Status Error(const BenchRequest& req) {
    auto r = RunBench(req);
    EXPECT_FALSE(r.ok());
    return r.status();
  }

  testing::MemEngineConfig config_;
  bool in_memory_mode_ = true;
};

TEST_F(RunnerTest, UnknownScenarioListsTheValidOnes) {
  Status s = Error(Request("fillseq,readrandon"));
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("'readrandon'"), std::string::npos);
  EXPECT_NE(s.message().find("readrandom"), std::string::npos);
  EXPECT_NE(s.message().find("baseline-2011"), std::string::npos);
}

TEST_F(RunnerTest, UnknownEngineAndEngineNotBuiltIn) {
  auto req = Request("fillseq");
  req.engines = {"mongodb"};
  Status s = Error(req);
  EXPECT_NE(s.message().find("unknown engine 'mongodb'"), std::string::npos);
  EXPECT_NE(s.message().find("leveldb, rocksdb"), std::string::npos);
  req.engines = {"lmdb"};  // known to disktune, absent from this registry
  s = Error(req);
  EXPECT_NE(s.message().find("not built into this disktune"),
            std::string::npos);
  EXPECT_NE(s.message().find("available: mem"), std::string::npos);
}

TEST_F(RunnerTest, AllMeansEveryAvailableEngine) {
  auto req = Request("fillseq", 100);
  req.engines = {"all"};
  auto r = RunBench(req);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ((*r)[0].engine, "mem");
}

TEST_F(RunnerTest, ZeroAndNegativeCounts) {
  Status s = Error(Request("fillseq", 0));
  EXPECT_NE(s.message().find("--num must be >= 1, got 0"), std::string::npos);
  s = Error(Request("fillseq", -5));
  EXPECT_NE(s.message().find("got -5"), std::string::npos);
  auto req = Request("readrandom");
  req.user.reads = -1;
  EXPECT_NE(Error(req).message().find("--reads"), std::string::npos);
  req = Request("fillseq");
  req.repeat = 0;
  EXPECT_NE(Error(req).message().find("--repeat"), std::string::npos);
}

TEST_F(RunnerTest, ValueSizeZeroOrTooLarge) {
  auto req = Request("fillseq");
  req.user.value_size = 0;
  EXPECT_NE(Error(req).message().find("--value-size must be at least 1"),
            std::string::npos);
  config_.max_value_bytes = 1000;
  req.user.value_size = 1001;
  Status s = Error(req);
  EXPECT_NE(s.message().find("larger than mem allows (1000 bytes)"),
            std::string::npos);
  // fill100K's own 100,000-byte values are checked too.
  req = Request("fill100K");
  EXPECT_NE(Error(req).message().find("value size 100000"), std::string::npos);
  req.user.value_size = int64_t{1} << 40;
  EXPECT_NE(Error(req).message().find("--value-size must be <="),
            std::string::npos);
}

TEST_F(RunnerTest, AbsurdThreadCounts) {
  auto req = Request("fillseq");
  req.user.threads = 100000;
  Status s = Error(req);
  EXPECT_NE(s.message().find("--threads must be between 1 and 1024"),
            std::string::npos);
  req.user.threads = 0;
  EXPECT_EQ(Error(req).code(), Status::Code::kInvalidArgument);
}

TEST_F(RunnerTest, KeySizeTooSmallForNum) {
  auto req = Request("fillseq", 100000);
  req.user.key_size = 4;
  EXPECT_NE(Error(req).message().find("--key-size 4 cannot hold"),
            std::string::npos);
}

TEST_F(RunnerTest, ReadsOnAnEmptyDbAreAClearError) {
  auto r = RunBench(Request("readrandom"));
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 1u);
  const BenchResult& b = (*r)[0];
  EXPECT_EQ(b.status, RunStatus::kFailed);
  EXPECT_NE(b.error.find("the database is empty"), std::string::npos);
  EXPECT_NE(b.error.find("--scenario fillrandom,readrandom"),
            std::string::npos);
  // Also after everything was deleted.
  r = RunBench(Request("fillseq,deleteseq,readseq"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[2].status, RunStatus::kFailed);
}

TEST_F(RunnerTest, DiskFullMidFillGivesAPartialResultWithTheEnginesError) {
  config_.fail_after_bytes = 1000 * 116;  // room for 1000 entries
  auto r = RunBench(Request("fillseq,readrandom", 5000));
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 2u);
  const BenchResult& fill = (*r)[0];
  EXPECT_EQ(fill.status, RunStatus::kPartial);
  EXPECT_NE(fill.error.find("No space left on device"), std::string::npos);
  EXPECT_EQ(fill.metrics.ops, 1000u);
  EXPECT_EQ(fill.metrics.live_data_bytes, 1000u * 116);
  // Later steps on that engine are not run, and say why.
  EXPECT_EQ((*r)[1].status, RunStatus::kSkipped);
  EXPECT_NE((*r)[1].error.find("fillseq failed"), std::string::npos);
}

// This process's watcher processes (argv[0] "disktune-watcher").
std::vector<pid_t> WatcherProcesses() {
  std::vector<pid_t> found;
  for (const auto& task :
       std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream children(task.path() / "children");
    pid_t pid = 0;
    while (children >> pid) {
      std::ifstream cmd("/proc/" + std::to_string(pid) + "/cmdline");
      std::string argv0;
      std::getline(cmd, argv0, '\0');
      if (argv0 == "disktune-watcher") found.push_back(pid);
    }
  }
  return found;
}

// The free-space watcher process killed mid-scenario: the scenario stops at
// once with one line saying the guard is gone, rather than run on
// unguarded.
TEST_F(RunnerTest, KilledSpaceGuardStopsTheScenario) {
  Watcher::ForceProcessForTesting(true);
  int killed = 0;
  config_.on_put = [&killed](uint64_t puts) {
    if (puts != 100) return;
    for (pid_t pid : WatcherProcesses()) {
      kill(pid, SIGKILL);
      siginfo_t info{};
      // Dead, not reaped: the watcher's own Stop() reaps it.
      waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT);
      killed++;
    }
  };
  auto r = RunBench(Request("fillrandom", 200000));
  Watcher::ForceProcessForTesting(false);
  ASSERT_TRUE(r.ok());
  ASSERT_GT(killed, 0) << "no watcher process to kill";
  const BenchResult& fill = (*r)[0];
  EXPECT_EQ(fill.status, RunStatus::kPartial);
  EXPECT_NE(fill.error.find("free-space guard stopped"), std::string::npos)
      << fill.error;
  EXPECT_LT(fill.metrics.ops, 200000u);
}

TEST_F(RunnerTest, DiskFullWithThreadsStopsAllThreads) {
  config_.fail_after_bytes = 3000 * 116;
  auto req = Request("fillrandom", 5000);
  req.user.threads = 4;
  auto r = RunBench(req);
  ASSERT_TRUE(r.ok());
  const BenchResult& fill = (*r)[0];
  EXPECT_EQ(fill.status, RunStatus::kPartial);
  EXPECT_NE(fill.error.find("NoSpace"), std::string::npos);
  EXPECT_LE(fill.metrics.ops, 3000u);
}

TEST_F(RunnerTest, ReadOnlyDirectoryFailsWithTheErrorAndSkipsTheRest) {
  std::string ro = work_ + "/ro";
  std::filesystem::create_directories(ro);
  bool mounted = false;
  if (geteuid() == 0) {
    // chmod does not stop root: use a read-only mount instead.
    mounted = mount("tmpfs", ro.c_str(), "tmpfs", MS_RDONLY, "size=1m") == 0;
    if (!mounted) GTEST_SKIP() << "cannot mount a read-only tmpfs";
  } else {
    std::filesystem::permissions(ro, std::filesystem::perms::owner_read |
                                         std::filesystem::perms::owner_exec);
  }
  auto req = Request("fillseq,readrandom");
  req.db_root = ro + "/scratch";
  auto r = RunBench(req);
  if (mounted) umount(ro.c_str());
  std::filesystem::permissions(ro, std::filesystem::perms::owner_all);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].status, RunStatus::kFailed);
  EXPECT_NE((*r)[0].error.find(mounted ? "Read-only file system"
                                       : "Permission denied"),
            std::string::npos)
      << (*r)[0].error;
  EXPECT_EQ((*r)[1].status, RunStatus::kSkipped);
}

TEST_F(RunnerTest, InMemorySetIsSkippedWithoutAnInMemoryMode) {
  in_memory_mode_ = false;
  auto req = Request("inmemory", 2000);
  auto r = RunBench(req);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 7u);
  for (const BenchResult& b : *r) {
    EXPECT_EQ(b.status, RunStatus::kSkipped);
    EXPECT_NE(b.error.find("no in-memory mode"), std::string::npos);
  }
  in_memory_mode_ = true;
  r = RunBench(Request("inmemory", 2000));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].status, RunStatus::kOk);
  EXPECT_TRUE((*r)[0].engine_options.in_memory);
  EXPECT_EQ((*r)[4].params.num, 400u);  // 200K of 1M
  EXPECT_EQ((*r)[6].params.ops, 400u);  // 200K into a DB of 1M
}

TEST_F(RunnerTest, RepeatsGiveMedianRangeAndInterval) {
  auto req = Request("fillseq,readrandom", 2000);
  req.repeat = 3;
  std::vector<std::string> lines;
  req.progress = [&](std::string_view l) { lines.emplace_back(l); };
  auto r = RunBench(req);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 2u);
  for (const BenchResult& b : *r) {
    ASSERT_TRUE(b.repeats) << b.scenario;
    EXPECT_EQ(b.repeats->count, 3);
    EXPECT_EQ(b.repeats->ops_per_sec.values.size(), 3u);
    EXPECT_LE(b.repeats->ops_per_sec.min, b.repeats->ops_per_sec.median);
    EXPECT_GE(b.repeats->ops_per_sec.max, b.repeats->ops_per_sec.median);
    EXPECT_TRUE(b.repeats->ops_per_sec.ci95_low);
  }
  int medians = 0;
  for (const std::string& l : lines)
    medians += l.find("(median of 3)") != l.npos;
  EXPECT_EQ(medians, 2);
}

TEST_F(RunnerTest, SetValuesYieldToExplicitFlags) {
  auto plan = PlanBench(Request("baseline-2011", 1000));
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->steps[0].params.engine.cache_bytes(), 4u << 20);
  auto req = Request("baseline-2011", 1000);
  req.user.knobs.Set(KnobId::kCacheBytes, 64 << 20);
  plan = PlanBench(req);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->steps[0].params.engine.cache_bytes(), 64u << 20);
  // large-values: 100,000-byte values, num/1000 writes over the same keys.
  plan = PlanBench(Request("large-values", 1000000));
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->steps[0].params.value_size, 100000u);
  EXPECT_EQ(plan->steps[0].params.Writes(), 1000u);
  EXPECT_EQ(plan->steps[1].params.num, 1000000u);
}

TEST_F(RunnerTest, QuickScalesTheDefaults) {
  auto req = Request("baseline-2011");
  req.user.num.reset();
  req.quick = true;
  auto plan = PlanBench(req);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->steps[0].params.num, kQuickNum);
  EXPECT_EQ(plan->steps[1].params.Writes(), kQuickNum / 1000);  // fillsync
  req.quick = false;
  plan = PlanBench(req);
  EXPECT_EQ(plan->steps[0].params.num, kDefaultNum);
}

TEST_F(RunnerTest, InterruptMarksThePartialResultAndStops) {
  InstallInterruptHandlers();
  ResetInterruptForTesting();
  config_.on_put = [](uint64_t puts) {
    if (puts == 500) raise(SIGINT);
  };
  auto r = RunBench(Request("fillseq,readrandom", 5000));
  bool interrupted = InterruptRequested();
  ResetInterruptForTesting();
  ASSERT_TRUE(interrupted);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 1u);  // readrandom never started
  EXPECT_EQ((*r)[0].status, RunStatus::kPartial);
  EXPECT_NE((*r)[0].error.find("interrupted"), std::string::npos);
  EXPECT_EQ((*r)[0].metrics.ops, 500u);
}

TEST_F(RunnerTest, ResultsRecordProcessFigures) {
  auto r = RunBench(Request("fillseq", 20000));
  ASSERT_TRUE(r.ok());
  const BenchMetrics& m = (*r)[0].metrics;
  EXPECT_TRUE(m.cpu_user_ns);
  EXPECT_TRUE(m.cpu_system_ns);
  EXPECT_TRUE(m.peak_rss_bytes);
  EXPECT_TRUE(m.db_size_bytes);
  EXPECT_EQ(m.live_data_bytes, 20000u * 116);
  EXPECT_TRUE(m.space_amplification);
  EXPECT_EQ((*r)[0].engine_stats, "mem: 20000 keys");
  EXPECT_EQ((*r)[0].params.seed, kDefaultSeed);
}

}  // namespace
}  // namespace disktune::bench
