// LevelDB's file layer with a sync-latency floor (src/core/sync_floor.h):
// an Env whose writable files' Sync() returns no sooner than the floor after
// it started. Every sync LevelDB makes goes through WritableFile::Sync (the
// log on a synced write, each table file, the MANIFEST and its directory),
// so this is where a device class's sync latency reaches the engine.
#pragma once

#include <cstdint>
#include <memory>

namespace leveldb {
class Env;
}

namespace disktune::engine_internal {

// Wraps `base` (not owned; it must outlive the result). REQUIRES: the
// result outlives every DB opened with it (leveldb::Options::env).
std::unique_ptr<leveldb::Env> NewLevelDbSyncFloorEnv(leveldb::Env* base,
                                                     uint64_t floor_ns);

}  // namespace disktune::engine_internal
