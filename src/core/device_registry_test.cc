#include "src/core/device_registry.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace disktune {
namespace {

TEST(DeviceRegistryTest, AValueIsKeptByDeviceUntilErased) {
  DeviceRegistry<uint64_t> r;
  EXPECT_TRUE(r.Empty());
  EXPECT_EQ(r.Get(makedev(7, 3)), 0u);
  r.Set(makedev(7, 3), 8333333);
  r.Set(makedev(7, 4), 5);
  EXPECT_FALSE(r.Empty());
  EXPECT_EQ(r.Get(makedev(7, 3)), 8333333u);
  EXPECT_EQ(r.Get(makedev(7, 4)), 5u);
  EXPECT_EQ(r.Get(makedev(8, 3)), 0u);
  r.Set(makedev(7, 3), 9);  // replaces
  EXPECT_EQ(r.Get(makedev(7, 3)), 9u);
  r.Erase(makedev(7, 3));
  EXPECT_EQ(r.Get(makedev(7, 3)), 0u);
  EXPECT_EQ(r.Get(makedev(7, 4)), 5u);
  r.Erase(makedev(7, 3));  // twice: nothing
  r.Erase(makedev(7, 4));
  EXPECT_TRUE(r.Empty());
}

TEST(DeviceRegistryTest, FindsTheValueOfTheDeviceHoldingAnOpenFile) {
  DeviceRegistry<std::function<int()>> r;
  int fd = open(".", O_RDONLY | O_DIRECTORY);
  ASSERT_GE(fd, 0);
  struct stat st {};
  ASSERT_EQ(fstat(fd, &st), 0);
  EXPECT_FALSE(r.GetOfFd(fd));
  r.Set(st.st_dev, [] { return 42; });
  std::function<int()> f = r.GetOfFd(fd);
  ASSERT_TRUE(f);
  EXPECT_EQ(f(), 42);
  r.Erase(st.st_dev);
  EXPECT_FALSE(r.GetOfFd(fd));
  close(fd);
  EXPECT_FALSE(r.GetOfFd(fd));  // closed: no device, no value
}

TEST(DeviceRegistryTest, ReadersAndWritersOnManyThreads) {
  DeviceRegistry<uint64_t> r;
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < 4; t++) {
    threads.emplace_back([&r, t] {
      for (unsigned i = 0; i < 1000; i++) {
        r.Set(makedev(t, i % 16), i + 1);
        EXPECT_NE(r.Get(makedev(t, i % 16)), 0u);
        r.Erase(makedev(t, i % 16));
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_TRUE(r.Empty());
}

}  // namespace
}  // namespace disktune
