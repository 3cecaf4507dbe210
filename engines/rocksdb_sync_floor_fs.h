// RocksDB's file layer with a sync-latency floor (src/core/sync_floor.h): a
// FileSystem whose writable files' Sync() and Fsync() and whose directories'
// Fsync() return no sooner than the floor after they started, in an Env made
// with RocksDB's own NewCompositeEnv. RocksDB syncs the WAL (a synced
// write), each table file, the MANIFEST and the directories through these,
// so this is where a device class's sync latency reaches the engine.
#pragma once

#include <cstdint>
#include <memory>

namespace rocksdb {
class Env;
}

namespace disktune::engine_internal {

// Over RocksDB's default FileSystem. REQUIRES: the result outlives every DB
// opened with it (rocksdb::Options::env).
std::unique_ptr<rocksdb::Env> NewRocksDbSyncFloorEnv(uint64_t floor_ns);

}  // namespace disktune::engine_internal
