// The whole tuner driven by a fake trial function and a fake clock: every
// phase (calibrate, search, knob check, A/B, judge, explain) runs in
// milliseconds and deterministically, so the tuner's decisions are tested,
// not only its parts.
#include "src/tune/tuner.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include "src/core/scratch_dir.h"
#include "src/tune/fidelity.h"
#include "src/tune/predictor_model.h"
#include "tests/test_support.h"

namespace disktune::tune {
namespace {

namespace fs = std::filesystem;

// A machine where a trial costs 2 s + 20 s x scale of budget time and the
// throughput is a fixed function of the config: the fake's "engine".
class FakeMachine {
 public:
  using Speed = std::function<double(const TuneConfig&)>;
  // The throughput of a config at a scale (a copy's size matters).
  using SpeedAt = std::function<double(const TuneConfig&, double scale)>;
  // `noise`: each trial's throughput is off by up to this share, from a
  // fixed sequence (the same every run).
  // `seed` shifts where in the sequence the trials start.
  explicit FakeMachine(Speed speed, double noise = 0, int seed = 0)
      : speed_([speed](const TuneConfig& c, double) { return speed(c); }),
        noise_(noise),
        seed_(seed) {}
  explicit FakeMachine(SpeedAt speed) : speed_(std::move(speed)) {}
  // What a trial at a scale writes (default: nothing).
  void WritesAt(std::function<uint64_t(double scale)> bytes) {
    bytes_at_ = std::move(bytes);
  }

  // Every trial after the first `trials` takes `factor` times as long (a
  // machine that slows down mid-tune).
  void SlowAfter(int trials, double factor) {
    slow_after_ = trials;
    slow_factor_ = factor;
  }

  // Every trial ends removing its copy, which takes `seconds` after its
  // run (default none).
  void CleanupIs(double seconds) { cleanup_s_ = seconds; }
  // The clock moves on by `seconds` (the caller's work before the tune).
  void Advance(double seconds) {
    now_ns_ += static_cast<uint64_t>(seconds * 1e9);
  }

  TuneEnv Env() {
    TuneEnv env;
    env.now_ns = [this] { return now_ns_; };
    env.bytes_written = [this] { return bytes_; };
    env.trial = [this](const TuneConfig& c,
                       double scale) -> Result<TrialScore> {
      const double slow = trials_ >= slow_after_ ? slow_factor_ : 1.0;
      const uint64_t cleanup = static_cast<uint64_t>(cleanup_s_ * 1e9);
      uint64_t cost =
          static_cast<uint64_t>(slow * (fixed_s_ + per_scale_s_ * scale) * 1e9);
      seen_.push_back({c, scale});
      now_ns_ += cost + cleanup;
      if (bytes_at_) bytes_ += bytes_at_(scale);
      trials_++;
      TrialScore s;
      // A fixed pseudo-random sequence in [-1, 1].
      double u =
          std::sin(static_cast<double>(trials_ + seed_) * 12.9898) * 43758.5453;
      u = 2 * (u - std::floor(u)) - 1;
      s.ops_per_sec = speed_(c, scale) * (1 + noise_ * u);
      s.elapsed_ns = cost;
      s.cleanup_ns = cleanup;
      return s;
    };
    return env;
  }
  int trials() const { return trials_; }
  // A trial costs `fixed_s` + `per_scale_s` x scale (default 2 + 20).
  void CostIs(double fixed_s, double per_scale_s) {
    fixed_s_ = fixed_s;
    per_scale_s_ = per_scale_s;
  }
  // Every trial run: the full-size config and the scale.
  const std::vector<std::pair<TuneConfig, double>>& seen() const {
    return seen_;
  }

