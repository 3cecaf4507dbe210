// A config with every knob LevelDB and RocksDB share away from both
// engines' defaults, for the engine-form tests.
#pragma once

#include "src/tune/knobs.h"

namespace disktune::tune {

inline TuneConfig ChosenConfigForTest() {
  TuneConfig c;
  c.Set(KnobId::kCacheBytes, 24 * kMiB);
  c.Set(KnobId::kWriteBufferBytes, 48 * kMiB);
  c.Set(KnobId::kBloomBitsPerKey, 10);
  c.Set(KnobId::kCompression, Compression::kLz4);
  c.Set(KnobId::kBlockSizeBytes, 16 * kKiB);
  c.Set(KnobId::kMaxOpenFiles, 6000);
  c.Set(KnobId::kMaxFileBytes, 16 * kMiB);
  c.entries_per_batch = 13;
  c.sync = true;
  return c;
}

}  // namespace disktune::tune
