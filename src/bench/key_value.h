// Key and value generators compatible with LevelDB's db_bench.
//
// db_bench keys are "%016d" of an integer in [0, num); values come in order
// from a 1 MiB pool of 100-byte pieces, each piece a short random printable
// string repeated to fill it, so a compressor shrinks values to about the
// compression ratio. Reproducing both exactly is what lets a LevelDB user
// compare our numbers with db_bench's.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace disktune::bench {

// Formats integer keys as fixed-width, zero-padded decimal strings. With the
// default width 16 the bytes are exactly db_bench's "%016d"; a wider key is
// padded on the left with more zeros so bytewise order still equals integer
// order (sequential fills stay sequential for the engine).
class KeyFormat {
 public:
  static constexpr size_t kDbBenchKeySize = 16;
  static constexpr size_t kMaxKeySize = 1024;

  // REQUIRES: key_size in [1, kMaxKeySize].
  explicit KeyFormat(size_t key_size = kDbBenchKeySize);

  size_t key_size() const { return key_size_; }
  // Number of decimal digits needed for `k`.
  static size_t Digits(uint64_t k);
  // Whether every key in [0, n) fits in key_size() digits.
  bool Fits(uint64_t n) const;

  // Writes key_size() bytes into `out` (resized as needed). Keys that need
  // more digits than key_size() are truncated on the left; callers check
  // Fits().
  void Format(uint64_t k, std::string* out) const;
  std::string Make(uint64_t k) const {
    std::string s;
    Format(k, &s);
    return s;
  }

 private:
  size_t key_size_;
};

// The UTXO pulse's keys (the Bitcoin Cash UTXO pulse study): a 40-byte
// big-endian serialisation of an integer, as the seed's 100 GB data set was
// built.
constexpr size_t kUtxoKeySize = 40;
void FormatUtxoKey(uint64_t k, std::string* out);
uint64_t ParseUtxoKey(std::string_view key);
// UTXO value length, uniform in [30, 101] but a pure function of the key, so
// an overwrite keeps the live data size and space amplification stays exact.
uint32_t UtxoValueLength(uint64_t k);
constexpr uint32_t kUtxoMinValue = 30;
constexpr uint32_t kUtxoMaxValue = 101;

// db_bench's RandomGenerator: a pool of compressible bytes handed out in order.
// Sharing one pool between threads is safe; each thread keeps its own cursor.
class ValuePool {
 public:
  static constexpr size_t kPoolBytes = 1 << 20;
  static constexpr size_t kPieceBytes = 100;

  // The pool is at least 1 MiB and at least twice `max_value_bytes`, so one
  // value never wraps. `compression_ratio` in (0, 1]; `seed` makes it
  // repeatable.
  ValuePool(double compression_ratio, uint64_t seed,
            size_t max_value_bytes = 0);

  size_t size() const { return data_.size(); }
  std::string_view data() const { return data_; }

  // A cursor over the pool, as db_bench's RandomGenerator::Generate().
  class Cursor {
   public:
    explicit Cursor(const ValuePool* pool) : pool_(pool) {}
    // REQUIRES: len <= pool size / 2.
    std::string_view Next(size_t len) {
      if (pos_ + len > pool_->data_.size()) pos_ = 0;
      pos_ += len;
      return std::string_view(pool_->data_).substr(pos_ - len, len);
    }

   private:
    const ValuePool* pool_;
    size_t pos_ = 0;
  };

 private:
  std::string data_;
};

}  // namespace disktune::bench
