#include "src/predict/engine_facts.h"

#include <cstdlib>

namespace disktune::predict {
namespace {

void Read(const std::vector<std::pair<std::string, std::string>>& settings,
          const std::string& key, uint64_t* v) {
  for (const auto& [k, text] : settings) {
    if (k != key) continue;
    char* end = nullptr;
    unsigned long long n = std::strtoull(text.c_str(), &end, 10);
    if (end != text.c_str() && n > 0) *v = n;
  }
}

}  // namespace

bool HasModel(const std::string& engine) {
  return engine == "leveldb" || engine == "rocksdb";
}

std::optional<LsmShape> ShapeFor(
    const std::string& engine,
    const std::vector<std::pair<std::string, std::string>>& settings) {
  LsmShape s;
  if (engine == "leveldb") {
    s.write_buffer_bytes = 4u << 20;  // leveldb::Options::write_buffer_size
    s.table_file_bytes = 2u << 20;    // leveldb::Options::max_file_size
    s.level1_bytes = 10u << 20;       // MaxBytesForLevel(1) in version_set.cc
    s.fanout = 10;                    // MaxBytesForLevel multiplies by 10
    s.block_bytes = 4096;             // leveldb::Options::block_size
    // Table files are mapped (PosixEnv's mmap limit: 1000 files on 64-bit):
    // a fault reads the kernel's read-around window, the device's
    // read_ahead_kb, and a scan its readahead (model.h, cold reads).
    s.mapped_tables = true;
    s.scan_read_bytes = 0;
    // One compaction thread fdatasyncs each output file before starting the
    // next (FinishCompactionOutputFile in db_impl.cc).
    s.syncs_table_files = true;
    Read(settings, "leveldb.write_buffer_size", &s.write_buffer_bytes);
    Read(settings, "leveldb.max_file_size", &s.table_file_bytes);
    Read(settings, "leveldb.block_size", &s.block_bytes);
    return s;
  }
  if (engine == "rocksdb") {
    s.write_buffer_bytes = 64u << 20;  // ColumnFamilyOptions default
    s.table_file_bytes = 64u << 20;    // target_file_size_base default
    s.level1_bytes = 256u << 20;       // max_bytes_for_level_base default
    s.fanout = 10;                     // max_bytes_for_level_multiplier
    s.block_bytes = 4096;              // BlockBasedTableOptions::block_size
    // A cold miss preads one block: advise_random_on_open turns readahead
    // off (mapped_tables stays false).
    // Flushes and compactions (and their syncs) run in background jobs.
    s.syncs_table_files = false;
    Read(settings, "rocksdb.write_buffer_size", &s.write_buffer_bytes);
    Read(settings, "rocksdb.target_file_size_base", &s.table_file_bytes);
    Read(settings, "rocksdb.max_bytes_for_level_base", &s.level1_bytes);
    // An iterator's automatic readahead grows to max_auto_readahead_size
    // (BlockBasedTableOptions, 256 KiB by default).
    s.scan_read_bytes = 256u << 10;
    return s;
  }
  return std::nullopt;
}

}  // namespace disktune::predict