 private:
  double fixed_s_ = 2;
  double per_scale_s_ = 20;
  double cleanup_s_ = 0;
  std::vector<std::pair<TuneConfig, double>> seen_;
  SpeedAt speed_;
  std::function<uint64_t(double)> bytes_at_;
  double noise_ = 0;
  int seed_ = 0;
  int slow_after_ = std::numeric_limits<int>::max();
  double slow_factor_ = 1.0;
  uint64_t now_ns_ = 1;
  uint64_t bytes_ = 0;
  int trials_ = 0;
};

class TunerTest : public testing::ScratchDirTest {
 protected:
  TunerTest()
      : ScratchDirTest("tuner_test_", fs::temp_directory_path().string()) {}

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
  // RocksDB on `workload` with a time budget of `seconds`.
  TuneRequest RocksDb(const std::string& workload, FakeMachine& m,
                      uint64_t seconds) {
    TuneRequest req = Request(workload, m);
    req.engine = "rocksdb";
    req.time_budget_ns = seconds * kSecondNs;
    return req;
  }
};

const KnobEvidence* Evidence(const TuneResult& r, std::string_view knob) {
  for (const KnobEvidence& e : r.knobs) {
    if (e.knob.name() == knob) return &e;
  }
  return nullptr;
}

bool HasNote(const TuneResult& r, std::string_view text) {
  for (const std::string& n : r.notes) {
    if (n.find(text) != std::string::npos) return true;
  }
  return false;
}

// No compression worth 1.4x and a bloom filter worth `filter`, nothing else
// worth anything, under 12% trial noise starting at `seed`.
FakeMachine NoCompressionAndFilter(double filter, int seed = 0) {
  return FakeMachine(
      [filter](const TuneConfig& c) {
        return 100000.0 * (c.compression() == Compression::kNone ? 1.4 : 1.0) *
               (c.bloom_bits_per_key() > 0 ? filter : 1.0);
      },
      0.12, seed);
}

TEST_F(TunerTest, AKnobThatPaysIsRecommendedAndPassengersAreNot) {
  // Bloom filters make the fake 30% faster; nothing else changes anything.
  FakeMachine m([](const TuneConfig& c) {
    return c.bloom_bits_per_key() > 0 ? 130000.0 : 100000.0;
  });
  TuneRequest req = Request("read-heavy", m);
  auto r = RunTuner(req, *scratch_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->significant) << r->verdict;
  EXPECT_GT(r->recommendation.bloom_bits_per_key(), 0);
  const KnobEvidence* bloom = Evidence(*r, "bloom_bits_per_key");
  ASSERT_NE(bloom, nullptr);
  EXPECT_EQ(bloom->outcome, model::KnobOutcome::kWon);
  EXPECT_NE(bloom->evidence, model::KnobProof::kNone);
  // Every other knob the search changed bought nothing: not recommended.
  for (const KnobEvidence& e : r->knobs) {
    if (e.knob.name() == "bloom_bits_per_key" ||
        e.outcome == model::KnobOutcome::kRule)
      continue;
    EXPECT_FALSE(KnobDiffers(r->recommendation, r->baseline, e.knob))
        << e.knob.name() << " " << model::KnobOutcomeName(e.outcome);
  }
  ASSERT_TRUE(r->verification.has_value());
  EXPECT_GE(r->verification->gain.repeats, kMinRepeats);
  EXPECT_NEAR(r->verification->gain.median, 1.3, 1e-9);
  // The budget was used but not overrun (the fake clock is the budget's).
  EXPECT_LE(r->elapsed_ns, req.time_budget_ns);
  EXPECT_GT(m.trials(), 10);
}

// Every changed knob the tune recommends has evidence of its own and a
// gain whose interval lies above 1 (the final A/B's when it was the only
// one); none rides along with the others.
void ExpectNoPassengers(const TuneResult& r) {
  for (const KnobEvidence& e : r.knobs) {
    if (!KnobDiffers(r.recommendation, r.baseline, e.knob)) continue;
    if (e.outcome == model::KnobOutcome::kRule) continue;
    EXPECT_EQ(e.outcome, model::KnobOutcome::kWon) << e.knob.name();
    EXPECT_TRUE(e.evidence == model::KnobProof::kLeaveOneOut ||
                e.evidence == model::KnobProof::kOwnAb)
        << e.knob.name() << " " << model::KnobProofName(e.evidence);
    ASSERT_TRUE(e.gain.has_value()) << e.knob.name();
    EXPECT_TRUE(e.gain->significant()) << e.knob.name();
  }
}

TEST_F(TunerTest, OfTwoKnobsThatDoTheSameJobOneIsRecommended) {
  // Bloom filters and no compression each make the fake 25% faster, both
  // together no faster than either: leave-one-out finds neither needed,
  // their own A/Bs both win, and only one is recommended.
  FakeMachine m(
      [](const TuneConfig& c) {
        bool bloom = c.bloom_bits_per_key() > 0;
        bool none = c.compression() == Compression::kNone;
        return (bloom || none ? 125000.0 : 100000.0) *
               (bloom && none ? 1.005 : 1);
      },
      0.03);
  TuneRequest req = Request("read-heavy", m);
  // The phases plan with 600 s; the rest is kept for the final steps.
  req.time_budget_ns += kFinalStepsNs;
  auto r = RunTuner(req, *scratch_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->winner.bloom_bits_per_key() > 0 &&
              r->winner.compression() == Compression::kNone)
      << "the search's winner should change both: " << ConfigText(r->winner);
  EXPECT_TRUE(r->significant) << r->verdict;
  int kept = (r->recommendation.bloom_bits_per_key() > 0 ? 1 : 0) +
             (r->recommendation.compression() == Compression::kNone ? 1 : 0);
  EXPECT_EQ(kept, 1) << ConfigText(r->recommendation);
  ExpectNoPassengers(*r);
  const KnobEvidence* none = Evidence(*r, "compression");
  const KnobEvidence* bloom = Evidence(*r, "bloom_bits_per_key");
  ASSERT_TRUE(none && bloom);
  EXPECT_TRUE(none->evidence == model::KnobProof::kOwnAb ||
              bloom->evidence == model::KnobProof::kOwnAb);
}

TEST_F(TunerTest, ACompressionThatLosesAloneIsNotRecommendedJointly) {
  // `run --quick` once recommended compression "none" as "won jointly"
  // while it measured 0.86x alone. Here "none" costs 14% alone and nothing
  // beside the bloom filter or the smaller block, which do the same job.
  FakeMachine m([](const TuneConfig& c) {
    bool bloom = c.bloom_bits_per_key() > 0;
    bool none = c.compression() == Compression::kNone;
    bool helped = bloom || c.block_size_bytes() != 4096;
    return 100000.0 * (helped ? 1.3 : 1.0) * (none && !helped ? 0.86 : 1.0);
  });
  auto r = RunTuner(Request("read-heavy", m), *scratch_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_NE(r->recommendation.compression(), Compression::kNone)
      << ConfigText(r->recommendation);
  ExpectNoPassengers(*r);
  const KnobEvidence* none = Evidence(*r, "compression");
  ASSERT_NE(none, nullptr);
  if (none->gain && none->evidence == model::KnobProof::kNone &&
      KnobDiffers(r->winner, r->baseline, none->knob)) {
    EXPECT_EQ(none->outcome, model::KnobOutcome::kNoGain);
  }
}

TEST_F(TunerTest, ForReadsTheKnobCheckRunsMoreRoundsAndANoiseKnobStaysOut) {
  // No compression is worth 1.4x and a bloom filter 1.08x; the block size
  // nothing, yet under this trial noise the search's winner carries 16 KiB
  // blocks. Reads are scored, so the check's copies are fitted for
  // kReadKnobRounds rounds, not kMinRepeats: the knobs that pay win in
  // them, and the blocks, within the noise, stay out.
  FakeMachine m = NoCompressionAndFilter(1.08, /*seed=*/20);
  TuneRequest req = Request("read-heavy", m);
  // The phases plan with 900 s; the rest is kept for the final steps.
  req.time_budget_ns = 900 * kSecondNs + kFinalStepsNs;
  auto r = RunTuner(req, *scratch_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_NE(r->winner.block_size_bytes(), r->baseline.block_size_bytes())
      << ConfigText(r->winner);
  const KnobEvidence* block = Evidence(*r, "block_size_bytes");
  ASSERT_NE(block, nullptr);
  ASSERT_TRUE(block->gain.has_value());
  EXPECT_GE(block->gain->repeats, kReadKnobRounds);
  EXPECT_EQ(block->outcome, model::KnobOutcome::kNoGain);
  EXPECT_EQ(r->recommendation.block_size_bytes(),
            r->baseline.block_size_bytes());
  for (std::string_view k : {"compression", "bloom_bits_per_key"}) {
    const KnobEvidence* e = Evidence(*r, k);
    ASSERT_TRUE(e && e->gain) << k;
    EXPECT_EQ(e->gain->repeats, kReadKnobRounds) << k;
    EXPECT_EQ(e->outcome, model::KnobOutcome::kWon) << k;
  }
  ExpectNoPassengers(*r);
}

TEST_F(TunerTest, ForReadsAnUndecidedKnobGetsRoundsPastThePlannedOnes) {
  // No compression is worth 1.4x and a bloom filter 1.04x, under noise the
  // check's kReadKnobRounds rounds cannot separate from it. With 1200 s the
  // A/B's preferred pairs still fit after more: the filter, undecided, gets
  // them (the extra-rounds rule holds past the planned rounds too).
  FakeMachine m = NoCompressionAndFilter(1.04);
  TuneRequest req = Request("read-heavy", m);
  req.time_budget_ns = 1200 * kSecondNs;
  auto r = RunTuner(req, *scratch_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_GT(r->winner.bloom_bits_per_key(), 0) << ConfigText(r->winner);
  EXPECT_TRUE(HasNote(*r, "more round(s) for bloom_bits_per_key"));
  const KnobEvidence* bloom = Evidence(*r, "bloom_bits_per_key");
  ASSERT_TRUE(bloom && bloom->gain);
  EXPECT_GT(bloom->gain->repeats, kReadKnobRounds);
  const KnobEvidence* none = Evidence(*r, "compression");
  ASSERT_TRUE(none && none->gain);
  EXPECT_EQ(none->gain->repeats, kReadKnobRounds);
  EXPECT_EQ(none->outcome, model::KnobOutcome::kWon);
  ExpectNoPassengers(*r);
}

TEST_F(TunerTest, ReadsRunThePlannedKnobRoundsAndNoMoreBeforeTheAb) {
  // The machine above, from the start of its noise sequence, with the
  // default 600 s: the check runs the rounds its copies were fitted for,
  // which keep only the A/B's minimum, and none past them, which wait for
  // the A/B's kPreferredAbRepeats pairs (here they do not fit): the
  // undecided block size stays out all the same, and the A/B runs its
  // preferred pairs.
  FakeMachine m = NoCompressionAndFilter(1.08);
  auto r = RunTuner(Request("read-heavy", m), *scratch_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_NE(r->winner.block_size_bytes(), r->baseline.block_size_bytes())
      << ConfigText(r->winner);
  EXPECT_TRUE(HasNote(*r, "could not separate block_size_bytes"));
  EXPECT_FALSE(HasNote(*r, "more round(s)"));
  const KnobEvidence* block = Evidence(*r, "block_size_bytes");
  ASSERT_TRUE(block && block->gain);
  EXPECT_EQ(block->gain->repeats, kReadKnobRounds);
  ASSERT_TRUE(r->verification.has_value());
  // The A/B takes its preferred pairs before a larger copy (reads).
  EXPECT_GE(r->verification->baseline_ops_per_sec.size(),
            static_cast<size_t>(kPreferredAbRepeats));
  EXPECT_EQ(r->recommendation.block_size_bytes(),
            r->baseline.block_size_bytes());
  ExpectNoPassengers(*r);
}

TEST_F(TunerTest, WhileNoKnobHasWonTheCheckMayUseTheAbsPreferredReserve) {
  // No compression is worth 1.08x, under noise that three rounds
  // cannot separate from it, and nothing else is worth anything. With no
  // knob won, the A/B runs only if more rounds make one win, so they may
  // use the time down to the A/B's minimum; with the preferred pairs set
  // aside instead, the check stopped at three rounds and the defaults
  // stayed with the time unused.
  FakeMachine m(
      [](const TuneConfig& c) {
        return 100000.0 * (c.compression() == Compression::kNone ? 1.08 : 1.0);
      },
      0.10, /*seed=*/4);
  TuneRequest req = Request("write-heavy", m);
  // Deep enough that the check's copies judge the write buffers too
  // (fidelity.h): no changed knob is kept without the check.
  req.data_size_bytes = 1 * kGiB;
  auto r = RunTuner(req, *scratch_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_NE(r->winner.compression(), r->baseline.compression())
      << ConfigText(r->winner);
  EXPECT_TRUE(HasNote(*r, "more round(s) for compression"));
  ExpectNoPassengers(*r);
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

// A progress sink that keeps each step's estimate of the time left, with
// the fake machine's clock when it was given.
class RecordingProgress : public ProgressSink {
 public:
  explicit RecordingProgress(TuneEnv env) : env_(std::move(env)) {}
  void Step(const std::string&, int, int, uint64_t remaining_ns) override {
    steps.push_back({env_.now_ns(), remaining_ns});
  }
  void Warn(const std::string&) override {}
  void Info(const std::string&) override {}
  std::vector<std::pair<uint64_t, uint64_t>> steps;  // {now, left}

 private:
  TuneEnv env_;
};

// Each trial's progress line says how long the tune has left: the time
// budget's rest, which the tune never overruns, so the line never promises
// an end sooner than the real one, and the tune uses most of its budget.
TEST_F(TunerTest, EveryTrialLineEstimatesTheTimeLeft) {
  FakeMachine m([](const TuneConfig& c) {
    return c.bloom_bits_per_key() > 0 ? 130000.0 : 100000.0;
  });
  TuneRequest req = Request("read-heavy", m);
  RecordingProgress progress(req.env);
  const uint64_t start = req.env.now_ns();
  auto r = RunTuner(req, *scratch_, &progress);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_GT(progress.steps.size(), 10u);
  const uint64_t end = start + r->elapsed_ns;
  for (const auto& [now, left] : progress.steps) {
    EXPECT_GT(left, 0u);
    EXPECT_LE(left, req.time_budget_ns);
    EXPECT_GE(now + left, end) << "an estimate ended before the tune did";
    // And it ends within 30% of the tune's time after the real end (the
    // progress-estimate rule: README, "Reading the progress lines").
    EXPECT_LE(now + left - end, 0.3 * static_cast<double>(r->elapsed_ns));
  }
}

// The block cache's line says where its size came from: a workload that
// never reads keeps the default cache and leaves the rest of the budget
// unused, which the line states instead of calling the cache the budget's
// rest; one whose reads outgrow the budget gets the rest.
TEST_F(TunerTest, TheCacheLineSaysWhereTheCacheSizeCameFrom) {
  // Larger write buffers pay, so a changed config is recommended.
  FakeMachine m([](const TuneConfig& c) {
    return c.write_buffer_bytes() >= 16 * kMiB ? 130000.0 : 100000.0;
  });
  TuneRequest req = Request("write-heavy", m);
  auto r = RunTuner(req, *scratch_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->significant) << r->verdict;
  std::string line;
  for (const std::string& l : r->explanation) {
    if (l.starts_with("  block cache")) line = l;
  }
  EXPECT_NE(line.find("capped by the cache rule"), std::string::npos) << line;
  EXPECT_NE(line.find("of the budget stays unused"), std::string::npos) << line;
  EXPECT_EQ(line.find("what the budget leaves"), std::string::npos) << line;
  EXPECT_LT(r->memory.total_bytes() + kMiB, req.memory_budget_bytes);
  // The memory stated is the recommended cache's, with its own entries'
  // overhead (LevelDB: about 200 bytes per 4 KiB block), not the room's.
  EXPECT_EQ(r->memory.cache_bytes, r->recommendation.cache_bytes());
  EXPECT_LT(r->memory.cache_bytes, r->memory.cache_room_bytes);
  EXPECT_NEAR(static_cast<double>(r->memory.cache_overhead_bytes),
              static_cast<double>(r->memory.cache_bytes) * 200.0 /
                  static_cast<double>(r->recommendation.block_size_bytes()),
              2.0);

  // A read-heavy working set larger than the budget: the cache takes the
  // rest, and the line says so.
  FakeMachine reads([](const TuneConfig& c) {
    return c.bloom_bits_per_key() > 0 ? 130000.0 : 100000.0;
  });
  req = Request("read-heavy", reads);
  r = RunTuner(req, *scratch_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->significant) << r->verdict;
  for (const std::string& l : r->explanation) {
    if (l.starts_with("  block cache")) line = l;
  }
  EXPECT_NE(line.find("what the budget leaves after"), std::string::npos)
      << line;
  EXPECT_EQ(line.find("capped"), std::string::npos) << line;
}

TEST_F(TunerTest, ThePlanIsStatedAndAnEarlyEndSaysWhatWasNotTried) {
  FakeMachine m([](const TuneConfig& c) {
    return c.bloom_bits_per_key() > 0 ? 130000.0 : 100000.0;
  });
  TuneRequest req = Request("read-heavy", m);
  // A full-size trial costs 22 s of the fake's clock: with an hour,
  // everything fits at full size and the tune ends early.
  req.time_budget_ns = 3600 * kSecondNs;
  auto r = RunTuner(req, *scratch_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(HasNote(*r, "plan: of ")) << r->notes.front();
  EXPECT_TRUE(HasNote(*r, "full-size trials fit"));
  ASSERT_TRUE(r->verification.has_value());
  EXPECT_EQ(r->verification->scale, 1.0);
  EXPECT_LT(r->elapsed_ns, req.time_budget_ns * 8 / 10);
  EXPECT_TRUE(HasNote(*r, "finished in "));

  // 100 s: no full-size trial fits the A/B's share; the plan says
  // what one costs.
  FakeMachine m2([](const TuneConfig&) { return 100000.0; });
  TuneRequest req2 = Request("read-heavy", m2);
  req2.time_budget_ns = 100 * kSecondNs;
  auto r2 = RunTuner(req2, *scratch_, nullptr);
  ASSERT_TRUE(r2.ok()) << r2.status().ToString();
  EXPECT_TRUE(HasNote(*r2, "a full-size trial costs ~"));
}

TEST_F(TunerTest, ABudgetTooSmallForTheDataIsRefused) {
  // 10 GiB of data has more index blocks than 16 MiB holds: nothing the
  // tuner could emit would fit, so it says so before any trial.
  FakeMachine m([](const TuneConfig&) { return 100000.0; });
  TuneRequest req = Request("read-heavy", m);
  req.memory_budget_bytes = 16 * kMiB;
  req.data_size_bytes = 10 * kGiB;
  auto r = RunTuner(req, *scratch_, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument)
      << r.status().ToString();
  EXPECT_NE(r.status().message().find("too small"), std::string::npos)
      << r.status().ToString();
  EXPECT_EQ(m.trials(), 0);
}

TEST_F(TunerTest, ARocksDbOwnKnobThatPaysIsRecommended) {
  // Four memtables make the fake RocksDB 30% faster on writes; the search
  // measures them (the rule leaves 4 and 2), and the recommendation carries
  // a knob LevelDB does not have.
  int own_seen = 0;
  FakeMachine m([&](const TuneConfig& c) {
    if (c.Get(KnobId::kMaxWriteBufferNumber).value_or(2) != 2) own_seen++;
    return c.Get(KnobId::kMaxWriteBufferNumber) == 4 ? 130000.0 : 100000.0;
  });
  TuneRequest req = Request("write-heavy", m);
  req.engine = "rocksdb";
  req.memory_budget_bytes = 512 * kMiB;
  // A fast disk: the write-buffer rule starts at an eighth of the budget,
  // which leaves room for four of them in half of it.
  req.facts->seq_write_bytes_per_sec = 2e9;
  req.time_budget_ns = 1200 * kSecondNs;
  auto r = RunTuner(req, *scratch_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_GT(own_seen, 0);
  EXPECT_TRUE(r->significant) << r->verdict;
  EXPECT_EQ(r->recommendation.Get(KnobId::kMaxWriteBufferNumber), 4)
      << ConfigText(r->recommendation);
  const KnobEvidence* e = Evidence(*r, "max_write_buffer_number");
  ASSERT_NE(e, nullptr);
  // Won in the knob check, or judged by the A/B when the check's copies
  // are not faithful for the memtables (fidelity.h).
  EXPECT_TRUE(e->outcome == model::KnobOutcome::kWon ||
              e->outcome == model::KnobOutcome::kRule)
      << e->reason;
  ExpectNoPassengers(*r);
  // Its memtables count in the budget the recommendation states.
  EXPECT_EQ(r->memory.write_buffers_bytes,
            4 * r->recommendation.write_buffer_bytes());
  EXPECT_LE(r->memory.total_bytes(), req.memory_budget_bytes);
}

// RocksDB under a budget its default 2 x 64 MiB write buffers overrun, on
// data 30 times the budget, with the time for copies only: the buffer the
// rule takes is one that fits, so the search still ranks the other knobs
// (it once kept only candidates with the unshrunk 64 MiB buffer, of which
// none fit, and recommended the defaults without a trial).
TEST_F(TunerTest, ABudgetTheDefaultBuffersOverrunStillSearchesTheOtherKnobs) {
  FakeMachine m([](const TuneConfig& c) {
    return c.compression() == Compression::kNone ? 160000.0 : 100000.0;
  });
  TuneRequest req = RocksDb("write-heavy", m, 150);
  req.memory_budget_bytes = 64 * kMiB;
  req.data_size_bytes = 2 * kGiB;
  req.facts->seq_write_bytes_per_sec = 2e9;
  auto r = RunTuner(req, *scratch_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->baseline.write_buffer_bytes(), 8 * kMiB);
  EXPECT_GT(r->search.candidates, 1);
  EXPECT_GT(r->search.trials, 1);
  EXPECT_TRUE(r->significant) << r->verdict;
  EXPECT_EQ(r->recommendation.compression(), Compression::kNone)
      << ConfigText(r->recommendation);
  EXPECT_LE(r->memory.total_bytes(), req.memory_budget_bytes);
}

// RocksDB, write-heavy, data 30 times the budget, where universal
// compaction pays only on copies that fill as many LSM levels as the full
// size (as db_bench measured: 1.64x the defaults on 20M keys at 64 MiB,
// nothing on 4M keys). With time for shallower copies only, the compaction
// style is not ranked: the tune takes the rules' first (level) and says
// universal was not tried. With time for copies as deep as the full size,
// no trial of it runs shallower, and it is found.
TEST_F(TunerTest, KnobsThatShapeTheLsmAreNeverRankedOnShallowerCopies) {
  const EngineModel& model = ModelFor("rocksdb");
  auto w = ResolveWorkload("write-heavy");
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE(ApplyDataSize(2 * kGiB, "rocksdb", &*w).ok());
  auto shape = ShapeOf(*w, "rocksdb");
  ASSERT_TRUE(shape.ok());
  auto depth = [&](double scale) {
    DataShape s = *shape;
    s.live_entries = static_cast<uint64_t>(
        std::max(1.0, static_cast<double>(s.live_entries) * scale));
    return LsmDepth(model, EstimateDbBytes(s, model.defaults));
  };
  const int full = depth(1.0);
  ASSERT_GE(full, 2);
  std::vector<double> universal_at;  // the scales universal ran at
  auto speed = [&](const TuneConfig& c, double scale) {
    if (c.Get(KnobId::kCompactionStyle) !=
        static_cast<KnobValue>(CompactionStyle::kUniversal)) {
      return 100000.0;
    }
    universal_at.push_back(scale);
    return depth(scale) >= full ? 160000.0 : 90000.0;
  };
  for (uint64_t seconds : {60, 3600}) {
    SCOPED_TRACE(std::to_string(seconds) + " s");
    universal_at.clear();
    FakeMachine m{FakeMachine::SpeedAt(speed)};
    TuneRequest req = RocksDb("write-heavy", m, seconds);
    req.memory_budget_bytes = 64 * kMiB;
    req.data_size_bytes = 2 * kGiB;
    req.facts->seq_write_bytes_per_sec = 2e9;
    auto r = RunTuner(req, *scratch_, nullptr);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    for (double s : universal_at) EXPECT_EQ(depth(s), full) << s;
    if (seconds == 60) {
      // 60 s affords no copy that shows them: defaults, and said so.
      EXPECT_TRUE(universal_at.empty());
      EXPECT_TRUE(HasNote(*r, "kept at their defaults: the budget affords"));
      EXPECT_FALSE(r->unjudged.empty());
      EXPECT_NE(r->recommendation.Get(KnobId::kCompactionStyle),
                static_cast<KnobValue>(CompactionStyle::kUniversal));
    } else {
      EXPECT_FALSE(universal_at.empty());
      EXPECT_TRUE(r->significant) << r->verdict;
      EXPECT_EQ(r->recommendation.Get(KnobId::kCompactionStyle),
                static_cast<KnobValue>(CompactionStyle::kUniversal))
          << ConfigText(r->recommendation);
      ExpectNoPassengers(*r);
    }
  }
}

// RocksDB reads where a bloom filter is worth 1.3x and a level-0 trigger
// of 2 is worth `trigger_gain(scale)`; each scale a trigger of 2 ran at is
// appended to `at`.
FakeMachine::SpeedAt FilterAndTrigger2(
    std::vector<double>* at, std::function<double(double scale)> trigger_gain) {
  return [at, trigger_gain](const TuneConfig& c, double scale) {
    double v = c.bloom_bits_per_key() > 0 ? 130000.0 : 100000.0;
    if (c.Get(KnobId::kLevel0FileNumCompactionTrigger) == 2) {
      at->push_back(scale);
      v *= trigger_gain(scale);
    }
    return v;
  };
}

// Read-heavy RocksDB: the rules set a level-0 trigger of 2 for reads, and
// the fake rewards it on copies only, as the tuner once measured it (a
// copy's fill leaves level-0 files a read checks; db_bench at full size
// measured no gain). With time for copies only, no candidate changes it;
// with time for full-size trials, it is ranked at full size only, and,
// paying nothing there, not recommended; bloom filters, which pay at every
// size, are. In between (the search at full size, the knob check on
// copies), the trigger would reach the A/B on the filter's gain: it keeps
// its default, and a note says why.
TEST_F(TunerTest, ForReadsKnobsThatShapeTheLsmAreJudgedAtFullSizeOnly) {
  std::vector<double> trigger2_at;  // the scales a trigger of 2 ran at
  const auto speed = FilterAndTrigger2(
      &trigger2_at, [](double scale) { return scale < 1.0 ? 1.5 : 1.0; });
  bool kept_note = false;
  for (uint64_t seconds : {120, 300, 600, 1200, 2400, 7200}) {
    SCOPED_TRACE(std::to_string(seconds) + " s");
    trigger2_at.clear();
    FakeMachine m{FakeMachine::SpeedAt(speed)};
    TuneRequest req = RocksDb("read-heavy", m, seconds);
    auto r = RunTuner(req, *scratch_, nullptr);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    for (double s : trigger2_at) EXPECT_EQ(s, 1.0);
    EXPECT_NE(r->recommendation.Get(KnobId::kLevel0FileNumCompactionTrigger),
              2);
    if (seconds == 120) {
      EXPECT_TRUE(trigger2_at.empty());
      EXPECT_TRUE(HasNote(*r, "kept at their defaults, not ranked"));
    } else if (seconds == 7200) {
      EXPECT_FALSE(trigger2_at.empty());
    }
    EXPECT_TRUE(r->significant) << r->verdict;
    EXPECT_GT(r->recommendation.bloom_bits_per_key(), 0)
        << ConfigText(r->recommendation);
    ExpectNoPassengers(*r);
    kept_note = kept_note || HasNote(*r, "kept at the default: the knob check");
  }
  EXPECT_TRUE(kept_note);
}

// The same rule at the A/B: when the knob check judged a level-0 trigger
// of 2 at full size and the candidate keeps it, the A/B must judge it at
// full size too. Here the trigger pays at every size, and the machine's
// trials take six times as long from the A/B's first pair on, so the pairs
// it needs no longer fit: the A/B stops rather than start again on a
// smaller copy (without the floor, on one of 0.327), the defaults stay,
// and a note says why.
TEST_F(TunerTest, AnAbOfAKnobThatShapesTheLsmStopsRatherThanShrink) {
  std::vector<double> trigger2_at;  // the scales a trigger of 2 ran at
  const auto speed =
      FilterAndTrigger2(&trigger2_at, [](double) { return 1.3; });
  // Where the A/B starts: a tune on a steady machine, whose A/B judges
  // the trigger at full size (the last trials are its pairs).
  FakeMachine steady{FakeMachine::SpeedAt(speed)};
  auto r = RunTuner(RocksDb("read-heavy", steady, 3000), *scratch_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->recommendation.Get(KnobId::kLevel0FileNumCompactionTrigger), 2);
  ASSERT_TRUE(r->verification.has_value());
  EXPECT_EQ(r->verification->scale, 1.0);
  for (double s : trigger2_at) EXPECT_EQ(s, 1.0);
  const int ab_trials =
      2 * static_cast<int>(r->verification->candidate_ops_per_sec.size());

  trigger2_at.clear();
  FakeMachine slowing{FakeMachine::SpeedAt(speed)};
  slowing.SlowAfter(steady.trials() - ab_trials, 6.0);
  r = RunTuner(RocksDb("read-heavy", slowing, 3000), *scratch_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  for (double s : trigger2_at) EXPECT_EQ(s, 1.0);
  EXPECT_TRUE(
      HasNote(*r, "pairs of a copy as deep as the full size (scale 1.000"))
      << r->notes.size() << " notes";
  EXPECT_TRUE(HasNote(*r, "the A/B stopped"));
  EXPECT_FALSE(r->significant);
  EXPECT_NE(r->recommendation.Get(KnobId::kLevel0FileNumCompactionTrigger), 2);
}

TEST_F(TunerTest, TheLevelDbSearchNeverSetsRocksDbKnobs) {
  int with_own = 0;
  FakeMachine m([&](const TuneConfig& c) {
    if (SetsRocksDbOnlyKnob(ToEngineOptions(c))) with_own++;
    return c.bloom_bits_per_key() > 0 ? 130000.0 : 100000.0;
  });
  for (const char* w : {"write-heavy", "read-heavy"}) {
    auto r = RunTuner(Request(w, m), *scratch_, nullptr);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_FALSE(SetsRocksDbOnlyKnob(ToEngineOptions(r->recommendation)));
    for (const TuneConfig& c : r->candidates) {
      EXPECT_FALSE(SetsRocksDbOnlyKnob(ToEngineOptions(c))) << ConfigText(c);
    }
    // No outcome or rule is stated for an option LevelDB does not have.
    for (const KnobEvidence& e : r->knobs) {
      EXPECT_FALSE(e.knob.spec && IsRocksDbOnly(*e.knob.spec)) << e.knob.name();
    }
    for (const RuleRecord& rec : r->rules) {
      const KnobSpec* k = FindKnob(rec.knob);
      EXPECT_FALSE(k && IsRocksDbOnly(*k)) << rec.rule;
    }
  }
  EXPECT_GT(m.trials(), 0);
  EXPECT_EQ(with_own, 0);
}

TEST_F(TunerTest, TheSameInputsGiveTheSameTune) {
  auto speed = [](const TuneConfig& c) {
    return 100000.0 * (c.bloom_bits_per_key() > 0 ? 1.2 : 1.0) *
           (c.compression() == Compression::kNone ? 1.1 : 1.0);
  };
  FakeMachine a(speed), b(speed);
  auto ra = RunTuner(Request("read-heavy", a), *scratch_, nullptr);
  auto rb = RunTuner(Request("read-heavy", b), *scratch_, nullptr);
  ASSERT_TRUE(ra.ok() && rb.ok());
  EXPECT_EQ(ra->recommendation, rb->recommendation);
  EXPECT_EQ(ra->search.trials, rb->search.trials);
  EXPECT_EQ(a.trials(), b.trials());
}

// The run ends within its time budget, what the caller did before the
// tuner (opening a class's device) and the steps after its last trial
// included (the profile files, putting the device back, removing the
// scratch directory): the budget counts from the run's start, and the
// tuner keeps the larger of kFinalStepsNs and the longest removal of a
// trial's copy for the final steps. Over a range of budgets, so that some
// A/B's last pair ends close to the budget.
TEST_F(TunerTest, TheWholeRunFitsInItsTimeBudget) {
  for (double before_s : {0.0, 30.0}) {
    for (double cleanup_s : {0.0, 12.0}) {
      for (const char* workload : {"write-heavy", "read-heavy", "mixed"}) {
        for (uint64_t seconds = 600; seconds < 640; seconds += 2) {
          FakeMachine m([](const TuneConfig& c) {
            return c.bloom_bits_per_key() > 0 ? 130000.0 : 100000.0;
          });
          m.CleanupIs(cleanup_s);
          TuneRequest req = Request(workload, m);
          req.time_budget_ns = seconds * kSecondNs;
          // Data deep enough that the A/B runs on until the budget is
          // spent (the plan that takes the LSM's shape from the rules).
          req.data_size_bytes = 1 * kGiB;
          req.started_ns = req.env.now_ns();
          m.Advance(before_s);
          auto r = RunTuner(req, *scratch_, nullptr);
          ASSERT_TRUE(r.ok()) << r.status().ToString();
          // The final steps take as long as the tuner keeps for them at
          // most.
          const uint64_t final_steps = std::max<uint64_t>(
              kFinalStepsNs, static_cast<uint64_t>(cleanup_s * 1e9));
          const uint64_t run_ns =
              static_cast<uint64_t>(before_s * 1e9) + r->elapsed_ns;
          EXPECT_LE(run_ns + final_steps, req.time_budget_ns)
              << workload << ", a budget of " << seconds << " s, " << before_s
              << " s before the tuner, removing a copy takes " << cleanup_s
              << " s";
          // And the budget is used, not left idle.
          if (cleanup_s == 0) {
            EXPECT_GT(run_ns, req.time_budget_ns * 8 / 10) << workload;
          }
        }
      }
    }
  }
}

TEST_F(TunerTest, TheAbStaysInsideTheWriteBudgetWhenLargeCopiesWriteMore) {
  // Small copies live in the memtable and write nothing; larger ones write
  // as scale^2.3, the growth `run --quick` measured between its trials at
  // 0.086 and 0.172 of the size (12 and 60 MiB), faster than the cost
  // model's curve grows beyond the copies it has seen.
  FakeMachine m([](const TuneConfig& c) {
    return c.bloom_bits_per_key() > 0 ? 130000.0 : 100000.0;
  });
  m.WritesAt([](double scale) {
    return scale < 0.03 ? uint64_t{0}
                        : static_cast<uint64_t>(1e10 * std::pow(scale, 3));
  });
  TuneRequest req = Request("mixed", m);
  req.write_budget_bytes = 256ull << 20;
  // Data deep enough that copies the budget affords are faithful for the
  // write buffers (fidelity.h), so the A/B's plan is the shape-on-rule one.
  req.data_size_bytes = 1 * kGiB;
  auto r = RunTuner(req, *scratch_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->bytes_written.has_value());
  EXPECT_LE(*r->bytes_written, req.write_budget_bytes);
  ASSERT_TRUE(r->verification.has_value());
  EXPECT_GE(r->verification->gain.repeats, kMinRepeats);
  // (Whether its first pair overran, and it started again on a smaller
  // copy, depends on the plan; the write-budget limit holds either way.)
}

TEST_F(TunerTest, AKnobThatWonOnlyOnCopiesSaysWhyItIsNotRecommended) {
  // No compression and bloom filters pay on copies below 0.04 of the size
  // only: the knob check (on such copies) keeps both, and the A/B of the
  // whole recommendation (on a 0.048 copy, with 120 s) shows nothing. A knob
  // listed as no_gain beside a significant gain of its own says where it won.
  FakeMachine m([](const TuneConfig& c, double scale) {
    double speed =
        c.bloom_bits_per_key() > 0 && scale < 0.04 ? 110000.0 : 100000.0;
    if (c.compression() == Compression::kNone && scale < 0.04) speed *= 1.3;
    return speed;
  });
  TuneRequest req = Request("read-heavy", m);
  req.time_budget_ns = 120 * kSecondNs;
  auto r = RunTuner(req, *scratch_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FALSE(r->significant) << r->verdict;
  int explained = 0;
  for (const KnobEvidence& e : r->knobs) {
    if (e.outcome != model::KnobOutcome::kNoGain || !e.gain ||
        !e.gain->significant())
      continue;
    EXPECT_NE(e.reason.find("won"), std::string::npos) << e.reason;
    EXPECT_NE(e.reason.find("A/B of the whole recommendation"),
              std::string::npos)
        << e.reason;
    explained++;
  }
  EXPECT_GE(explained, 1);
}

// Copy fidelity (fidelity.h) through the whole tuner: `r`'s every decision
// on a knob that shapes the LSM was made on copies faithful for both sides.
//  - the search: a rung whose candidates differ in such a knob ran at a
//    scale faithful for each of them;
//  - the recommendation: such a knob changed only after an A/B on a copy
//    faithful for it and the baseline.
void ExpectFaithfulDecisions(const TuneRequest& req, const TuneResult& r) {
  const EngineModel& m = ModelFor(r.engine);
  auto faithful = [&](const TuneConfig& c, double scale) {
    DataShape copy = r.shape;
    copy.live_entries = std::max<uint64_t>(
        1,
        static_cast<uint64_t>(static_cast<double>(copy.live_entries) * scale));
    TuneConfig trial = c;
    trial.Set(KnobId::kCacheBytes,
              std::max(kMinCacheBytes,
                       static_cast<uint64_t>(
                           static_cast<double>(c.cache_bytes()) * scale)));
    return FidelityOf(m, r.shape, copy, c, trial, scale).faithful();
  };
  auto shape_differs = [](const TuneConfig& a, const TuneConfig& b) {
    return std::any_of(AllKnobs().begin(), AllKnobs().end(), [&](Knob k) {
      return ShapesLsm(k) && KnobDiffers(a, b, k);
    });
  };
  for (const Rung& g : r.search.rungs) {
    for (size_t i : g.candidates) {
      for (size_t j : g.candidates) {
        const TuneConfig& a = r.candidates[i];
        const TuneConfig& b = r.candidates[j];
        if (!shape_differs(a, b)) continue;
        EXPECT_TRUE(faithful(a, g.scale) && faithful(b, g.scale))
            << "rung at " << g.scale << " ranked " << ConfigText(a)
            << " against " << ConfigText(b);
      }
    }
  }
  if (shape_differs(r.recommendation, r.baseline)) {
    ASSERT_TRUE(r.verification.has_value());
    EXPECT_TRUE(r.verification->faithful);
    EXPECT_TRUE(faithful(r.recommendation, r.verification->scale) &&
                faithful(r.baseline, r.verification->scale))
        << ConfigText(r.recommendation) << " at " << r.verification->scale;
  }
  (void)req;
}

// Every knob line of the text shows the recommended value, and a knob
// whose status says the default stays shows the baseline's value.
void ExpectTextsAgree(const TuneResult& r) {
  for (const KnobEvidence& e : r.knobs) {
    const std::string value = KnobValueText(r.recommendation, e.knob);
    if (e.outcome == model::KnobOutcome::kDefault ||
        e.outcome == model::KnobOutcome::kNoGain) {
      EXPECT_EQ(value, KnobValueText(r.baseline, e.knob)) << e.knob.name();
    }
    bool found = false;
    for (const std::string& line : r.explanation) {
      const std::string head = "  " + std::string(e.knob.name()) + " ";
      if (line.starts_with(head)) {
        found = true;
        EXPECT_NE(line.find(" " + value + " "), std::string::npos) << line;
      }
    }
    EXPECT_TRUE(found) << e.knob.name();
  }
}

// The reported case: `tune --engine leveldb --workload ycsb-a
// --memory-budget 64MiB --time-budget 30s` recommended a 28 MiB write
// buffer verified on a copy of 0.167 of the size (~26 MiB of data, within
// one write buffer). Here large buffers look 1.5x faster on every copy,
// the trap a copy that never flushes sets; trials cost what that tune's
// calibration measured (~26 ms + 6.8 s x scale).
TEST_F(TunerTest, AWriteBufferIsNeverJudgedOnACopyItHolds) {
  FakeMachine m([](const TuneConfig& c) {
    return c.write_buffer_bytes() >= 16 * kMiB ? 150000.0 : 100000.0;
  });
  m.CostIs(0.026, 6.8);
  TuneRequest req = Request("ycsb-a", m);
  req.memory_budget_bytes = 64 * kMiB;
  req.time_budget_ns = 30 * kSecondNs;
  auto r = RunTuner(req, *scratch_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectFaithfulDecisions(req, *r);
  ExpectTextsAgree(*r);
  // 30 s afford no copy that shows a larger buffer: the default stays, and
  // the text and the JSON say why.
  EXPECT_EQ(r->recommendation.write_buffer_bytes(),
            r->baseline.write_buffer_bytes())
      << r->verdict;
  ASSERT_FALSE(r->unjudged.empty());
  const KnobEvidence* wb = Evidence(*r, "write_buffer_bytes");
  ASSERT_NE(wb, nullptr);
  EXPECT_EQ(wb->outcome, model::KnobOutcome::kDefault);
  EXPECT_NE(wb->reason.find("not judged: only a copy of scale"),
            std::string::npos)
      << wb->reason;
  const nlohmann::json j = TuneResultToJson(*r);
  ASSERT_TRUE(j["evidence"]["unjudged"].is_array());
  EXPECT_FALSE(j["evidence"]["unjudged"].empty());
  EXPECT_GT(j["evidence"]["unjudged"][0]["needed_scale"].get<double>(),
            j["evidence"]["unjudged"][0]["affordable_scale"].get<double>());

  // With the time for faithful copies, the buffer is judged on them.
  FakeMachine roomy([](const TuneConfig& c) {
    return c.write_buffer_bytes() >= 16 * kMiB ? 150000.0 : 100000.0;
  });
  roomy.CostIs(0.026, 6.8);
  TuneRequest more = Request("ycsb-a", roomy);
  more.memory_budget_bytes = 64 * kMiB;
  more.time_budget_ns = 900 * kSecondNs;
  r = RunTuner(more, *scratch_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectFaithfulDecisions(more, *r);
  ExpectTextsAgree(*r);
  EXPECT_GE(r->recommendation.write_buffer_bytes(), 16 * kMiB) << r->verdict;
}

// The reported case: `tune --engine rocksdb --workload write-heavy
// --memory-budget 64MiB --time-budget 30s` ranked its trials on copies of
// 0.002 of the size (~2,000 keys: no LSM at all) and ran its A/B at 0.033.
// Here universal compaction and four memtables look faster on copies that
// never flush and slower at full size.
TEST_F(TunerTest, RocksDbShapeIsNeverRankedOnACopyWithoutAnLsm) {
  const auto speed = [](const TuneConfig& c, double scale) {
    const bool shaped =
        c.Get(KnobId::kCompactionStyle) ==
            static_cast<KnobValue>(CompactionStyle::kUniversal) ||
        c.Get(KnobId::kMaxWriteBufferNumber).value_or(2) > 2;
    if (!shaped) return 100000.0;
    return scale < 0.3 ? 140000.0 : 90000.0;
  };
  for (uint64_t seconds : {30, 600}) {
    SCOPED_TRACE(std::to_string(seconds) + " s");
    FakeMachine m{FakeMachine::SpeedAt(speed)};
    m.CostIs(0.033, 7.9);
    TuneRequest req = RocksDb("write-heavy", m, seconds);
    req.memory_budget_bytes = 64 * kMiB;
    auto r = RunTuner(req, *scratch_, nullptr);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ExpectFaithfulDecisions(req, *r);
    ExpectTextsAgree(*r);
    EXPECT_NE(r->recommendation.Get(KnobId::kCompactionStyle),
              static_cast<KnobValue>(CompactionStyle::kUniversal))
        << r->verdict;
    EXPECT_EQ(r->recommendation.Get(KnobId::kMaxWriteBufferNumber).value_or(2),
              2)
        << r->verdict;
    // The buffer's line names the engine's default and the budget's.
    bool wb_line = false;
    for (const std::string& line : r->explanation) {
      wb_line |= line.find("(default 64 MiB, 8 MiB in this budget)") !=
                 std::string::npos;
    }
    EXPECT_TRUE(wb_line);
    // The memtables rule names a buffer the rules left, not another.
    for (const RuleRecord& rec : r->rules) {
      if (rec.rule != "memtables-for-write-bursts") continue;
      EXPECT_EQ(rec.decision.find("28 MiB"), std::string::npos) << rec.decision;
    }
  }
}

// A model that predicts the candidates without a bloom filter at a tenth
// of those with one, within 20%: the seam where the predictor plugs in.
class BloomModel : public ThroughputModel {
 public:
  std::string name() const override { return "test model"; }
  double error_share() const override { return 0.2; }
  std::optional<double> PredictOpsPerSec(const RuleInput&,
                                         const TuneConfig& c) const override {
    return c.bloom_bits_per_key() > 0 ? 100000.0 : 10000.0;
  }
};

TEST_F(TunerTest, TheModelsRankingSendsTrialsOnlyToWhatItCannotSeparate) {
  FakeMachine m([](const TuneConfig& c) {
    return c.bloom_bits_per_key() > 0 ? 130000.0 : 100000.0;
  });
  BloomModel model;
  TuneRequest req = Request("read-heavy", m);
  req.model = &model;
  auto r = RunTuner(req, *scratch_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // No trial ran a candidate the model put far behind, but the baseline
  // (as a trial runs it: its cache and open files scaled with the copy).
  for (const auto& [c, scale] : m.seen()) {
    const TuneConfig& b = r->baseline;
    EXPECT_TRUE(c.bloom_bits_per_key() > 0 ||
                (c.compression() == b.compression() &&
                 c.block_size_bytes() == b.block_size_bytes() &&
                 c.write_buffer_bytes() == b.write_buffer_bytes()))
        << ConfigText(c) << " at " << scale;
  }
  EXPECT_EQ(r->ranking_model, "test model");
  ASSERT_FALSE(r->left_out.empty());
  EXPECT_NE(r->left_out[0].reason.find("test model predicts 10,000 ops/s"),
            std::string::npos)
      << r->left_out[0].reason;
  ASSERT_FALSE(r->measured.empty());
  for (const PlanEntry& e : r->measured) EXPECT_FALSE(e.scales.empty());
  EXPECT_GT(r->recommendation.bloom_bits_per_key(), 0);
  // The JSON states what was measured at which scales and what was left
  // out, and a recommended knob names its facts, prediction and A/B.
  const nlohmann::json j = TuneResultToJson(*r);
  EXPECT_EQ(j["evidence"]["plan"]["ranking"], "test model");
  EXPECT_FALSE(j["evidence"]["plan"]["measured"].empty());
  EXPECT_FALSE(j["evidence"]["plan"]["left_out"].empty());
  const KnobEvidence* bloom = Evidence(*r, "bloom_bits_per_key");
  ASSERT_NE(bloom, nullptr);
  EXPECT_NE(bloom->reason.find("(facts: "), std::string::npos);
  EXPECT_NE(bloom->reason.find("the test model predicted 100,000 ops/s"),
            std::string::npos)
      << bloom->reason;
  EXPECT_NE(bloom->reason.find("decided by the A/B at scale"),
            std::string::npos);

  // The internal estimate (no model given) keeps every candidate here.
  FakeMachine plain([](const TuneConfig& c) {
    return c.bloom_bits_per_key() > 0 ? 130000.0 : 100000.0;
  });
  auto p = RunTuner(Request("read-heavy", plain), *scratch_, nullptr);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->ranking_model, "internal estimate");
}

// "<the table-size row's name> <size>", as ConfigText writes it.
std::string TableFileText(const std::string& size) {
  return std::string(KnobRow(KnobId::kMaxFileBytes).name) + " " + size;
}

// The predictor (predictor_model.h) through the fake trial: on a 50 ms
// fdatasync LevelDB's 2 MiB tables cap its writes, so the predictor puts
// every candidate that keeps them far behind those with 32 MiB tables, and
// the trials go to the latter (and the baseline) only.
TEST_F(TunerTest, ThePredictorLeavesOutWhatTheDeviceCapsAndTheTrialsAgree) {
  FakeMachine m([](const TuneConfig& c) {
    return c.max_file_bytes() >= 32 * kMiB ? 200000.0 : 80000.0;
  });
  TuneRequest req = Request("write-heavy", m);
  req.workload.num = 4'000'000;  // 264 MB of tables: no buffer holds them
  req.facts->fdatasync_p50_ns = 50'000'000;
  req.facts->seq_write_bytes_per_sec = 150e6;
  PredictorCalibration cal;
  cal.baseline = ModelFor("leveldb").defaults;
  for (const char* s : {"fillrandom", "overwrite"}) {
    cal.steps.push_back({s, 1000, 3.0 * 116});
  }
  auto model = PredictorModel(cal);
  req.model = model.get();
  auto r = RunTuner(req, *scratch_, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->ranking_model, "predictor");
  // Left out: every candidate with 2 MiB tables but the baseline (and any
  // other the predictor puts as far behind), each with its prediction.
  double best = 0;
  for (const PlanEntry& e : r->measured) {
    best = std::max(best, e.predicted_ops_per_sec.value_or(0));
  }
  int small_tables = 0;
  ASSERT_FALSE(r->left_out.empty());
  for (const PlanEntry& e : r->left_out) {
    EXPECT_NE(e.reason.find("the predictor predicts"), std::string::npos)
        << e.reason;
    ASSERT_TRUE(e.predicted_ops_per_sec.has_value()) << e.candidate;
    EXPECT_LT(*e.predicted_ops_per_sec, best * (1 - kPredictorErrorShare))
        << e.candidate;
    small_tables +=
        e.candidate.find(TableFileText("2 MiB")) != std::string::npos;
  }
  EXPECT_GT(small_tables, 0);
  // The search measured the baseline and 32 MiB tables only (the knob
  // check later reverts each knob of the winner alone).
  ASSERT_FALSE(r->measured.empty());
  for (const PlanEntry& e : r->measured) {
    EXPECT_TRUE(e.candidate.find(TableFileText("32 MiB")) !=
                    std::string::npos ||
                e.candidate == ConfigText(r->baseline))
        << e.candidate;
  }
  EXPECT_EQ(r->recommendation.max_file_bytes(), 32 * kMiB) << r->verdict;
}

}  // namespace
}  // namespace disktune::tune
