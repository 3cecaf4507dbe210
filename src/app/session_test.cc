// The Session resolves the disk under --dir once; the probe step, the write
// count and the tuner's own probe use what it resolved (counted with
// ResolveDeviceCalls, so "once" is checked rather than claimed). Under
// --throttle the loop device is the one more device it resolves.
#include "src/app/session.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "engines/engine.h"
#include "probes/device_info.h"
#include "probes/probe_runner.h"
#include "src/app/probe_step.h"
#include "src/model/throttle_spec.h"
#include "src/tune/tuner.h"
#include "tests/test_support.h"

namespace disktune::app {
namespace {

namespace fs = std::filesystem;

class SessionTest : public testing::WorkDirTest {
 protected:
  SessionTest() : WorkDirTest("session_test_") {}

  std::unique_ptr<Session> Open(std::optional<ThrottleSpec> throttle = {}) {
    SessionOptions o;
    o.dir = work_ + "/dir";  // made by the session, as --dir is
    o.throttle = throttle;
    Result<std::unique_ptr<Session>> s = Session::Open(o, nullptr);
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    return s.ok() ? std::move(*s) : nullptr;
  }
};

// The same disk: both resolved, or both with the same reason.
void ExpectSameDisk(const Result<DeviceInfo>& disk, const Environment& env) {
  if (disk.ok()) {
    ASSERT_TRUE(env.device.has_value()) << env.device_note;
    EXPECT_EQ(env.device->disk, disk->disk);
    EXPECT_EQ(env.device->chain, disk->chain);
  } else {
    EXPECT_FALSE(env.device.has_value());
    EXPECT_EQ(env.device_note, disk.status().message());
  }
}

TEST_F(SessionTest, OpensTheScratchDirectoryAndResolvesItsDiskOnce) {
  const uint64_t before = ResolveDeviceCalls();
  std::unique_ptr<Session> s = Open();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(ResolveDeviceCalls() - before, 1u);
  EXPECT_EQ(fs::path(s->scratch().path()).parent_path(), work_ + "/dir");
  EXPECT_EQ(s->environment().target_dir, s->scratch().path());
  ExpectSameDisk(s->disk(), s->environment());
  EXPECT_EQ(s->throttled(), nullptr);
  // Counting what was written reads the disk it resolved.
  WriteCount from_now = s->CountWritesFromNow();
  Report report;
  from_now.Record(&report);
  s->writes_since_open().Record(&report);
  EXPECT_TRUE(s->FinishThrottle(nullptr).ok());  // none: nothing to do
  EXPECT_EQ(ResolveDeviceCalls() - before, 1u);
  const std::string made = s->scratch().path();
  s.reset();
  EXPECT_FALSE(fs::exists(made));
}

TEST_F(SessionTest, TheProbeStepMeasuresTheDeviceTheSessionResolved) {
  const uint64_t before = ResolveDeviceCalls();
  std::unique_ptr<Session> s = Open();
  ASSERT_NE(s, nullptr);
  ProbePlan plan;
  plan.config = ProbeConfig::Defaults(true);
  plan.config.file_size_bytes = 8ull << 20;
  plan.config.duration_ns = 100000000;
  plan.config.warmup_ns = 20000000;
  plan.config.buffered = true;
  plan.config.measure_with = MeasureWith::kNative;
  auto probes = SelectProbes({"seq_write"});
  ASSERT_TRUE(probes.ok()) << probes.status().ToString();
  plan.probes = *probes;
  Report report;
  Status st = RunProbeStep(plan, *s, nullptr, /*keep=*/false, &report);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_FALSE(report.probes.empty());
  ExpectSameDisk(s->disk(), report.environment);
  EXPECT_EQ(report.config["scratch_dir"], s->scratch().path());
  // The test file's space went back to the steps after it.
  EXPECT_FALSE(fs::exists(s->scratch().Join("probe.dat")));
  EXPECT_EQ(ResolveDeviceCalls() - before, 1u);
}

TEST_F(SessionTest, TheTunersProbeUsesTheSessionsEnvironment) {
  const uint64_t before = ResolveDeviceCalls();
  std::unique_ptr<Session> s = Open();
  ASSERT_NE(s, nullptr);
  tune::TuneRequest req;
  req.engine = "leveldb";
  req.available = AvailableEngines();
  req.machine_memory_bytes = 8ull << 30;
  auto w = tune::ResolveWorkload("write-heavy");
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  req.workload = *w;
  req.time_budget_ns = 120 * tune::kSecondNs;
  // No facts: the tuner probes the device first. A fake trial and clock
  // stand for the engine (tuner_test.cc), so only the probe touches disk.
  uint64_t now_ns = 1;
  req.env.now_ns = [&now_ns] { return now_ns; };
  req.env.bytes_written = [] { return uint64_t{0}; };
  req.env.trial = [&now_ns](const tune::TuneConfig&,
                            double scale) -> Result<tune::TrialScore> {
    tune::TrialScore score;
    score.elapsed_ns = static_cast<uint64_t>((1 + 10 * scale) * 1e9);
    now_ns += score.elapsed_ns;
    score.ops_per_sec = 100000;
    return score;
  };
  req.environment = s->environment();
  Result<tune::TuneResult> r = tune::RunTuner(req, s->scratch(), nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->environment.has_value());
  ExpectSameDisk(s->disk(), *r->environment);
  EXPECT_FALSE(r->probes.empty());
  EXPECT_EQ(ResolveDeviceCalls() - before, 1u);
}

// Root, a loop device and cgroup v1 blkio (or it skips with the reason).
TEST_F(SessionTest, UnderThrottleTheLoopDeviceIsTheOneMoreDevice) {
  if (geteuid() != 0) GTEST_SKIP() << "--throttle needs root";
  if (!fs::exists("/sys/fs/cgroup/blkio"))
    GTEST_SKIP() << "no cgroup v1 blkio controller at /sys/fs/cgroup/blkio";
  Result<ThrottleSpec> spec = ParseThrottle("hdd");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  const uint64_t before = ResolveDeviceCalls();
  std::unique_ptr<Session> s = Open(*spec);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(ResolveDeviceCalls() - before, 2u);
  ASSERT_NE(s->throttled(), nullptr);
  // The class is in the environment from Open, for the steps' predictions.
  ASSERT_TRUE(s->environment().throttle.has_value());
  EXPECT_EQ(s->environment().throttle->spec.class_name, "hdd");
  EXPECT_TRUE(s->environment().throttle->request_bytes.has_value());
  ASSERT_TRUE(s->environment().device.has_value());
  EXPECT_EQ(s->environment().device->chain.front().rfind("loop", 0), 0u)
      << s->environment().device->chain.front();
  // The loop device's chain ends at the disk under --dir (its image is
  // there); the session's disk is that disk itself.
  if (s->disk().ok()) {
    EXPECT_NE(s->disk()->chain.front().rfind("loop", 0), 0u);
    EXPECT_EQ(s->environment().device->disk, s->disk()->disk);
  }
  Environment env;
  Status t = s->FinishThrottle(&env);
  EXPECT_TRUE(t.ok()) << t.ToString();
  EXPECT_TRUE(env.throttle.has_value());
  EXPECT_TRUE(s->FinishThrottle(&env).ok());  // idempotent
  EXPECT_EQ(ResolveDeviceCalls() - before, 2u);
}

}  // namespace
}  // namespace disktune::app
