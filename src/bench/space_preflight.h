// Refuses to start an engine on a filesystem too small for what it writes
// before the free-space guard (space_guard.h) can stop it.
//
// RocksDB preallocates its write-ahead log in blocks of 1.1 x
// write_buffer_size (DBImpl::GetWalPreallocateBlockSize in RocksDB's
// sources) and flushes a full memtable as one table file; Debian's RocksDB,
// built with assertions, aborts when that preallocation meets ENOSPC (a
// fillrandom on a filesystem with ~38 MiB free: SIGABRT), and the guard
// cannot stop a write already under way. So before the first step, the free
// space must hold the preallocated log, one flushed memtable and the
// guard's headroom.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engines/engine.h"
#include "src/bench/runner.h"
#include "src/core/status.h"

namespace disktune::bench {

// Bytes `engine` may write before the guard can stop it, with `knobs` in
// force (their unset write buffer is the engine's default); 0 for engines
// that preallocate nothing.
uint64_t EngineStartBytes(std::string_view engine, const EngineOptions& knobs);

// NoSpace (exit 2: nothing measured) naming the figures when the
// filesystem of `dir` has less free space than EngineStartBytes plus the
// guard's headroom; OK otherwise, or when `dir` cannot be statvfs-ed.
Status CheckRoomToStart(std::string_view engine, const EngineOptions& knobs,
                        const std::string& dir, const std::string& shown);

// The database a step leaves, estimated as db_bench's header does
// (FileSize: entries x (key + value x compression ratio)), for
// min(num, writes) entries; 0 for a CPU-only or in-memory step.
uint64_t EstimatedDbBytes(const PlannedStep& step);

// InvalidArgument (exit 2) naming the figures when the largest
// EstimatedDbBytes of `plan` is more than the whole filesystem of `dir`
// holds (its size, not its free space: less free space than that is the
// guard's to stop, with exit 3).
Status CheckDataFits(const BenchPlan& plan, const std::string& dir);

}  // namespace disktune::bench
