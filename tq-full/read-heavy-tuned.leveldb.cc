// disktune 0.1.0 tune: leveldb for workload 'read-heavy', 128 MiB memory budget (profile read-heavy-tuned.json)
// Verdict: 1.54x [1.40x, 1.67x] the baseline's throughput (median, 95% interval), 6 interleaved repeats each
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
  options.block_cache = leveldb::NewLRUCache(122420852);  // 116.7 MiB
  options.filter_policy = leveldb::NewBloomFilterPolicy(10);
  options.compression = leveldb::kNoCompression;
  options.block_size = 4096;  // 4 KiB (the default)
  options.max_open_files = 1000;  // the default
  options.max_file_size = 2097152;  // 2 MiB (the default)
  return options;
}
