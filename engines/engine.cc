// The explicit engine registry.
//
// The registry is a plain table guarded by DISKTUNE_HAVE_<X> rather than
// self-registering static objects: a static library drops objects nothing
// references, which would make engines vanish silently.
#include "engines/engine.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "engines/engine_factories.h"
#include "engines/engine_library.h"
#include "src/core/enum_names.h"

namespace disktune {

namespace {

struct RegistryEntry {
  EngineInfo info;
  std::unique_ptr<Engine> (*make)();
  LibraryBuild (*library)();  // the library build the adapter runs on
};

// The order is the order of `disktune list` and of `--engine all`.
const std::vector<RegistryEntry>& Registry() {
  using namespace engine_internal;
  static const std::vector<RegistryEntry> kRegistry = {
#if DISKTUNE_HAVE_LEVELDB
    {{"leveldb", "LevelDB: log-structured merge tree", false},
     NewLevelDbEngine,
     LevelDbLibrary},
#endif
#if DISKTUNE_HAVE_ROCKSDB
    {{"rocksdb", "RocksDB: log-structured merge tree", false},
     NewRocksDbEngine,
     RocksDbLibrary},
#endif
#if DISKTUNE_HAVE_SQLITE3
    {{"sqlite3", "SQLite3: B-tree table, WAL, exclusive locking", true},
     NewSqlite3Engine,
     Sqlite3Library},
#endif
#if DISKTUNE_HAVE_KYOTOCABINET
    {{"kyotocabinet", "Kyoto Cabinet TreeDB: B+ tree (GrassDB in memory)",
      true},
     NewKyotoCabinetEngine,
     KyotoCabinetLibrary},
#endif
#if DISKTUNE_HAVE_LMDB
    {{"lmdb", "LMDB: copy-on-write memory-mapped B+ tree", false},
     NewLmdbEngine,
     LmdbLibrary},
#endif
#if DISKTUNE_HAVE_BDB
    {{"bdb", "Berkeley DB: transactional B-tree", true},
     NewBdbEngine,
     BdbLibrary},
#endif
  };
  return kRegistry;
}

}  // namespace

uint64_t EngineIterator::Skip(uint64_t n, bool forward, uint64_t* bytes) {
  uint64_t i = 0;
  for (; i < n && Valid(); i++) {
    *bytes += key().size() + value().size();
    if (forward) {
      Next();
    } else {
      Prev();
    }
  }
  return i;
}

const std::vector<EngineInfo>& AvailableEngines() {
  static const std::vector<EngineInfo> kInfos = [] {
    std::vector<EngineInfo> infos;
    for (const RegistryEntry& entry : Registry()) infos.push_back(entry.info);
    return infos;
  }();
  return kInfos;
}

LibraryBuild DescribeEngineLibrary(std::string_view engine) {
  for (const RegistryEntry& entry : Registry()) {
    if (entry.info.id == engine) return entry.library();
  }
  LibraryBuild b;
  b.engine = std::string(engine);
  return b;
}

Result<std::unique_ptr<Engine>> NewEngine(std::string_view id) {
  for (const RegistryEntry& entry : Registry()) {
    if (entry.info.id == id) return entry.make();
  }
  std::string msg = "unknown engine '" + std::string(id) + "'; valid: ";
  bool first = true;
  for (const RegistryEntry& entry : Registry()) {
    if (!first) msg += ", ";
    msg += entry.info.id;
    first = false;
  }
  if (first) msg += "(none built)";
  return Status::InvalidArgument(std::move(msg));
}

}  // namespace disktune
