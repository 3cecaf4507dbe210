// The workload `probe --fs-matrix` runs on each filesystem after the fsync
// family: db_bench's fillsync (num/1000 synced puts of 100-byte values) on
// LevelDB, so the filesystems are also compared by what a database's
// synchronous writes cost on them.
#pragma once

#include "probes/probe.h"

namespace disktune::app {

// Empty when this build has no LevelDB (the matrix then runs the fsync
// family alone). Each result is "fsync.fs.<fs>.fillsync.leveldb".
FilesystemWorkload FillsyncWorkload(bool quick);

}  // namespace disktune::app
