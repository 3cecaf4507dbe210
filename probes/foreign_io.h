// Takes the snapshots of other I/O on the device around the measurements
// (src/model/foreign_io.h holds the window, its rule and its JSON form):
// the disk's counters from /sys/block/<disk>/stat, this process's bytes from
// getrusage and every other live process's from /proc/<pid>/io.
#pragma once

#include <optional>
#include <string>

#include "src/model/foreign_io.h"

namespace disktune {

// Takes `before` for `disk` (a name under /sys/block). nullopt when the
// disk's counters cannot be read (no device behind the directory).
std::optional<ForeignIo> StartForeignIo(const std::string& disk);
// Takes `after` and judges.
void FinishForeignIo(ForeignIo* w);

}  // namespace disktune
