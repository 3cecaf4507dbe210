#include "src/bench/anon_rss_sampler.h"

namespace disktune::bench {
namespace {

Watcher::Options SamplerOptions(std::chrono::milliseconds interval) {
  Watcher::Options o;
  o.interval = interval;
  o.anon_rss = true;
  return o;
}

}  // namespace

AnonRssSampler::AnonRssSampler(std::chrono::milliseconds interval)
    : watcher_(SamplerOptions(interval)) {}

}  // namespace disktune::bench
