// The cold-read unit u (model.h, cold reads) against a simulation: blocks of
// about c bytes laid end to end in a file, read in uniform random order
// through a cache of 4 KiB pages. A lookup whose block spans a page not yet
// in memory is one device read, which brings in every page the block spans.
// The model's first-touch count, B (1 - e^(-R / B)) for B = D / u, must
// follow the simulated device reads from sparse lookups to a file read
// whole.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "src/predict/model.h"

namespace disktune::predict {
namespace {

constexpr uint64_t kPage = 4096;
constexpr uint64_t kFileBytes = 40'000'000;

// Device reads of `lookups` uniform lookups over blocks whose sizes vary by
// up to a quarter around `block` (compressed blocks differ in size, so they
// fall at every alignment to the pages).
uint64_t SimulatedReads(double block, uint64_t lookups) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> size(0.75 * block, 1.25 * block);
  std::vector<uint64_t> starts{0};
  while (starts.back() < kFileBytes) {
    starts.push_back(starts.back() + static_cast<uint64_t>(size(rng)));
  }
  const uint64_t blocks = starts.size() - 1;
  std::vector<bool> cached(starts.back() / kPage + 1, false);
  std::uniform_int_distribution<uint64_t> pick(0, blocks - 1);
  uint64_t reads = 0;
  for (uint64_t i = 0; i < lookups; ++i) {
    const uint64_t b = pick(rng);
    const uint64_t first = starts[b] / kPage;
    const uint64_t last = (starts[b + 1] - 1) / kPage;
    bool miss = false;
    for (uint64_t p = first; p <= last; ++p) miss = miss || !cached[p];
    if (!miss) continue;
    ++reads;
    for (uint64_t p = first; p <= last; ++p) cached[p] = true;
  }
  return reads;
}

TEST(ColdReadUnit, FirstTouchesFollowASimulationOfBlockReads) {
  Workload w;  // 16-byte keys, 100-byte values, compression ratio 0.5
  const double on_disk = (16 + 100 * 0.5) / 116.0;
  for (uint64_t block : {2048u, 4096u, 8192u, 16384u, 32768u}) {
    LsmShape shape;
    shape.block_bytes = block;
    const double u = ColdReadUnitBytes(w, shape, DiskFigures{});
    const double units = kFileBytes / u;
    for (uint64_t lookups : {3000u, 10000u, 30000u, 400000u}) {
      const double model = units * (1 - std::exp(-(lookups / units)));
      const double simulated =
          static_cast<double>(SimulatedReads(block * on_disk, lookups));
      EXPECT_NEAR(model / simulated, 1.0, 0.06)
          << block << "-byte blocks (" << block * on_disk << " on disk), "
          << lookups << " lookups: model " << model << ", simulated "
          << simulated;
    }
  }
}

}  // namespace
}  // namespace disktune::predict
