#include "src/bench/anon_rss_sampler.h"

#include <algorithm>

#include "src/bench/process_stats.h"

namespace disktune::bench {

AnonRssSampler::AnonRssSampler(std::chrono::milliseconds interval) {
  Note(AnonRss());
  thread_ = std::thread([this, interval] { Loop(interval); });
}

AnonRssSampler::~AnonRssSampler() { Stop(); }

void AnonRssSampler::Note(std::optional<uint64_t> v) {
  if (!v) return;
  std::lock_guard<std::mutex> lock(mu_);
  peak_ = std::max(peak_.value_or(0), *v);
}

void AnonRssSampler::Loop(std::chrono::milliseconds interval) {
  std::unique_lock<std::mutex> lock(mu_);
  while (!cv_.wait_for(lock, interval, [this] { return stop_; })) {
    lock.unlock();
    Note(AnonRss());
    lock.lock();
  }
}

std::optional<uint64_t> AnonRssSampler::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  Note(AnonRss());
  std::lock_guard<std::mutex> lock(mu_);
  return peak_;
}

}  // namespace disktune::bench
