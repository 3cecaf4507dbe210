#include "src/bench/key_value.h"

#include <algorithm>
#include <cassert>

#include "src/core/rng.h"

namespace disktune::bench {

KeyFormat::KeyFormat(size_t key_size) : key_size_(key_size) {
  assert(key_size >= 1 && key_size <= kMaxKeySize);
}

size_t KeyFormat::Digits(uint64_t k) {
  size_t d = 1;
  while (k >= 10) {
    k /= 10;
    d++;
  }
  return d;
}

bool KeyFormat::Fits(uint64_t n) const {
  return n == 0 || Digits(n - 1) <= key_size_;
}

void KeyFormat::Format(uint64_t k, std::string* out) const {
  // Two digits per division: this runs once per operation, and db_bench's
  // snprintf("%016d") is the cost it must not exceed.
  static constexpr char kPairs[] =
      "000102030405060708091011121314151617181920212223242526272829303132333435"
      "36"
      "373839404142434445464748495051525354555657585960616263646566676869707172"
      "73"
      "7475767778798081828384858687888990919293949596979899";
  out->resize(key_size_);
  char* p = out->data() + key_size_;
  char* begin = out->data();
  while (p - begin >= 2 && k >= 10) {
    const char* pair = kPairs + 2 * (k % 100);
    k /= 100;
    *--p = pair[1];
    *--p = pair[0];
  }
  while (p > begin) {
    *--p = static_cast<char>('0' + k % 10);
    k /= 10;
  }
}

void FormatUtxoKey(uint64_t k, std::string* out) {
  out->assign(kUtxoKeySize, '\0');
  for (int i = 0; i < 8; i++) {
    (*out)[kUtxoKeySize - 1 - i] = static_cast<char>((k >> (8 * i)) & 0xff);
  }
}

uint64_t ParseUtxoKey(std::string_view key) {
  uint64_t k = 0;
  size_t start = key.size() > 8 ? key.size() - 8 : 0;
  for (size_t i = start; i < key.size(); i++) {
    k = (k << 8) | static_cast<unsigned char>(key[i]);
  }
  return k;
}

uint32_t UtxoValueLength(uint64_t k) {
  // splitmix64 finaliser: a cheap, well-mixed hash of the key.
  uint64_t z = k + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return kUtxoMinValue +
         static_cast<uint32_t>(z % (kUtxoMaxValue - kUtxoMinValue + 1));
}

ValuePool::ValuePool(double compression_ratio, uint64_t seed,
                     size_t max_value_bytes) {
  size_t want = std::max(kPoolBytes, 2 * max_value_bytes);
  // As db_bench's test::CompressibleString: `raw` random printable bytes
  // repeated to fill each 100-byte piece.
  size_t raw = static_cast<size_t>(kPieceBytes * compression_ratio);
  raw = std::clamp<size_t>(raw, 1, kPieceBytes);
  Rng rng(seed);
  data_.reserve(want + kPieceBytes);
  std::string piece;
  while (data_.size() < want) {
    std::string unit(raw, ' ');
    for (char& c : unit) c = static_cast<char>(' ' + rng.Uniform(95));
    piece.clear();
    while (piece.size() < kPieceBytes) piece += unit;
    piece.resize(kPieceBytes);
    data_ += piece;
  }
  data_.resize(want);
}

}  // namespace disktune::bench
