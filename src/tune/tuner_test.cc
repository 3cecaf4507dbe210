// The whole tuner driven by a fake trial function and a fake clock: every
// phase (calibrate, search, knob check, A/B, judge, explain) runs in
// milliseconds and deterministically, so the tuner's decisions are tested,
// not only its parts.
#include "src/tune/tuner.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "src/core/scratch_dir.h"

namespace disktune::tune {
namespace {

namespace fs = std::filesystem;

// A machine where a trial costs 2 s + 20 s x scale of budget time and the
// throughput is a fixed function of the config: the fake's "engine".
class FakeMachine {
 public:
  using Speed = std::function<double(const TuneConfig&)>;
  explicit FakeMachine(Speed speed) : speed_(std::move(speed)) {}

  TuneEnv Env() {
    TuneEnv env;
    env.now_ns = [this] { return now_ns_; };
    env.bytes_written = [] { return uint64_t{0}; };
    env.trial = [this](const TuneConfig& c,
                       double scale) -> Result<TrialScore> {
      uint64_t cost = static_cast<uint64_t>((2 + 20 * scale) * 1e9);
      now_ns_ += cost;
      trials_++;
      TrialScore s;
      s.ops_per_sec = speed_(c);
      s.elapsed_ns = cost;
      return s;
    };
    return env;
  }
  int trials() const { return trials_; }

 private:
  Speed speed_;
  uint64_t now_ns_ = 1;
  int trials_ = 0;
};

class TunerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl =
        fs::temp_directory_path().string() + "/tuner_test_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
    auto s = ScratchDir::Create(root_ + "/scratch", "--dir");
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    scratch_ = std::move(*s);
  }
  void TearDown() override {
    scratch_.reset();
    std::error_code ec;
    fs::remove_all(root_, ec);
  }

  TuneRequest Request(const std::string& workload, FakeMachine& m) {
    TuneRequest req;
    req.engine = "leveldb";
    req.available = AvailableEngines();
    req.machine_memory_bytes = 8ull << 30;
    auto w = ResolveWorkload(workload);
    EXPECT_TRUE(w.ok()) << w.status().ToString();
    req.workload = *w;
    req.memory_budget_bytes = 128 * kMiB;
    req.time_budget_ns = 600 * kSecondNs;
    DeviceFacts f;
    f.source = "test";
    f.rand_read_4k_p50_ns = 100000;
    f.rand_read_4k_p99_ns = 200000;
    f.seq_write_bytes_per_sec = 200e6;
    req.facts = f;
    req.env = m.Env();
    return req;
  }

  std::string root_;
  std::unique_ptr<ScratchDir> scratch_;
};

const KnobEvidence* Evidence(const TuneResult& r, std::string_view knob) {
  for (const KnobEvidence& e : r.knobs) {
    if (e.knob.name() == knob) return &e;
  }
  return nullptr;
}

TEST_F(TunerTest, AKnobThatPaysIsRecommendedAndPassengersAreNot) {
  // Bloom filters make the fake 30% faster; nothing else changes anything.
  FakeMachine m([](const TuneConfig& c) {
    return c.bloom_bits_per_key > 0 ? 130000.0 : 100000.0;
  });
  TuneRequest req = Request("read-heavy", m);
  auto r = RunTuner(req, *scratch_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->significant) << r->verdict;
  EXPECT_GT(r->recommendation.bloom_bits_per_key, 0);
  const KnobEvidence* bloom = Evidence(*r, "bloom_bits_per_key");
  ASSERT_NE(bloom, nullptr);
  EXPECT_TRUE(bloom->status == "won" || bloom->status == "won_jointly")
      << bloom->status;
  // Every other knob the search changed bought nothing: not recommended.
  for (const KnobEvidence& e : r->knobs) {
    if (e.knob.name() == "bloom_bits_per_key" || e.status == "rule") continue;
    EXPECT_FALSE(KnobDiffers(r->recommendation, r->baseline, e.knob))
        << e.knob.name() << " " << e.status;
  }
  ASSERT_TRUE(r->verification.has_value());
  EXPECT_GE(r->verification->gain.repeats, kMinRepeats);
  EXPECT_NEAR(r->verification->gain.median, 1.3, 1e-9);
  // The budget was used but not overrun (the fake clock is the budget's).
  EXPECT_LE(r->elapsed_ns, req.time_budget_ns);
  EXPECT_GT(m.trials(), 10);
}

TEST_F(TunerTest, WhenNothingPaysTheDefaultsStay) {
  FakeMachine m([](const TuneConfig&) { return 100000.0; });
  TuneRequest req = Request("read-heavy", m);
  auto r = RunTuner(req, *scratch_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FALSE(r->significant);
  EXPECT_EQ(r->recommendation, r->baseline);
  EXPECT_NE(r->verdict.find("keep the defaults"), std::string::npos)
      << r->verdict;
}

TEST_F(TunerTest, TheSameInputsGiveTheSameTune) {
  auto speed = [](const TuneConfig& c) {
    return 100000.0 * (c.bloom_bits_per_key > 0 ? 1.2 : 1.0) *
           (c.compression == Compression::kNone ? 1.1 : 1.0);
  };
  FakeMachine a(speed), b(speed);
  auto ra = RunTuner(Request("read-heavy", a), *scratch_, nullptr);
  auto rb = RunTuner(Request("read-heavy", b), *scratch_, nullptr);
  ASSERT_TRUE(ra.ok() && rb.ok());
  EXPECT_EQ(ra->recommendation, rb->recommendation);
  EXPECT_EQ(ra->search.trials, rb->search.trials);
  EXPECT_EQ(a.trials(), b.trials());
}

}  // namespace
}  // namespace disktune::tune
