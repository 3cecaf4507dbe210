// Per-probe accounting under --throttle, on fixed counters: each family's
// share is the difference of two snapshots, a family run in several rounds
// sums its windows, the parts sum to what the meter saw across them, the
// escaped share is per part, and the registry finds a device's meter from
// an open directory on it and forgets it when removed.
#include "probes/throttle_meter.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/model/analyses.h"
#include "src/model/throttle_by_probe_lines.h"

namespace disktune {
namespace {

constexpr uint64_t kMiB = 1ull << 20;

TEST(ThrottleMeterTest, FamiliesSumTheirWindowsAndThePartsSumToTheRun) {
  // Counters as the meter would read them at each boundary: before the
  // fill, after it, then seq_read, fsync, seq_read again (a second round).
  const ThrottleAccounting at[] = {
      {0, 0, 0, 0},
      {0, 64 * kMiB, 0, 64 * kMiB},                     // fill: all charged
      {32 * kMiB, 64 * kMiB, 32 * kMiB, 64 * kMiB},     // seq_read
      {32 * kMiB, 164 * kMiB, 32 * kMiB, 104 * kMiB},   // fsync: 60 escaped
      {48 * kMiB, 164 * kMiB, 48 * kMiB, 104 * kMiB}};  // seq_read again
  ThrottleByProbe by;
  by.test_file_fill = at[1] - at[0];
  by.Add("seq_read", 2, at[2] - at[1]);
  by.Add("fsync", 3, at[3] - at[2]);
  by.Add("seq_read", 2, at[4] - at[3]);
  ASSERT_EQ(by.probes.size(), 2u);
  EXPECT_EQ(by.probes[0].probe, "seq_read");  // in run order, once
  EXPECT_EQ(by.probes[0].points, 4);
  EXPECT_EQ(by.probes[0].accounting.device_read_bytes, 48 * kMiB);
  EXPECT_EQ(by.probes[0].accounting.EscapedBytes(), 0u);
  EXPECT_DOUBLE_EQ(*by.probes[0].accounting.EscapedShare(), 0.0);
  const ThrottleAccounting& fsync = by.probes[1].accounting;
  EXPECT_EQ(fsync.device_write_bytes, 100 * kMiB);
  EXPECT_EQ(fsync.charged_write_bytes, 40 * kMiB);
  EXPECT_EQ(fsync.EscapedBytes(), 60 * kMiB);
  EXPECT_DOUBLE_EQ(*fsync.EscapedShare(), 0.6);
  // The parts cover the meter's whole span, to the byte.
  ThrottleAccounting whole = at[4] - at[0];
  ThrottleAccounting sum = by.Sum();
  EXPECT_EQ(sum.device_read_bytes, whole.device_read_bytes);
  EXPECT_EQ(sum.device_write_bytes, whole.device_write_bytes);
  EXPECT_EQ(sum.charged_read_bytes, whole.charged_read_bytes);
  EXPECT_EQ(sum.charged_write_bytes, whole.charged_write_bytes);
  EXPECT_EQ(sum.EscapedBytes(), 60 * kMiB);
  // 60 of 212 MiB escaped over the run; the fsync family holds all of it.
  EXPECT_NEAR(*sum.EscapedShare(), 60.0 / 212.0, 1e-12);
}

TEST(ThrottleMeterTest, ChargedAboveTheDeviceIsNoEscape) {
  // The cgroup counts a write when it is submitted, the device when it
  // completes: a window can show more charged than reached the device.
  ThrottleAccounting a{0, 10 * kMiB, 0, 12 * kMiB};
  EXPECT_EQ(a.EscapedBytes(), 0u);
  EXPECT_DOUBLE_EQ(*a.EscapedShare(), 0.0);
  EXPECT_FALSE(ThrottleAccounting{}.EscapedShare());
  // A counter that went backwards (a device re-attached) gives 0, not a wrap.
  ThrottleAccounting back = ThrottleAccounting{0, 1, 0, 1} - a;
  EXPECT_EQ(back.device_write_bytes, 0u);
}

TEST(ThrottleMeterTest, JsonRoundTripsAndTheLineSaysTheShare) {
  ThrottleByProbe by;
  by.test_file_fill = ThrottleAccounting{0, 64 * kMiB, 0, 64 * kMiB};
  by.Add("fsync", 1, {0, 100 * kMiB, 0, 40 * kMiB});
  model::Analyses typed;
  typed.throttle_by_probe = by;
  nlohmann::json analyses = model::AnalysesToJson(typed);
  const nlohmann::json& e = analyses["throttle_by_probe"]["probes"][0];
  EXPECT_EQ(e["probe"], "fsync");
  EXPECT_EQ(e["points"], 1);
  EXPECT_EQ(e["escaped_bytes"].get<uint64_t>(), 60 * kMiB);
  EXPECT_DOUBLE_EQ(e["escaped_share"].get<double>(), 0.6);
  Result<model::Analyses> read = model::AnalysesFromJson(analyses);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  const std::optional<ThrottleByProbe>& back = read->throttle_by_probe;
  ASSERT_TRUE(back);
  ASSERT_EQ(back->probes.size(), 1u);
  EXPECT_EQ(back->probes[0].accounting.charged_write_bytes, 40 * kMiB);
  EXPECT_EQ(back->test_file_fill->device_write_bytes, 64 * kMiB);
  EXPECT_EQ(ProbeAccountingLine(back->probes[0]),
            "throttle, fsync (1 point): 100 MiB reached the device, 40 MiB "
            "through the throttle, 60 MiB around it (60.0% escaped)");
  EXPECT_FALSE(
      model::AnalysesFromJson(nlohmann::json::object())->throttle_by_probe);
  nlohmann::json broken;
  broken[ThrottleByProbe::kKey] = {{"probes", {{{"points", 1}}}}};
  // An entry without its probe.
  EXPECT_FALSE(model::AnalysesFromJson(broken).ok());
}

TEST(ThrottleMeterTest, RegistryFindsTheDeviceOfAnOpenDirectory) {
  int fd = open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  struct stat st {};
  ASSERT_EQ(fstat(fd, &st), 0);
  EXPECT_FALSE(ThrottleMeterOfFd(fd));
  uint64_t calls = 0;
  SetThrottleMeter(st.st_dev, [&calls] {
    calls++;
    return ThrottleAccounting{0, calls * kMiB, 0, calls * kMiB};
  });
  ThrottleMeter m = ThrottleMeterOfFd(fd);
  ASSERT_TRUE(m);
  EXPECT_EQ(m().device_write_bytes, kMiB);
  EXPECT_EQ(m().device_write_bytes, 2 * kMiB);
  SetThrottleMeter(st.st_dev, nullptr);
  EXPECT_FALSE(ThrottleMeterOfFd(fd));
  close(fd);
}

}  // namespace
}  // namespace disktune
