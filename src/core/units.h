// Sizes and durations with units, as typed on a command line: "4KiB", "1MiB",
// "1GB", "128MB", "500ms", "30s". A bare number is refused: "4096" could mean
// bytes or KiB, and a wrong guess silently sizes a probe file wrong.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "src/core/status.h"

namespace disktune {

// B, KiB/MiB/GiB/TiB (1024^n), KB/MB/GB/TB (1000^n); K/M/G/T and k are read as
// binary (as fio and dd do). Case of the unit letters is ignored except 'b'.
Result<uint64_t> ParseSize(std::string_view text);
// ns, us, ms, s, m (minutes), h. Returns nanoseconds.
Result<uint64_t> ParseDuration(std::string_view text);

// A unit as ParseSize and ParseDuration read it, matched exactly (case
// too): "MiB" -> a size of 1048576 bytes, "ms" -> a duration of 1e6 ns; for
// grammars of their own (reports/check.cc) that take the same units.
enum class UnitKind { kSize, kDuration };
struct UnitFactor {
  UnitKind kind;
  double factor;  // bytes or nanoseconds per unit
};
std::optional<UnitFactor> FindUnit(std::string_view unit);

// "4 KiB", "1.5 MiB", "512 B".
std::string FormatBytes(double bytes);
// "1.25 ms", "830 us", "2.0 s".
std::string FormatDuration(double ns);
// "512.3 MB/s" (decimal, as db_bench and fio print bandwidth).
std::string FormatRate(double bytes_per_sec);

}  // namespace disktune
