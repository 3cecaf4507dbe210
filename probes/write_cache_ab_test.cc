// --write-cache-ab on a loop device with ext4: fdatasync is faster with the
// kernel's write_cache set to "write through" than "write back", and the
// original setting is back after the probe, also after a SIGINT in the
// middle of it. Root only.
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <filesystem>
#include <iostream>
#include <thread>

#include "probes/device_journal.h"
#include "probes/durability_test_util.h"
#include "probes/environment.h"
#include "probes/loop_fs.h"
#include "probes/probe_runner.h"
#include "probes/run_probes_for_test.h"
#include "probes/write_cache.h"
#include "src/core/scratch_dir.h"
#include "src/core/signals.h"

namespace disktune {
namespace {

namespace fs = std::filesystem;
using testing_util::LoopWriteCache;

class WriteCacheAbTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why = testing_util::LoopSkipReason();
    if (!why.empty()) GTEST_SKIP() << why;
    dir_ = testing_util::MakeTempDir("wcab_test");
    ASSERT_FALSE(dir_.empty());
    // The probe records its switch in the process journal: keep it here.
    setenv("DISKTUNE_JOURNAL", JournalPath().c_str(), 1);
    ASSERT_EQ(ProcessJournal().path(), JournalPath());
    journal_ = std::make_unique<DeviceJournal>(dir_ + "/setup-journal.json");
    auto l = LoopFs::Create(dir_, "ext4", 512ull << 20, journal_.get());
    ASSERT_TRUE(l.ok()) << l.status().ToString();
    loop_ = std::move(*l);
    // The state this test needs, set on its own loop device (a machine may
    // start loop devices in either state); put back at teardown, since a
    // loop device keeps it for the next losetup of its number.
    found_ = LoopWriteCache(loop_->loop_name());
    SetLoopCache("write back");
    auto s = ScratchDir::Create(loop_->mount_point());
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    scratch_ = std::move(*s);
    env_ = CollectEnvironment(scratch_->path());
    ASSERT_TRUE(env_.device.has_value()) << env_.device_note;
  }
  void TearDown() override {
    scratch_.reset();
    if (loop_) {
      if (!found_.empty()) {
        EXPECT_TRUE(WriteSysfs("/sys/block/" + loop_->loop_name() +
                                   "/queue/write_cache",
                               found_)
                        .ok());
      }
      EXPECT_TRUE(loop_->Teardown().ok());
    }
    loop_.reset();
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  // One per process (the process journal is chosen once), removed at exit.
  static std::string JournalPath() {
    static const std::string* p = [] {
      auto* dir = new std::string(testing_util::MakeTempDir("wcab_journal"));
      std::atexit([] { fs::remove_all(JournalDir()); });
      return new std::string(*dir + "/journal.json");
    }();
    return *p;
  }
  static std::string JournalDir() {
    return fs::path(JournalPath()).parent_path().string();
  }
  void SetLoopCache(const std::string& value) {
    std::string attr =
        "/sys/block/" + loop_->loop_name() + "/queue/write_cache";
    ASSERT_TRUE(WriteSysfs(attr, value).ok());
    original_ = LoopWriteCache(loop_->loop_name());
    ASSERT_EQ(original_, value);
  }
  ProbeConfig Config() {
    ProbeConfig c = ProbeConfig::Defaults(true);
    c.write_cache_ab = true;
    c.fsync_methods = {"fdatasync"};
    c.fsync_sizes = {4096};
    c.fsync_modes = {"append"};
    c.duration_ns = 2000000000;  // 500 ms per point
    c.warmup_ns = 250000000;
    return c;
  }

  std::string dir_;
  std::unique_ptr<DeviceJournal> journal_;
  std::unique_ptr<LoopFs> loop_;
  std::string original_;
  std::string found_;  // the loop device's setting before the test
  std::unique_ptr<ScratchDir> scratch_;
  Environment env_;
};

const ProbeResult* Find(const std::vector<ProbeResult>& v,
                        const std::string& name) {
  for (const auto& r : v) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

TEST_F(WriteCacheAbTest, WriteThroughIsFasterAndTheSettingComesBack) {
  ProbeConfig c = Config();
  ProbeRunOutput out = testing::RunProbeIds({"fsync"}, c, *scratch_, env_);
  if (HasFailure()) return;
  EXPECT_EQ(LoopWriteCache(loop_->loop_name()), original_);
  EXPECT_TRUE(ProcessJournal().Load()->empty());

  const ProbeResult* back = Find(out.results, "fsync.fdatasync.4096.append");
  const ProbeResult* through =
      Find(out.results, "fsync.cache_off.fdatasync.4096.append");
  ASSERT_TRUE(back && through) << nlohmann::json(out.results).dump(2);
  ASSERT_EQ(back->status, ProbeStatus::kOk) << back->error;
  ASSERT_EQ(through->status, ProbeStatus::kOk) << through->error;
  EXPECT_EQ(back->params.extra["kernel_write_cache"], "write back");
  EXPECT_EQ(through->params.extra["kernel_write_cache"], "write through");
  EXPECT_EQ(through->params.extra["write_cache_switch_kind"],
            "kernel_write_cache");
  EXPECT_LT(through->latency_ns->p50, back->latency_ns->p50)
      << "write through p50 " << through->latency_ns->p50
      << " ns, write back p50 " << back->latency_ns->p50 << " ns";
  // No flush reaches the loop device while its kernel view is write through.
  EXPECT_EQ(through->metrics["flushes_by_device"][loop_->loop_name()], 0);
  EXPECT_GT(
      back->metrics["flushes_by_device"][loop_->loop_name()].get<uint64_t>(),
      0u);

  nlohmann::json analyses = model::AnalysesToJson(out.analyses);
  const auto& run = analyses["write_cache_ab"]["runs"][0];
  EXPECT_EQ(run["as_found"], "on");
  EXPECT_LT(run["points"][0]["off_over_on_p50"].get<double>(), 1.0);
  const auto& verdicts = analyses["durability"]["verdicts"];
  ASSERT_EQ(verdicts.size(), 2u);
  // Unsafe when the disk under the loop reports a volatile cache: the loop
  // driver then no longer fsyncs its backing file at all.
  std::string v = verdicts[1]["verdict"];
  EXPECT_TRUE(v == "kernel_write_through" || v == "unsafe_write_through") << v;
  std::cout << "loop ext4 fdatasync 4 KiB append p50: write back "
            << back->latency_ns->p50 << " ns, write through "
            << through->latency_ns->p50 << " ns\n";
}

// From the other starting state the A/B switches the cache on, and puts
// "write through" back.
TEST_F(WriteCacheAbTest, StartingWriteThroughComparesWithTheCacheOn) {
  SetLoopCache("write through");
  if (HasFatalFailure()) return;
  ProbeConfig c = Config();
  ProbeRunOutput out = testing::RunProbeIds({"fsync"}, c, *scratch_, env_);
  if (HasFailure()) return;
  EXPECT_EQ(LoopWriteCache(loop_->loop_name()), "write through");
  EXPECT_TRUE(ProcessJournal().Load()->empty());
  const ProbeResult* on =
      Find(out.results, "fsync.cache_on.fdatasync.4096.append");
  ASSERT_TRUE(on) << nlohmann::json(out.results).dump(2);
  ASSERT_EQ(on->status, ProbeStatus::kOk) << on->error;
  EXPECT_EQ(on->params.extra["kernel_write_cache"], "write back");
  ASSERT_TRUE(out.analyses.write_cache_ab);
  EXPECT_EQ(out.analyses.write_cache_ab->runs[0].as_found, "off");
}

TEST_F(WriteCacheAbTest, SigintInTheMiddleRestoresTheSetting) {
  ProbeConfig c = Config();
  c.duration_ns = 8000000000;  // long points: the interrupt lands inside one
  auto probes = SelectProbes({"fsync"});
  ASSERT_TRUE(probes.ok());
  InstallInterruptHandlers();
  ResetInterruptForTesting();
  std::atomic<bool> done{false}, sent{false};
  std::string loop = loop_->loop_name();
  std::thread killer([&] {
    while (!done) {
      if (LoopWriteCache(loop) == "write through") {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        sent = true;
        kill(getpid(), SIGINT);
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  });
  ProbeRunOutput out;
  NullProgress np;
  Status s = RunProbes(*probes, c, *scratch_, env_, &np, &out);
  done = true;
  killer.join();
  ResetInterruptForTesting();
  ASSERT_TRUE(sent) << "the switch was never seen";
  EXPECT_TRUE(s.IsAborted()) << s.ToString();
  EXPECT_EQ(LoopWriteCache(loop), original_);
  EXPECT_TRUE(ProcessJournal().Load()->empty());
}

}  // namespace
}  // namespace disktune
