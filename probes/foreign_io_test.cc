#include "probes/foreign_io.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "src/model/environment.h"

namespace disktune {
namespace {

constexpr uint64_t kMiB = 1ull << 20;

ForeignIo Window(double seconds, uint64_t device, uint64_t own,
                 uint64_t others) {
  ForeignIo w;
  w.disk = "vda";
  w.after = IoSnapshot{};
  w.after->device_write_ios = 5000;
  w.seconds = seconds;
  w.device_bytes = device;
  w.own_bytes = own;
  w.others_bytes = others;
  JudgeForeignIo(&w);
  return w;
}

TEST(ForeignIoTest, ADdBesideTheProbeIsBusy) {
  // 10 s, the disk moved 500 MiB, 100 of them ours, 400 another process's.
  ForeignIo w = Window(10, 500 * kMiB, 100 * kMiB, 400 * kMiB);
  EXPECT_EQ(w.foreign_bytes, 400 * kMiB);
  EXPECT_TRUE(w.busy);
  EXPECT_EQ(w.reason.rfind("other I/O on vda: 40 MiB/s", 0), 0u) << w.reason;
  EXPECT_NE(w.reason.find("80%"), std::string::npos) << w.reason;
  EXPECT_DOUBLE_EQ(w.device_ios_per_sec, 500);
}

TEST(ForeignIoTest, OurOwnJournalWritesAreNotForeign) {
  // The disk moved 3x what the process wrote (journal commits of our
  // syncs) while the other processes wrote almost nothing.
  ForeignIo w = Window(10, 300 * kMiB, 100 * kMiB, 2 * kMiB);
  EXPECT_EQ(w.foreign_bytes, 2 * kMiB);
  EXPECT_FALSE(w.busy);
  EXPECT_TRUE(w.reason.empty());
}

TEST(ForeignIoTest, OtherProcessesOnAnotherDiskAreNotForeign) {
  // Others moved 1 GiB, but the disk moved only what we did.
  ForeignIo w = Window(10, 100 * kMiB, 100 * kMiB, 1024 * kMiB);
  EXPECT_EQ(w.foreign_bytes, 0u);
  EXPECT_FALSE(w.busy);
}

TEST(ForeignIoTest, BothThresholdsMustBeCrossed) {
  // 5 MiB/s of foreign I/O, but 5% of a busy run's bytes.
  EXPECT_FALSE(Window(10, 1000 * kMiB, 950 * kMiB, 50 * kMiB).busy);
  // 50% of the bytes, but 0.5 MiB/s.
  EXPECT_FALSE(Window(10, 10 * kMiB, 5 * kMiB, 5 * kMiB).busy);
  // Just over both.
  EXPECT_TRUE(Window(10, 100 * kMiB, 89 * kMiB, 11 * kMiB).busy);
}

TEST(ForeignIoTest, RoundTripsAndJudgesAgain) {
  ForeignIo w = Window(10, 500 * kMiB, 100 * kMiB, 400 * kMiB);
  nlohmann::json j = w;
  EXPECT_EQ(j["foreign_bytes"], 400 * kMiB);
  EXPECT_TRUE(j["busy"].get<bool>());
  ForeignIo back = j.get<ForeignIo>();
  EXPECT_TRUE(back.busy);
  EXPECT_EQ(back.reason, w.reason);
  Environment e;
  e.foreign_io = back;
  EXPECT_EQ(ForeignIoReason(e), w.reason);
}

TEST(ForeignIoTest, ReadsTheRealCountersOfTheRootDisk) {
  std::optional<ForeignIo> w;
  for (const char* disk : {"vda", "sda", "nvme0n1", "xvda"}) {
    w = StartForeignIo(disk);
    if (w) break;
  }
  if (!w) GTEST_SKIP() << "no vda/sda/nvme0n1/xvda disk here";
  FinishForeignIo(&*w);
  ASSERT_TRUE(w->after.has_value());
  EXPECT_GE(w->after->device_write_bytes, w->before.device_write_bytes);
  EXPECT_GT(w->seconds, 0);
  EXPECT_TRUE(StartForeignIo("no-such-disk") == std::nullopt);
}

}  // namespace
}  // namespace disktune
