// A config with every knob LevelDB and RocksDB share away from both
// engines' defaults, for the engine-form tests.
#pragma once

#include "src/tune/knobs.h"

namespace disktune::tune {

inline TuneConfig ChosenConfigForTest() {
  TuneConfig c;
  c.cache_bytes = 24 * kMiB;
  c.write_buffer_bytes = 48 * kMiB;
  c.bloom_bits_per_key = 10;
  c.compression = Compression::kLz4;
  c.block_size_bytes = 16 * kKiB;
  c.max_open_files = 6000;
  c.max_file_bytes = 16 * kMiB;
  c.entries_per_batch = 13;
  c.sync = true;
  return c;
}

}  // namespace disktune::tune
