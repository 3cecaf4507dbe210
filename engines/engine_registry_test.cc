#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engines/engine.h"

namespace disktune {
namespace {

// The ids this build should offer, in registry order, from the same
// DISKTUNE_HAVE_<X> definitions the registry is compiled with.
std::vector<std::string> ExpectedIds() {
  std::vector<std::string> ids;
#if DISKTUNE_HAVE_LEVELDB
  ids.push_back("leveldb");
#endif
#if DISKTUNE_HAVE_ROCKSDB
  ids.push_back("rocksdb");
#endif
#if DISKTUNE_HAVE_SQLITE3
  ids.push_back("sqlite3");
#endif
#if DISKTUNE_HAVE_KYOTOCABINET
  ids.push_back("kyotocabinet");
#endif
#if DISKTUNE_HAVE_LMDB
  ids.push_back("lmdb");
#endif
#if DISKTUNE_HAVE_BDB
  ids.push_back("bdb");
#endif
  return ids;
}

TEST(EngineRegistryTest, AvailableEnginesMatchesTheBuild) {
  std::vector<std::string> ids;
  for (const EngineInfo& info : AvailableEngines()) {
    ids.emplace_back(info.id);
    EXPECT_FALSE(info.description.empty()) << info.id;
  }
  EXPECT_EQ(ids, ExpectedIds());
}

TEST(EngineRegistryTest, NewEngineMakesTheEngineNamed) {
  for (const EngineInfo& info : AvailableEngines()) {
    Result<std::unique_ptr<Engine>> engine = NewEngine(info.id);
    ASSERT_TRUE(engine.ok()) << engine.status().ToString();
    EXPECT_EQ((*engine)->id(), info.id);
  }
}

TEST(EngineRegistryTest, UnknownIdIsInvalidArgumentListingTheValidIds) {
  Result<std::unique_ptr<Engine>> engine = NewEngine("foo");
  ASSERT_FALSE(engine.ok());
  EXPECT_EQ(engine.status().code(), Status::Code::kInvalidArgument);
  std::string valid;
  for (const std::string& id : ExpectedIds()) {
    valid += (valid.empty() ? "" : ", ") + id;
  }
  EXPECT_EQ(engine.status().message(), "unknown engine 'foo'; valid: " + valid);
}

#if DISKTUNE_HAVE_LEVELDB && DISKTUNE_HAVE_ROCKSDB && DISKTUNE_HAVE_SQLITE3 && \
    DISKTUNE_HAVE_KYOTOCABINET && DISKTUNE_HAVE_LMDB && DISKTUNE_HAVE_BDB
TEST(EngineRegistryTest, FullBuildMessageSpellsOutEveryId) {
  EXPECT_EQ(NewEngine("foo").status().message(),
            "unknown engine 'foo'; valid: leveldb, rocksdb, sqlite3, "
            "kyotocabinet, lmdb, bdb");
}
#endif

TEST(EngineRegistryTest, IdsAreCaseSensitive) {
  EXPECT_FALSE(NewEngine("LevelDB").ok());
  EXPECT_FALSE(NewEngine("").ok());
}

TEST(EngineCompressionTest, NamesRoundTrip) {
  for (Compression c :
       {Compression::kNone, Compression::kSnappy, Compression::kLz4,
        Compression::kZstd, Compression::kLzo}) {
    EXPECT_EQ(ParseCompression(CompressionName(c)), c) << CompressionName(c);
  }
  EXPECT_STREQ(CompressionName(Compression::kNone), "none");
  EXPECT_STREQ(CompressionName(Compression::kSnappy), "snappy");
  EXPECT_STREQ(CompressionName(Compression::kLz4), "lz4");
  EXPECT_STREQ(CompressionName(Compression::kZstd), "zstd");
  EXPECT_STREQ(CompressionName(Compression::kLzo), "lzo");
}

TEST(EngineCompressionTest, ParseIgnoresCaseAndRejectsUnknownNames) {
  EXPECT_EQ(ParseCompression("Snappy"), Compression::kSnappy);
  EXPECT_EQ(ParseCompression("ZSTD"), Compression::kZstd);
  EXPECT_EQ(ParseCompression("gzip"), std::nullopt);
  EXPECT_EQ(ParseCompression(""), std::nullopt);
  EXPECT_EQ(ParseCompression("snappy "), std::nullopt);
}

}  // namespace
}  // namespace disktune
