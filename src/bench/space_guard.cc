#include "src/bench/space_guard.h"

#include <sys/statvfs.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <utility>

#include "src/core/units.h"

namespace disktune::bench {
namespace {

// 20 ms: at a fast disk's write rate what lands between two samples stays
// well inside the smallest headroom (benchmarks/README.md, "Harness design
// records").
constexpr auto kPoll = std::chrono::milliseconds(20);
constexpr uint64_t kMinHeadroom = uint64_t{64} << 20;
constexpr uint64_t kMaxHeadroom = uint64_t{1} << 30;

std::atomic<uint64_t> g_test_headroom{0};

}  // namespace

uint64_t SpaceHeadroomBytes(uint64_t filesystem_bytes) {
  // A filesystem smaller than 256 MiB keeps a quarter back instead.
  uint64_t floor = std::min(kMinHeadroom, filesystem_bytes / 4);
  return std::clamp(filesystem_bytes / 20, floor, kMaxHeadroom);
}

void SpaceGuard::SetHeadroomForTesting(uint64_t bytes) {
  g_test_headroom.store(bytes);
}

SpaceGuard::SpaceGuard(std::string path) : path_(std::move(path)) {
  struct statvfs sv {};
  if (statvfs(path_.c_str(), &sv) != 0) return;  // nothing to watch
  uint64_t total = static_cast<uint64_t>(sv.f_blocks) * sv.f_frsize;
  headroom_ = g_test_headroom.load() ? g_test_headroom.load()
                                     : SpaceHeadroomBytes(total);
  Watcher::Options o;
  o.interval = kPoll;
  o.space_path = path_;
  o.headroom = headroom_;
  watcher_ = std::make_unique<Watcher>(std::move(o));
}

std::string SpaceGuard::Message() const {
  return "free space on " + path_ + " fell to " +
         FormatBytes(
             static_cast<double>(watcher_ ? watcher_->free_at_low() : 0)) +
         ", below the " + FormatBytes(static_cast<double>(headroom_)) +
         " kept back so the engine can finish cleanly; free some space, "
         "lower --num or choose another --dir";
}

std::string SpaceGuard::GoneMessage() const {
  return "free-space guard stopped: its watcher process (pid " +
         std::to_string(watcher_ ? watcher_->process_id() : -1) +
         ") ended, so nothing watched the free space on " + path_ +
         "; the scenario was stopped rather than run on unguarded";
}

}  // namespace disktune::bench
