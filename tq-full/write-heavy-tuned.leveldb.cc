// disktune 0.1.0 tune: leveldb for workload 'write-heavy', 128 MiB memory budget (profile write-heavy-tuned.json)
// Verdict: no significant gain over the defaults (0.84x [0.80x, 0.89x]; the interval reaches 1): keep the defaults
//
// The block cache and the filter policy are owned by the caller:
// delete options.block_cache and options.filter_policy after the DB.
#include <leveldb/cache.h>
#include <leveldb/filter_policy.h>
#include <leveldb/options.h>

leveldb::Options DisktuneOptions() {
  leveldb::Options options;
  options.create_if_missing = true;
  options.write_buffer_size = 4194304;  // 4 MiB (the default)
  options.block_cache = leveldb::NewLRUCache(125328476);  // 119.5 MiB
  // No bloom filter (options.filter_policy stays nullptr).
  options.compression = leveldb::kSnappyCompression;
  options.block_size = 4096;  // 4 KiB (the default)
  options.max_open_files = 1000;  // the default
  options.max_file_size = 2097152;  // 2 MiB (the default)
  return options;
}
