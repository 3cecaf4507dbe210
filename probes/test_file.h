// The probes' test file: preallocated and filled with incompressible data
// before any read, because a read of a hole or of zeroes measures the
// filesystem or a compressing controller, not the disk.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "src/core/progress.h"
#include "src/core/status.h"

namespace disktune {

class ScratchDir;

// Whether the filesystem of the directory open as `dir_fd` (`shown` in
// messages) accepts O_DIRECT. OK(true/false); the refusal text goes to `why`
// ("tmpfs refuses O_DIRECT (Invalid argument)").
Result<bool> ProbeDirectIo(int dir_fd, const std::string& shown,
                           std::string* why);

struct TestFile {
  std::string path;  // ScratchDir::HandlePath: the file as created
  uint64_t size_bytes = 0;
  uint64_t fill_ns = 0;
};

// Creates `name` (exclusively, through the directory's handle) in the scratch
// directory with `size_bytes` of random bytes,
// synced, and drops it from the page cache. Checks free space first (the size
// plus 64 MiB of headroom). `direct` writes with O_DIRECT. `filled` (may be
// empty) hears the bytes written so far every 16 MiB, from the start.
using FillProgress = std::function<void(uint64_t done, uint64_t total)>;
Result<TestFile> PrepareTestFile(const ScratchDir& scratch,
                                 const std::string& name, uint64_t size_bytes,
                                 uint64_t seed, bool direct,
                                 const FillProgress& filled);

// Opens for a probe; O_DIRECT when `direct`.
Result<int> OpenTestFile(const std::string& path, bool direct, bool write);

// Bytes of the file resident in the page cache (mincore), to verify that
// O_DIRECT probes really bypassed it.
Result<uint64_t> PageCacheResidentBytes(const std::string& path);

}  // namespace disktune
