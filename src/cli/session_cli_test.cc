// Each measuring command resolves the disk under --dir to its device once
// (src/app/session.h): probe, bench (with the probe points its predictions
// measure), tune (with its own quick probe) and run, driven in this process
// through cli::Main and counted with ResolveDeviceCalls. Before the Session,
// bench resolved it 3 times and tune 2.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "probes/device_info.h"
#include "src/cli/cli.h"
#include "src/model/device_info.h"
#include "tests/test_support.h"

namespace disktune::cli {
namespace {

namespace fs = std::filesystem;

class SessionCliTest : public testing::WorkDirTest {
 protected:
  SessionCliTest() : WorkDirTest("session_cli_test_") {}

  // Runs `args` (after "disktune"), expects exit 0 and returns how many
  // times it resolved a directory to its device.
  uint64_t Resolutions(std::vector<std::string> args) {
    args.insert(args.begin(), "disktune");
    std::ostringstream out, err;
    const uint64_t before = ResolveDeviceCalls();
    int rc = Main(args, out, err);
    EXPECT_EQ(rc, 0) << err.str();
    return ResolveDeviceCalls() - before;
  }
  // A few short points: enough to run the probe step, not to time a disk.
  std::vector<std::string> Probes(const std::string& probes) {
    return {"--quick", "--probes",        probes,      "--file-size",
            "16MiB",   "--duration",      "100ms",     "--warmup",
            "20ms",    "--queue-depths",  "1",         "--measure-with",
            "native",  "--fsync-methods", "fdatasync", "--fsync-sizes",
            "4096",    "--fsync-modes",   "append"};
  }
  std::vector<std::string> With(std::vector<std::string> a,
                                const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  }
  std::string Dir() const { return work_ + "/scratch"; }
};

TEST_F(SessionCliTest, ProbeResolvesTheDiskOnce) {
  EXPECT_EQ(Resolutions(With({"probe", "--dir", Dir(), "-q"},
                             Probes("seq_write,fsync"))),
            1u);
}

TEST_F(SessionCliTest, BenchWithItsPredictionProbesResolvesTheDiskOnce) {
  EXPECT_EQ(Resolutions({"bench", "--dir", Dir(), "-q", "--scenario", "fillseq",
                         "--num", "2000"}),
            1u);
}

TEST_F(SessionCliTest, TuneWithItsOwnProbeResolvesTheDiskOnce) {
  EXPECT_EQ(
      Resolutions({"tune", "--dir", Dir(), "-q", "--workload", "write-heavy",
                   "--time-budget", "30s", "--data-size", "4MiB"}),
      1u);
}

TEST_F(SessionCliTest, RunResolvesTheDiskOnce) {
  EXPECT_EQ(
      Resolutions(With({"run", "--dir", Dir(), "-q", "--out", work_ + "/out",
                        "--skip", "tune", "--scenario", "fillseq"},
                       Probes("seq_read,rand_read,seq_write,fsync"))),
      1u);
  EXPECT_TRUE(fs::exists(work_ + "/out/result.json"));
}

// The loop device is the one other device a throttled command measures.
TEST_F(SessionCliTest, UnderThrottleTheLoopDeviceIsResolvedOnceToo) {
  if (geteuid() != 0) GTEST_SKIP() << "--throttle needs root";
  if (!fs::exists("/sys/fs/cgroup/blkio"))
    GTEST_SKIP() << "no cgroup v1 blkio controller at /sys/fs/cgroup/blkio";
  EXPECT_EQ(Resolutions(With(
                {"probe", "--dir", Dir(), "-q", "--throttle", "hdd,sync=none"},
                Probes("seq_write,fsync"))),
            2u);
}

}  // namespace
}  // namespace disktune::cli
