// Noise floors: how far apart two back-to-back runs of the same `probe
// --quick` on the same disk land, per kind of figure. `compare` calls a change
// inside the floor noise when a figure has no repeats to judge it by.
//
// A floor is a ratio (larger over smaller value), so it reads the same in
// both directions: a floor of 3 means identical runs were seen 3x apart.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace disktune {

struct NoiseFloor {
  std::string_view kind;         // "block_rate", "sync_latency_p99", ...
  std::string_view description;  // "IOPS or bandwidth of a block I/O point"
  double ratio = 1;              // larger / smaller seen between equal runs
};

const std::vector<NoiseFloor>& NoiseFloors();

// The floor for one compared figure, by what it is: `row_kind` "probe" or
// "bench", the item ("fsync.fdatasync.2300.append") and the metric ("iops",
// "p99"). Absent for figures no floor was measured for (bench figures).
std::optional<NoiseFloor> NoiseFloorFor(std::string_view row_kind,
                                        std::string_view item,
                                        std::string_view metric);

}  // namespace disktune
