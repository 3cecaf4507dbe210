#include "src/bench/db_model.h"

#include <algorithm>

#include "src/bench/key_value.h"

namespace disktune::bench {

uint64_t ValueShape::EntryBytes(uint64_t k) const {
  return key_size + (utxo ? UtxoValueLength(k) : value_size);
}

void DbModel::Reset(ValueShape shape) {
  shape_ = shape;
  capacity_ = 0;
  bits_.reset();
  live_keys_ = 0;
  live_bytes_ = 0;
  key_end_ = 0;
  exact_ = true;
  single_writer_ = false;
}

void DbModel::Reserve(uint64_t n) {
  if (n <= capacity_) return;
  uint64_t words = (n + 63) / 64;
  auto bits = std::make_unique<std::atomic<uint64_t>[]>(words);
  uint64_t old_words = (capacity_ + 63) / 64;
  for (uint64_t i = 0; i < words; i++) {
    bits[i].store(i < old_words ? bits_[i].load() : 0,
                  std::memory_order_relaxed);
  }
  bits_ = std::move(bits);
  capacity_ = words * 64;
}

void DbModel::NoteShape(const ValueShape& shape) {
  if (!(shape == shape_)) exact_ = false;
}

int64_t DbModel::Put(uint64_t k) {
  constexpr auto kRelaxed = std::memory_order_relaxed;
  uint64_t end = key_end_.load(kRelaxed);
  if (k + 1 > end) {
    if (single_writer_) {
      key_end_.store(k + 1, kRelaxed);
    } else {
      while (k + 1 > end &&
             !key_end_.compare_exchange_weak(end, k + 1, kRelaxed)) {
      }
    }
  }
  if (k >= capacity_) {
    exact_.store(false, kRelaxed);
    return 0;
  }
  std::atomic<uint64_t>& word = bits_[k / 64];
  const uint64_t mask = uint64_t{1} << (k % 64);
  // Most puts of an overwrite find their key present: a load settles them.
  uint64_t old = word.load(kRelaxed);
  if (old & mask) return 0;
  if (single_writer_) {
    word.store(old | mask, kRelaxed);
  } else if (word.fetch_or(mask, kRelaxed) & mask) {
    return 0;
  }
  return static_cast<int64_t>(shape_.EntryBytes(k));
}

int64_t DbModel::Delete(uint64_t k) {
  constexpr auto kRelaxed = std::memory_order_relaxed;
  if (k >= capacity_) return 0;
  std::atomic<uint64_t>& word = bits_[k / 64];
  const uint64_t mask = uint64_t{1} << (k % 64);
  uint64_t old = word.load(kRelaxed);
  if (!(old & mask)) return 0;
  if (single_writer_) {
    word.store(old & ~mask, kRelaxed);
  } else if (!(word.fetch_and(~mask, kRelaxed) & mask)) {
    return 0;
  }
  return -static_cast<int64_t>(shape_.EntryBytes(k));
}

bool DbModel::Contains(uint64_t k) const {
  if (k >= capacity_) return false;
  return (bits_[k / 64].load(std::memory_order_relaxed) >> (k % 64)) & 1;
}

void DbModel::Commit(int64_t live_bytes_delta, int64_t live_keys_delta) {
  live_bytes_ = static_cast<uint64_t>(std::max<int64_t>(
      0, static_cast<int64_t>(live_bytes_) + live_bytes_delta));
  live_keys_ = static_cast<uint64_t>(
      std::max<int64_t>(0, static_cast<int64_t>(live_keys_) + live_keys_delta));
}

}  // namespace disktune::bench
