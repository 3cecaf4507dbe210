// Per-probe accounting under `--throttle`: which probe family's bytes went
// through the throttle and which around it.
//
// A throttled device (probes/throttled_device.h) registers its counters by
// its device number while it exists, as the sync floor is kept
// (src/core/sync_floor.h), so the probe run finds them from its scratch
// directory whichever command made the device. The runner takes a snapshot
// before and after each probe's points (and the test file's fill) and
// records the differences under the analyses key "throttle_by_probe".
//
// Per probe family, not per point: writeback and journal commits land after
// the write that caused them (the flusher's expiry, jbd2's commit interval),
// so a point's window holds part of its predecessor's; a family's window is
// long enough that this spill is small against it. What was measured:
// benchmarks/README.md, "What escapes the throttle", "Per probe".
#pragma once

#include <sys/types.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/model/analysis_throttle_by_probe.h"
#include "src/model/throttle_accounting.h"
#include "src/model/throttle_spec.h"

namespace disktune {

// The registry. A meter reads a throttled device's counters now.
using ThrottleMeter = std::function<ThrottleAccounting()>;
// Sets the meter of device `dev` (an empty meter removes it). The owner
// removes it before the counters it reads go away.
void SetThrottleMeter(dev_t dev, ThrottleMeter meter);
// The meter of the device holding the open file or directory `fd`; empty
// when the device is not throttled.
ThrottleMeter ThrottleMeterOfFd(int fd);

}  // namespace disktune
