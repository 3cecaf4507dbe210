// The tuner's engine models name the library this build links, not a
// version written into the code: LevelDB's from the headers it was built
// with (LevelDB has no run-time version call), RocksDB's from the library
// asked at run time (DISKTUNE_ROCKSDB_PREFIX may link another build).
#include <gtest/gtest.h>
#include <leveldb/db.h>
#include <rocksdb/version.h>

#include <string>

#include "src/tune/knobs.h"

namespace disktune::tune {
namespace {

TEST(EngineModelVersionTest, LevelDbIsTheLinkedHeaders) {
  EXPECT_EQ(ModelFor("leveldb").version,
            std::to_string(leveldb::kMajorVersion) + "." +
                std::to_string(leveldb::kMinorVersion));
}

TEST(EngineModelVersionTest, RocksDbIsTheLinkedLibrary) {
  EXPECT_EQ(ModelFor("rocksdb").version,
            rocksdb::GetRocksVersionAsString(true));
}

}  // namespace
}  // namespace disktune::tune
