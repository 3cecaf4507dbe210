// DbModel: what the benchmark has put into the database, so that space
// amplification can be computed from exact live bytes and read scenarios can
// refuse to run on an empty database.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

namespace disktune::bench {

// How the value length of key k is determined, which must stay the same for
// the live byte count to remain exact across overwrites.
struct ValueShape {
  uint64_t key_size = 16;
  uint64_t value_size = 100;  // ignored when utxo
  bool utxo = false;
  bool operator==(const ValueShape&) const = default;
  uint64_t EntryBytes(uint64_t k) const;
};

class DbModel {
 public:
  // Forgets everything: a fresh, empty database with the given shape.
  void Reset(ValueShape shape);
  // Makes room for keys < n. Not thread-safe; call between scenarios.
  void Reserve(uint64_t n);
  // A write with another shape than the live data makes live bytes unknown.
  void NoteShape(const ValueShape& shape);

  // Thread-safe unless SetSingleWriter(true). Return the change in live bytes
  // (0 when the key was already present / absent); callers sum deltas and
  // Commit() them once.
  int64_t Put(uint64_t k);
  int64_t Delete(uint64_t k);
  bool Contains(uint64_t k) const;
  void Commit(int64_t live_bytes_delta, int64_t live_keys_delta);

  // While one thread alone calls Put/Delete: they update the bitmap with a
  // plain load and store instead of a locked read-modify-write, which
  // drains the writer's store buffer on every op. The harness's cost per op
  // on a null engine (bench_harness_overhead) fell from 51.6-54.1 to
  // 42.5-43.6 ns on fillseq and from 50.4-52.2 to 46.1-46.7 on fillrandom;
  // LevelDB's overwrite did not move measurably. Not thread-safe; set
  // between phases.
  void SetSingleWriter(bool on) { single_writer_ = on; }

  // REQUIRES: Put/Delete callers have committed.
  uint64_t live_keys() const { return live_keys_; }
  uint64_t live_bytes() const { return live_bytes_; }
  // Highest key index ever put + 1 (UTXO and YCSB inserts append here).
  uint64_t key_end() const { return key_end_.load(); }
  bool exact() const { return exact_.load(std::memory_order_relaxed); }
  uint64_t capacity() const { return capacity_; }
  // Engines that persist across steps; an unknown DB (not modelled) is inexact.
  void MarkInexact() { exact_.store(false, std::memory_order_relaxed); }
  const ValueShape& shape() const { return shape_; }

 private:
  ValueShape shape_;
  uint64_t capacity_ = 0;
  std::unique_ptr<std::atomic<uint64_t>[]> bits_;
  uint64_t live_keys_ = 0;
  uint64_t live_bytes_ = 0;
  std::atomic<uint64_t> key_end_{0};
  std::atomic<bool> exact_{true};
  bool single_writer_ = false;
};

}  // namespace disktune::bench
