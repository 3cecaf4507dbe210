// CRC-32C (Castagnoli), the checksum LevelDB puts on every block and log
// record; the "crc32c" scenario measures how fast this CPU computes it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace disktune::bench {

// Extends `crc` (the CRC of earlier data, 0 to start) with `n` bytes.
uint32_t Crc32cExtend(uint32_t crc, const char* data, size_t n);
inline uint32_t Crc32c(const char* data, size_t n) {
  return Crc32cExtend(0, data, n);
}
// Whether the SSE4.2 crc32 instruction is used.
bool Crc32cIsHardware();

}  // namespace disktune::bench
