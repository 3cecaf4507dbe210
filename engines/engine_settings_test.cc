// The configuration each adapter opens with: by default the one of the
// engine's own published benchmark; engine settings and common knobs change
// it, and Settings() reports what is in force. Also the library build each
// adapter reports.
#include "engines/engine_settings.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <map>
#include <string>

#include "engines/engine.h"
#include "engines/engine_library.h"
#include "engines/temp_db_for_test.h"

namespace disktune {
namespace {

namespace fs = std::filesystem;

using testing::TempDb;

bool Available(std::string_view id) {
  for (const EngineInfo& e : AvailableEngines()) {
    if (e.id == id) return true;
  }
  return false;
}

// Opens `id` with `o` and returns its settings as a map.
std::map<std::string, std::string> OpenSettings(std::string_view id,
                                                const EngineOptions& o) {
  TempDb dir;
  auto engine = NewEngine(id);
  EXPECT_TRUE(engine.ok());
  if (!engine.ok()) return {};
  Status s = (*engine)->Open(dir.db(), o);
  EXPECT_TRUE(s.ok()) << s.ToString();
  std::map<std::string, std::string> m;
  for (const auto& [k, v] : (*engine)->Settings()) m[k] = v;
  EXPECT_TRUE((*engine)->Close().ok());
  return m;
}

// Opens `id` with `o` and checks the settings in `want` (others may be
// there too).
void ExpectSettings(std::string_view id, const EngineOptions& o,
                    const std::map<std::string, std::string>& want) {
  auto m = OpenSettings(id, o);
  for (const auto& [k, v] : want) EXPECT_EQ(m[k], v) << k;
}

// The i-th key: 16 digits, so keys sort as their numbers.
std::string Key(int i) {
  char b[32];
  std::snprintf(b, sizeof(b), "%016d", i);
  return b;
}

#define REQUIRE_ENGINE(id) \
  if (!Available(id)) GTEST_SKIP() << id << " not in this build"

TEST(EngineSettingsTest, ParsesAndChecks) {
  auto ok = ParseEngineSetting("lmdb.writemap=off");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->first, "lmdb.writemap");
  EXPECT_EQ(ok->second, "off");
  EXPECT_TRUE(ParseEngineSetting("sqlite3.wal_autocheckpoint=1000").ok());
  EXPECT_FALSE(ParseEngineSetting("lmdb.writemap").ok());
  EXPECT_FALSE(ParseEngineSetting("lmdb.writemap=maybe").ok());
  EXPECT_FALSE(ParseEngineSetting("lmdb.writmap=on").ok());
  EXPECT_FALSE(ParseEngineSetting("sqlite3.wal_autocheckpoint=-1").ok());
  EXPECT_FALSE(ParseEngineSetting("bdb.commit=sync").ok());
  const Status unknown = CheckEngineSetting("nope", "1");
  EXPECT_NE(unknown.message().find("lmdb.writemap"), std::string::npos)
      << unknown.message();
}

TEST(EngineSettingsTest, LastValueWinsElseDefault) {
  EngineOptions o;
  EXPECT_TRUE(EngineSettingOn(o, "lmdb.writemap"));
  o.settings = {{"lmdb.writemap", "off"}, {"lmdb.writemap", "on"}};
  EXPECT_TRUE(EngineSettingOn(o, "lmdb.writemap"));
  o.settings.emplace_back("lmdb.writemap", "off");
  EXPECT_FALSE(EngineSettingOn(o, "lmdb.writemap"));
  EXPECT_EQ(EngineSettingCount(o, "bdb.checkpoint_kib"), 81920u);
}

TEST(EngineSettingsTest, LmdbOpensAsItsOwnBenchmark) {
  REQUIRE_ENGINE("lmdb");
  ExpectSettings("lmdb", EngineOptions{},
                 {{"lmdb.env_flags", "MDB_NOSYNC|MDB_NOTLS|MDB_WRITEMAP"},
                  {"lmdb.writemap", "on"},
                  {"lmdb.append", "on"}});
  EngineOptions prod;
  prod.settings = {{"lmdb.writemap", "off"},
                   {"lmdb.append", "off"},
                   {"lmdb.readahead", "off"}};
  ExpectSettings("lmdb", prod,
                 {{"lmdb.env_flags", "MDB_NOSYNC|MDB_NOTLS|MDB_NORDAHEAD"},
                  {"lmdb.append", "off"}});
}

// MDB_APPEND is taken only past the largest key, so any order of puts and
// deletes reads back exactly.
TEST(EngineSettingsTest, LmdbAppendKeepsEveryKey) {
  REQUIRE_ENGINE("lmdb");
  TempDb dir;
  auto engine = NewEngine("lmdb");
  ASSERT_TRUE(engine.ok());
  Engine& e = **engine;
  ASSERT_TRUE(e.Open(dir.db(), EngineOptions{}).ok());
  for (int i = 0; i < 2000; i += 2) ASSERT_TRUE(e.Put(Key(i), "a", {}).ok());
  for (int i = 1999; i > 0; i -= 2) ASSERT_TRUE(e.Put(Key(i), "b", {}).ok());
  ASSERT_TRUE(e.Delete(Key(1999), {}).ok());
  ASSERT_TRUE(e.Put(Key(1999), "c", {}).ok());  // the largest key again
  ASSERT_TRUE(e.Put(Key(2000), "d", {}).ok());
  WriteBatch batch;
  batch.Put(Key(2002), "e");
  batch.Put(Key(2001), "f");
  ASSERT_TRUE(e.Write(batch, {}).ok());
  ASSERT_TRUE(e.Close().ok());
  ASSERT_TRUE(e.Open(dir.db(), EngineOptions{}).ok());
  ASSERT_TRUE(e.Put(Key(2003), "g", {}).ok());  // largest key read at open
  std::string v;
  for (int i = 0; i <= 2003; i++) {
    ASSERT_TRUE(e.Get(Key(i), &v).ok()) << i;
  }
  ASSERT_TRUE(e.Get(Key(1999), &v).ok());
  EXPECT_EQ(v, "c");
  ASSERT_TRUE(e.Get(Key(2001), &v).ok());
  EXPECT_EQ(v, "f");
  auto it = e.NewIterator();
  int n = 0;
  std::string last;
  for (it->SeekToFirst(); it->Valid(); it->Next(), n++) {
    EXPECT_LT(last, std::string(it->key()));
    last = std::string(it->key());
  }
  EXPECT_EQ(n, 2004);
  it.reset();
  ASSERT_TRUE(e.Close().ok());
}

TEST(EngineSettingsTest, KyotoOpensAsLevelDbsTreeDbBenchmark) {
  REQUIRE_ENGINE("kyotocabinet");
  ExpectSettings(
      "kyotocabinet", EngineOptions{},
      {{"kyotocabinet.tune_options", "TSMALL|TLINEAR|TCOMPRESS"},
       {"kyotocabinet.compressor", "lzo (raw)"},
       {"kyotocabinet.page_cache_bytes", "4194304"},
       {"kyotocabinet.page_bytes", "1024"},
       {"kyotocabinet.map_bytes", "268435456"},
       {"kyotocabinet.write_benchmark_end",
        "synchronize() inside the time, as LevelDB's TreeDB benchmark"}});
  EngineOptions knobs;
  knobs.Set(KnobId::kCompression, Compression::kNone);
  knobs.Set(KnobId::kCacheBytes, 8 << 20);
  knobs.Set(KnobId::kBlockSizeBytes, 4096);
  ExpectSettings("kyotocabinet", knobs,
                 {{"kyotocabinet.tune_options", "TSMALL|TLINEAR"},
                  {"kyotocabinet.compressor", "none"},
                  {"kyotocabinet.page_cache_bytes", "8388608"},
                  {"kyotocabinet.page_bytes", "4096"}});
}

TEST(EngineSettingsTest, SqliteOpensAsLevelDbsSqliteBenchmark) {
  REQUIRE_ENGINE("sqlite3");
  ExpectSettings("sqlite3", EngineOptions{},
                 {{"sqlite3.journal_mode", "wal"},
                  {"sqlite3.locking_mode", "exclusive"},
                  {"sqlite3.cache_size", "4096 pages"},
                  {"sqlite3.wal_autocheckpoint", "4096"},
                  {"sqlite3.write_benchmark_end",
                   "FULL WAL checkpoint inside the time, as LevelDB's SQLite "
                   "benchmark"}});
  EngineOptions o;
  o.settings = {{"sqlite3.wal_autocheckpoint", "1000"}};
  o.Set(KnobId::kCacheBytes, 8 << 20);
  ExpectSettings("sqlite3", o,
                 {{"sqlite3.wal_autocheckpoint", "1000"},
                  {"sqlite3.cache_size", "8192 KiB"}});
}

TEST(EngineSettingsTest, BdbOpensAsTheLmdbProjectsBdbBenchmark) {
  REQUIRE_ENGINE("bdb");
  ExpectSettings("bdb", EngineOptions{},
                 {{"bdb.set_flags", "DB_REGION_INIT|DB_TXN_WRITE_NOSYNC"},
                  {"bdb.cache_bytes", "4194304"},
                  {"bdb.checkpoint_kib", "81920"},
                  {"bdb.lk_max_locks", "100000"}});
  EngineOptions o;
  o.settings = {{"bdb.commit", "nosync"}, {"bdb.checkpoint_kib", "0"}};
  ExpectSettings(
      "bdb", o,
      {{"bdb.set_flags", "DB_REGION_INIT"}, {"bdb.checkpoint_kib", "0"}});
}

TEST(EngineSettingsTest, LsmEnginesReportTheirOptions) {
  for (const char* id : {"leveldb", "rocksdb"}) {
    if (!Available(id)) continue;
    EngineOptions o;
    o.Set(KnobId::kWriteBufferBytes, 8 << 20);
    auto m = OpenSettings(id, o);
    EXPECT_EQ(m[std::string(id) + ".write_buffer_size"], "8388608") << id;
    EXPECT_FALSE(m[std::string(id) + ".version"].empty()) << id;
  }
}

// RocksDB's own knobs, each away from its default (direct I/O aside: the
// test's temporary directory may not take O_DIRECT).
EngineOptions RocksDbOwnKnobs() {
  EngineOptions o;
  o.Set(KnobId::kWriteBufferBytes, 1 << 20);
  o.Set(KnobId::kMaxWriteBufferNumber, 4);
  o.Set(KnobId::kMinWriteBufferNumberToMerge, 2);
  o.Set(KnobId::kLevel0FileNumCompactionTrigger, 2);
  o.Set(KnobId::kLevel0SlowdownWritesTrigger, 24);
  o.Set(KnobId::kLevel0StopWritesTrigger, 40);
  o.Set(KnobId::kMaxBytesForLevelBase, 32 << 20);
  o.Set(KnobId::kMaxBytesForLevelMultiplier, 8);
  o.Set(KnobId::kMaxBackgroundJobs, 3);
  o.Set(KnobId::kBytesPerSync, 1 << 20);
  o.Set(KnobId::kWalBytesPerSync, 512 << 10);
  o.Set(KnobId::kCompactionReadaheadBytes, 2 << 20);
  o.Set(KnobId::kAllowMmapReads, true);
  o.Set(KnobId::kBottommostCompression, BottommostCompression::kNone);
  o.Set(KnobId::kCompressionPerLevel, CompressionPerLevel::kNoneToL1);
  o.Set(KnobId::kWholeKeyFiltering, false);
  o.Set(KnobId::kBloomPrefixBytes, 12);
  o.Set(KnobId::kCompactionStyle, CompactionStyle::kUniversal);
  return o;
}

TEST(EngineSettingsTest, RocksDbTakesItsOwnKnobs) {
  REQUIRE_ENGINE("rocksdb");
  auto m = OpenSettings("rocksdb", RocksDbOwnKnobs());
  EXPECT_EQ(m["rocksdb.max_write_buffer_number"], "4");
  EXPECT_EQ(m["rocksdb.min_write_buffer_number_to_merge"], "2");
  EXPECT_EQ(m["rocksdb.level0_file_num_compaction_trigger"], "2");
  EXPECT_EQ(m["rocksdb.level0_slowdown_writes_trigger"], "24");
  EXPECT_EQ(m["rocksdb.level0_stop_writes_trigger"], "40");
  EXPECT_EQ(m["rocksdb.max_bytes_for_level_base"], std::to_string(32 << 20));
  EXPECT_EQ(m["rocksdb.max_background_jobs"], "3");
  EXPECT_EQ(m["rocksdb.bytes_per_sync"], std::to_string(1 << 20));
  EXPECT_EQ(m["rocksdb.wal_bytes_per_sync"], std::to_string(512 << 10));
  EXPECT_EQ(m["rocksdb.compaction_readahead_size"], std::to_string(2 << 20));
  EXPECT_EQ(m["rocksdb.use_direct_io_for_flush_and_compaction"], "false");
  EXPECT_EQ(m["rocksdb.allow_mmap_reads"], "true");
  EXPECT_EQ(m["rocksdb.bottommost_compression"], "none");
  EXPECT_EQ(m["rocksdb.compression_per_level"].substr(0, 10), "none:none:");
  EXPECT_EQ(m["rocksdb.prefix_extractor"], "rocksdb.FixedPrefix.12");
  EXPECT_EQ(m["rocksdb.compaction_style"], "universal");
  EXPECT_NE(m["rocksdb.table_factory"].find("whole_key_filtering=false"),
            std::string::npos)
      << m["rocksdb.table_factory"];
  // RocksDB's defaults where nothing is set.
  ExpectSettings("rocksdb", EngineOptions{},
                 {{"rocksdb.compaction_style", "level"},
                  {"rocksdb.prefix_extractor", "none"},
                  {"rocksdb.compression_per_level", "uniform"}});
}

// A prefix extractor bounds a plain Seek to the target's prefix; scans that
// cross prefixes and point reads through the prefix filter still see every
// key.
TEST(EngineSettingsTest, RocksDbPrefixBloomKeepsScansWhole) {
  REQUIRE_ENGINE("rocksdb");
  TempDb dir;
  auto engine = NewEngine("rocksdb");
  ASSERT_TRUE(engine.ok());
  Engine& e = **engine;
  EngineOptions o = RocksDbOwnKnobs();
  o.Set(KnobId::kBloomBitsPerKey, 10);
  ASSERT_TRUE(e.Open(dir.db(), o).ok());
  EXPECT_TRUE(e.unsupported_knobs().empty());
  for (int i = 0; i < 3000; i++) ASSERT_TRUE(e.Put(Key(i), "v", {}).ok());
  ASSERT_TRUE(e.Flush().ok());
  std::string v;
  EXPECT_TRUE(e.Get(Key(1234), &v).ok());
  EXPECT_EQ(e.Get(Key(5000), &v).code(), Status::Code::kNotFound);
  {
    auto it = e.NewIterator();
    it->Seek(Key(995));
    int n = 0;
    for (; it->Valid(); it->Next()) n++;
    EXPECT_TRUE(it->status().ok());
    EXPECT_EQ(n, 3000 - 995);
  }
  ASSERT_TRUE(e.Close().ok());
}

TEST(EngineSettingsTest, OtherEnginesListRocksDbKnobsAsUnsupported) {
  EngineOptions o;
  o.Set(KnobId::kCompactionStyle, CompactionStyle::kUniversal);
  for (const char* id : {"leveldb", "sqlite3"}) {
    if (!Available(id)) continue;
    TempDb dir;
    auto engine = NewEngine(id);
    ASSERT_TRUE(engine.ok());
    ASSERT_TRUE((*engine)->Open(dir.db(), o).ok()) << id;
    bool listed = false;
    for (const auto& [knob, why] : (*engine)->unsupported_knobs()) {
      if (knob == "compaction_style") {
        listed = true;
        EXPECT_NE(why.find("compaction_style"), std::string::npos) << why;
      }
    }
    EXPECT_TRUE(listed) << id;
    EXPECT_TRUE((*engine)->Close().ok());
  }
}

TEST(EngineLibraryTest, EveryEngineNamesItsBuild) {
  for (const EngineInfo& e : AvailableEngines()) {
    const LibraryBuild b = DescribeEngineLibrary(e.id);
    EXPECT_EQ(b.engine, e.id);
    EXPECT_FALSE(b.version.empty()) << e.id;
    EXPECT_TRUE(b.assertions == "on" || b.assertions == "off" ||
                b.assertions == "unknown")
        << e.id;
    // Linked dynamically, the loader mapped a file for it (Debian's RocksDB
    // CMake package links the static archive: then there is none).
    if (!b.shared_object.empty()) {
      EXPECT_NE(b.shared_object.find(".so"), std::string::npos)
          << e.id << ": " << b.shared_object;
    } else {
      EXPECT_EQ(e.id, "rocksdb");
    }
    // Detected, not assumed, where the library lets it be.
    if (e.id == "rocksdb" || e.id == "sqlite3") {
      EXPECT_NE(b.assertions, "unknown") << e.id;
    }
  }
}

}  // namespace
}  // namespace disktune
