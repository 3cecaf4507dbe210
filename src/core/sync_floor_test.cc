#include "src/core/sync_floor.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

namespace disktune {
namespace {

constexpr uint64_t kMs = 1000000;

TEST(SyncFloorTest, RemainingIsTheFloorMinusTheSyncsOwnTime) {
  // One revolution at 7,200 rpm, as the hdd class floors a sync.
  EXPECT_EQ(SyncFloorRemainingNs(8333333, 1000000), 7333333u);
  EXPECT_EQ(SyncFloorRemainingNs(8333333, 0), 8333333u);
  EXPECT_EQ(SyncFloorRemainingNs(8333333, 8333333), 0u);
  EXPECT_EQ(SyncFloorRemainingNs(8333333, 9000000), 0u);
  EXPECT_EQ(SyncFloorRemainingNs(0, 5), 0u);
  EXPECT_EQ(SyncFloorRemainingNs(0, 0), 0u);
}

TEST(SyncFloorTest, AFastSyncWaitsForTheFloor) {
  uint64_t start = NowNanos();
  int r = FlooredSync(20 * kMs, [] { return 7; });
  EXPECT_EQ(r, 7);
  EXPECT_GE(NowNanos() - start, 20 * kMs);
}

TEST(SyncFloorTest, ASlowSyncIsNotLengthened) {
  // Slower than the floor: no wait after it. Had the floor been added to
  // the sync rather than laid under it, this would take 60 ms or more.
  uint64_t start = NowNanos();
  FlooredSync(20 * kMs, [] {
    std::this_thread::sleep_for(std::chrono::milliseconds(40));
    return 0;
  });
  uint64_t took = NowNanos() - start;
  EXPECT_GE(took, 40 * kMs);
  EXPECT_LT(took, 60 * kMs);
}

TEST(SyncFloorTest, NoFloorNoWait) {
  uint64_t start = NowNanos();
  WaitForSyncFloor(start, 0);
  EXPECT_LT(NowNanos() - start, 5 * kMs);
}

TEST(SyncFloorTest, ParsesDeviceNumbers) {
  EXPECT_EQ(ParseDeviceNumber("7:3"), makedev(7, 3));
  EXPECT_EQ(ParseDeviceNumber("259:12"), makedev(259, 12));
  EXPECT_EQ(ParseDeviceNumber("7"), dev_t{0});
  EXPECT_EQ(ParseDeviceNumber("x:3"), dev_t{0});
  EXPECT_EQ(ParseDeviceNumber("7:3x"), dev_t{0});
  EXPECT_EQ(ParseDeviceNumber(""), dev_t{0});
}

TEST(SyncFloorTest, TheFloorBelongsToTheDeviceOfAPath) {
  char tmpl[] = "/tmp/sync_floor_test.XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  std::string dir = tmpl;
  struct stat st {};
  ASSERT_EQ(stat(dir.c_str(), &st), 0);
  EXPECT_EQ(SyncFloorOfPath(dir), 0u);

  SetDeviceSyncFloor(st.st_dev, 8333333);
  EXPECT_EQ(SyncFloorOfPath(dir), 8333333u);
  // A database not made yet: its nearest existing ancestor's device.
  EXPECT_EQ(SyncFloorOfPath(dir + "/db/not/yet"), 8333333u);
  int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(SyncFloorOfFd(fd), 8333333u);
  // Another device keeps none.
  SetDeviceSyncFloor(st.st_dev, 0);
  SetDeviceSyncFloor(makedev(4095, 4095), 5 * kMs);
  EXPECT_EQ(SyncFloorOfPath(dir), 0u);
  EXPECT_EQ(SyncFloorOfFd(fd), 0u);
  SetDeviceSyncFloor(makedev(4095, 4095), 0);
  close(fd);
  rmdir(dir.c_str());
}

}  // namespace
}  // namespace disktune
