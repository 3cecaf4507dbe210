// How fsync results are named, from what they are. Builders name points with
// these; consumers that need a label (a table row, a report line) derive it
// from a result's typed params the same way, so no one parses names.
#pragma once

#include <cstdint>
#include <string>

#include "src/model/file_mode.h"
#include "src/model/probe_result.h"
#include "src/model/sync_method.h"

namespace disktune {

// "fdatasync.4096.append": a family point within its prefix.
std::string FsyncFamilyKey(SyncMethod method, uint64_t write_bytes,
                           FileMode mode);
// "fsync" on the scratch directory, "fsync.fs.<fs>" on a matrix filesystem.
std::string FsyncFamilyPrefix(const std::string& filesystem);
// What a durability result measures, as its name reads within its prefix and
// cache state: the variant when it has one ("pg.unsynced"), else the family
// key ("fdatasync.4096.append"), else "" (a result for a whole probe, A/B or
// filesystem).
std::string FsyncPointKey(const ProbeParams& p);
// The name after "fsync." a result with these params gets:
// "fs.ext4.cache_off.fdatasync.4096.append"; "" when the params say nothing.
std::string FsyncResultSuffix(const ProbeParams& p);

}  // namespace disktune
