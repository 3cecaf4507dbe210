// What file a durability point writes into, and so what each sync commits
// besides the data. The names are public (result names, a result's
// params.pattern).
#pragma once

#include <optional>
#include <string_view>

namespace disktune {

enum class FileMode {
  kAppend,     // a growing file, as a write-ahead log: each sync also
               // commits the new size (a journal commit on ext4/xfs)
  kOverwrite,  // in place in a preallocated, written file: data only
  kPrealloc,   // written from the start of a file fallocate() reserved, as
               // etcd's WAL segments are: no new size, but each sync commits
               // the written extents (unwritten -> written)
};
const char* FileModeName(FileMode m);
std::optional<FileMode> ParseFileMode(std::string_view name);

}  // namespace disktune
