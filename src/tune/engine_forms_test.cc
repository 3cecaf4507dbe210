// The engine forms: the RocksDB OPTIONS file parses as key=value sections
// and RocksDB itself loads it with the chosen values, RocksDB's own knobs
// included; the LevelDB snippet and JSON carry the chosen values and none of
// RocksDB's own.
#include "src/tune/engine_forms.h"

#include <gtest/gtest.h>
#include <rocksdb/convenience.h>
#include <rocksdb/env.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/table.h>
#include <rocksdb/utilities/options_util.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "src/tune/chosen_config_for_test.h"

namespace disktune::tune {
namespace {

TuneConfig Chosen() { return ChosenConfigForTest(); }

TEST(EngineFormsTest, RocksDbIniParsesAsSections) {
  std::string ini = RocksDbOptionsIni(Chosen(), "line one\nline two");
  auto s = ParseIni(ini);
  ASSERT_TRUE(s.ok()) << s.status().ToString() << "\n" << ini;
  ASSERT_TRUE(s->count("DBOptions"));
  ASSERT_TRUE(s->count("CFOptions \"default\""));
  ASSERT_TRUE(s->count("TableOptions/BlockBasedTable \"default\""));
  EXPECT_EQ(s->at("DBOptions").at("max_open_files"), "6000");
  const auto& cf = s->at("CFOptions \"default\"");
  EXPECT_EQ(cf.at("write_buffer_size"), std::to_string(48 * kMiB));
  EXPECT_EQ(cf.at("compression"), "kLZ4Compression");
  EXPECT_EQ(cf.at("target_file_size_base"), std::to_string(16 * kMiB));
  const auto& t = s->at("TableOptions/BlockBasedTable \"default\"");
  EXPECT_EQ(t.at("block_size"), "16384");
  EXPECT_EQ(t.at("filter_policy"), "bloomfilter:10:false");
  EXPECT_EQ(t.at("block_cache"), std::to_string(24 * kMiB));
  EXPECT_NE(ini.find("# line two"), std::string::npos);
  EXPECT_NE(ini.find("--cache_size=" + std::to_string(24 * kMiB)),
            std::string::npos);
  EXPECT_NE(ini.find("13 entries per WriteBatch"), std::string::npos);

  EXPECT_FALSE(ParseIni("key=value before a section").ok());
  EXPECT_FALSE(ParseIni("[unterminated\n").ok());
}

// RocksDB's own reading of `ini` as an OPTIONS file (written for it to a
// temporary file named after `name`, removed again).
struct LoadedOptions {
  rocksdb::Status status;
  rocksdb::DBOptions db;
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
};
LoadedOptions LoadRocksDbOptions(const std::string& ini,
                                 const std::string& name) {
  std::string path = std::filesystem::temp_directory_path() /
                     (name + "_" + std::to_string(getpid()) + ".ini");
  {
    std::ofstream f(path);
    f << ini;
  }
  LoadedOptions o;
  rocksdb::ConfigOptions config;
  config.env = rocksdb::Env::Default();
  o.status = rocksdb::LoadOptionsFromFile(config, path, &o.db, &o.cfs);
  std::filesystem::remove(path);
  return o;
}

TEST(EngineFormsTest, RocksDbLoadsTheOptionsFile) {
  LoadedOptions l = LoadRocksDbOptions(RocksDbOptionsIni(Chosen(), "test"),
                                       "engine_forms_test");
  ASSERT_TRUE(l.status.ok()) << l.status.ToString();
  const rocksdb::DBOptions& db = l.db;
  const auto& cfs = l.cfs;
  EXPECT_EQ(db.max_open_files, 6000);
  ASSERT_EQ(cfs.size(), 1u);
  const rocksdb::ColumnFamilyOptions& cf = cfs[0].options;
  EXPECT_EQ(cf.write_buffer_size, 48 * kMiB);
  EXPECT_EQ(cf.compression, rocksdb::kLZ4Compression);
  EXPECT_EQ(cf.target_file_size_base, 16 * kMiB);
  auto* table = cf.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->block_size, 16 * kKiB);
  ASSERT_NE(table->filter_policy, nullptr);
  ASSERT_NE(table->block_cache, nullptr);
  EXPECT_EQ(table->block_cache->GetCapacity(), 24 * kMiB);
}

// RocksDB's own knobs, each away from its default.
TuneConfig ChosenRocksDb() {
  TuneConfig c = Chosen();
  c.Set(KnobId::kMaxWriteBufferNumber, 4);
  c.Set(KnobId::kMinWriteBufferNumberToMerge, 2);
  c.Set(KnobId::kLevel0FileNumCompactionTrigger, 8);
  c.Set(KnobId::kLevel0SlowdownWritesTrigger, 24);
  c.Set(KnobId::kLevel0StopWritesTrigger, 40);
  c.Set(KnobId::kMaxBytesForLevelBase, 512 * kMiB);
  c.Set(KnobId::kMaxBytesForLevelMultiplier, 8);
  c.Set(KnobId::kMaxBackgroundJobs, 6);
  c.Set(KnobId::kBytesPerSync, 1 * kMiB);
  c.Set(KnobId::kWalBytesPerSync, 512 * kKiB);
  c.Set(KnobId::kCompactionReadaheadBytes, 2 * kMiB);
  c.Set(KnobId::kDirectIoForFlushAndCompaction, true);
  c.Set(KnobId::kAllowMmapReads, true);
  c.Set(KnobId::kBottommostCompression, BottommostCompression::kZstd);
  c.Set(KnobId::kCompressionPerLevel, CompressionPerLevel::kNoneToL1);
  c.Set(KnobId::kWholeKeyFiltering, false);
  c.Set(KnobId::kBloomPrefixBytes, 8);
  c.Set(KnobId::kCompactionStyle, CompactionStyle::kUniversal);
  return c;
}

TEST(EngineFormsTest, RocksDbLoadsItsOwnKnobs) {
  const std::string ini = RocksDbOptionsIni(ChosenRocksDb(), "test");
  LoadedOptions l = LoadRocksDbOptions(ini, "engine_forms_own");
  ASSERT_TRUE(l.status.ok()) << l.status.ToString() << "\n" << ini;
  const rocksdb::DBOptions& db = l.db;
  const auto& cfs = l.cfs;
  EXPECT_EQ(db.max_background_jobs, 6);
  EXPECT_EQ(db.bytes_per_sync, 1 * kMiB);
  EXPECT_EQ(db.wal_bytes_per_sync, 512 * kKiB);
  EXPECT_EQ(db.compaction_readahead_size, 2 * kMiB);
  EXPECT_TRUE(db.use_direct_io_for_flush_and_compaction);
  EXPECT_TRUE(db.allow_mmap_reads);
  ASSERT_EQ(cfs.size(), 1u);
  const rocksdb::ColumnFamilyOptions& cf = cfs[0].options;
  EXPECT_EQ(cf.max_write_buffer_number, 4);
  EXPECT_EQ(cf.min_write_buffer_number_to_merge, 2);
  EXPECT_EQ(cf.level0_file_num_compaction_trigger, 8);
  EXPECT_EQ(cf.level0_slowdown_writes_trigger, 24);
  EXPECT_EQ(cf.level0_stop_writes_trigger, 40);
  EXPECT_EQ(cf.max_bytes_for_level_base, 512 * kMiB);
  EXPECT_EQ(cf.max_bytes_for_level_multiplier, 8.0);
  EXPECT_EQ(cf.bottommost_compression, rocksdb::kZSTD);
  ASSERT_EQ(cf.compression_per_level.size(), 7u);
  EXPECT_EQ(cf.compression_per_level[0], rocksdb::kNoCompression);
  EXPECT_EQ(cf.compression_per_level[1], rocksdb::kNoCompression);
  EXPECT_EQ(cf.compression_per_level[2], rocksdb::kLZ4Compression);
  EXPECT_EQ(cf.compression_per_level[6], rocksdb::kLZ4Compression);
  ASSERT_NE(cf.prefix_extractor, nullptr);
  EXPECT_EQ(cf.prefix_extractor->AsString(), "rocksdb.FixedPrefix.8");
  EXPECT_EQ(cf.compaction_style, rocksdb::kCompactionStyleUniversal);
  auto* table = cf.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
  ASSERT_NE(table, nullptr);
  EXPECT_FALSE(table->whole_key_filtering);
}

TEST(EngineFormsTest, RocksDbDefaultsLoadAsRocksDbsOwn) {
  // The model's defaults, written and loaded, are rocksdb::Options()': the
  // table's rocksdb_default column matches the library.
  LoadedOptions l = LoadRocksDbOptions(
      RocksDbOptionsIni(ModelFor("rocksdb").defaults, "test"),
      "engine_forms_defaults");
  ASSERT_TRUE(l.status.ok()) << l.status.ToString();
  const rocksdb::DBOptions& db = l.db;
  const auto& cfs = l.cfs;
  ASSERT_EQ(cfs.size(), 1u);
  const rocksdb::Options def;
  const rocksdb::ColumnFamilyOptions& cf = cfs[0].options;
  EXPECT_EQ(db.max_background_jobs, def.max_background_jobs);
  EXPECT_EQ(db.bytes_per_sync, def.bytes_per_sync);
  EXPECT_EQ(db.wal_bytes_per_sync, def.wal_bytes_per_sync);
  EXPECT_EQ(db.compaction_readahead_size, def.compaction_readahead_size);
  EXPECT_EQ(db.use_direct_io_for_flush_and_compaction,
            def.use_direct_io_for_flush_and_compaction);
  EXPECT_EQ(db.allow_mmap_reads, def.allow_mmap_reads);
  EXPECT_EQ(cf.max_write_buffer_number, def.max_write_buffer_number);
  EXPECT_EQ(cf.min_write_buffer_number_to_merge,
            def.min_write_buffer_number_to_merge);
  EXPECT_EQ(cf.level0_file_num_compaction_trigger,
            def.level0_file_num_compaction_trigger);
  EXPECT_EQ(cf.level0_slowdown_writes_trigger,
            def.level0_slowdown_writes_trigger);
  EXPECT_EQ(cf.level0_stop_writes_trigger, def.level0_stop_writes_trigger);
  EXPECT_EQ(cf.max_bytes_for_level_base, def.max_bytes_for_level_base);
  EXPECT_EQ(cf.max_bytes_for_level_multiplier,
            def.max_bytes_for_level_multiplier);
  EXPECT_EQ(cf.bottommost_compression, def.bottommost_compression);
  EXPECT_TRUE(cf.compression_per_level.empty());
  EXPECT_EQ(cf.prefix_extractor, nullptr);
  EXPECT_EQ(cf.compaction_style, def.compaction_style);
  EXPECT_EQ(cf.target_file_size_base, def.target_file_size_base);
  auto* table = cf.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->whole_key_filtering,
            rocksdb::BlockBasedTableOptions().whole_key_filtering);
}

