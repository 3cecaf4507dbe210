#include "src/bench/crc32c.h"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace disktune::bench {
namespace {

constexpr uint32_t kPoly = 0x82F63B78;  // reflected Castagnoli

constexpr std::array<uint32_t, 256> MakeTable() {
  std::array<uint32_t, 256> t{};
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ kPoly : c >> 1;
    t[i] = c;
  }
  return t;
}
constexpr std::array<uint32_t, 256> kTable = MakeTable();

uint32_t SoftwareExtend(uint32_t crc, const char* data, size_t n) {
  uint32_t c = ~crc;
  const auto* p = reinterpret_cast<const unsigned char*>(data);
  for (size_t i = 0; i < n; i++) c = kTable[(c ^ p[i]) & 0xff] ^ (c >> 8);
  return ~c;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t HardwareExtend(uint32_t crc,
                                                          const char* data,
                                                          size_t n) {
  uint64_t c = ~crc;
  while (n >= 8) {
    uint64_t v;
    std::memcpy(&v, data, 8);
    c = _mm_crc32_u64(c, v);
    data += 8;
    n -= 8;
  }
  auto c32 = static_cast<uint32_t>(c);
  while (n > 0) {
    c32 = _mm_crc32_u8(c32, static_cast<unsigned char>(*data));
    data++;
    n--;
  }
  return ~c32;
}
#endif

}  // namespace

bool Crc32cIsHardware() {
#if defined(__x86_64__)
  static const bool kHave = __builtin_cpu_supports("sse4.2");
  return kHave;
#else
  return false;
#endif
}

uint32_t Crc32cExtend(uint32_t crc, const char* data, size_t n) {
#if defined(__x86_64__)
  if (Crc32cIsHardware()) return HardwareExtend(crc, data, n);
#endif
  return SoftwareExtend(crc, data, n);
}

}  // namespace disktune::bench
