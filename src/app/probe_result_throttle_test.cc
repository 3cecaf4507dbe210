// A --probe-result file is read only by a run on the disk it describes:
// the same throttle limits and sync floor, or no throttle on either side.
#include <gtest/gtest.h>

#include "src/app/throttle_session.h"

namespace disktune::app {
namespace {

std::optional<ThrottleRecord> MeasuredUnder(const std::string& throttle) {
  ThrottleRecord r;
  r.spec = *ParseThrottle(throttle);
  return r;
}

TEST(ProbeResultThrottle, TheSameDiskIsAccepted) {
  EXPECT_TRUE(CheckProbeResultThrottle("p.json", std::nullopt, "").ok());
  EXPECT_TRUE(
      CheckProbeResultThrottle("p.json", MeasuredUnder("hdd"), "hdd").ok());
  // Spelled another way, the same limits.
  EXPECT_TRUE(CheckProbeResultThrottle("p.json", MeasuredUnder("cloud"),
                                       "riops=3000,wiops=3000,bps=125MiB")
                  .ok());
}

TEST(ProbeResultThrottle, AnotherDiskIsRefusedInOneLine) {
  struct Case {
    std::optional<ThrottleRecord> measured;
    std::string throttle;
    std::string says;
  };
  const Case cases[] = {
      {std::nullopt, "hdd",
       "measured without --throttle, and this run is "
       "under --throttle hdd"},
      {MeasuredUnder("hdd"), "",
       "measured under the hdd class (150 IOPS read/write"},
      {MeasuredUnder("riops=200"), "", "measured under the limits (200 IOPS"},
      {MeasuredUnder("hdd"), "cloud",
       "this run is under --throttle cloud (3000 IOPS"},
      {MeasuredUnder("hdd"), "hdd,sync=none", "under --throttle hdd,sync=none"},
  };
  for (const Case& c : cases) {
    Status s = CheckProbeResultThrottle("p.json", c.measured, c.throttle);
    ASSERT_FALSE(s.ok()) << c.throttle;
    EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
    EXPECT_NE(s.message().find(c.says), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("--probe-result p.json"), std::string::npos);
    const std::string probe = c.throttle.empty()
                                  ? "`disktune probe --json FILE`"
                                  : "`disktune probe --throttle " + c.throttle;
    EXPECT_NE(s.message().find(probe), std::string::npos) << s.message();
    EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message();
  }
}

TEST(ProbeResultThrottle, BadSyntaxIsLeftToThePlan) {
  EXPECT_TRUE(
      CheckProbeResultThrottle("p.json", std::nullopt, "riops=fast").ok());
}

}  // namespace
}  // namespace disktune::app