TEST(EngineFormsTest, LevelDbFormsLeaveRocksDbKnobsOut) {
  TuneConfig c = ChosenRocksDb();
  std::string cc = LevelDbSnippet(c, "header");
  std::string json = LevelDbOptionsJson(c, "header").dump();
  for (const char* name : {"max_write_buffer_number", "bytes_per_sync",
                           "compaction_style", "whole_key_filtering"}) {
    EXPECT_EQ(cc.find(name), std::string::npos) << name;
    EXPECT_EQ(json.find(name), std::string::npos) << name;
  }
}

TEST(EngineFormsTest, LevelDbSnippetHasTheChosenValues) {
  TuneConfig c = Chosen();
  c.Set(KnobId::kCompression, Compression::kNone);
  std::string cc = LevelDbSnippet(c, "header");
  for (const std::string& want :
       {std::string("options.write_buffer_size = 50331648;"),
        std::string("leveldb::NewLRUCache(25165824)"),
        std::string("leveldb::NewBloomFilterPolicy(10)"),
        std::string("options.compression = leveldb::kNoCompression;"),
        std::string("options.block_size = 16384;"),
        std::string("options.max_open_files = 6000;"),
        std::string("options.max_file_size = 16777216;"),
        std::string("write_options.sync = true"),
        std::string("13 entries in each leveldb::WriteBatch"),
        std::string("// header")}) {
    EXPECT_NE(cc.find(want), std::string::npos) << want << "\n" << cc;
  }
  nlohmann::json j = LevelDbOptionsJson(c, "header");
  EXPECT_EQ(j["options"]["write_buffer_size"], 48 * kMiB);
  EXPECT_EQ(j["options"]["block_cache_capacity"], 24 * kMiB);
  EXPECT_EQ(j["options"]["filter_policy_bloom_bits_per_key"], 10);
  EXPECT_EQ(j["options"]["compression"], "kNoCompression");
  EXPECT_EQ(j["options"]["max_open_files"], 6000);
  EXPECT_EQ(j["write_options"]["sync"], true);
  EXPECT_EQ(j["entries_per_batch"], 13);

  auto forms = EngineForms("leveldb", c, "h");
  ASSERT_EQ(forms.size(), 2u);
  EXPECT_EQ(forms[0].first, ".leveldb.cc");
  EXPECT_EQ(forms[1].first, ".leveldb.json");
  EXPECT_EQ(EngineForms("rocksdb", c, "h").front().first, ".rocksdb.ini");
}

}  // namespace
}  // namespace disktune::tune
