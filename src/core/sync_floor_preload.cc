// libdisktune_syncfloor.so: the sync floor (sync_floor.h) for a program
// disktune does not link, such as RocksDB's db_bench run by `disktune exec`
// on a device class. Loaded with LD_PRELOAD, it wraps fsync and fdatasync:
// a call on a file of the floored device returns no sooner than the floor
// after it started (sync_floor_rule.h), every other call is passed through
// untouched.
//
// The floored device and the floor come from the environment `exec` sets:
//   DISKTUNE_SYNC_FLOOR_DEV  the device as "major:minor" (st_dev of its files)
//   DISKTUNE_SYNC_FLOOR_NS   the floor in nanoseconds
// Without both (or with a floor of 0) the library does nothing.
//
// It compiles in sync_floor_rule.cc and nothing else of disktune, and uses
// only libc, so it can sit in any process (a shell, a tool written in C)
// without bringing libstdc++ or disktune's registries into it. Syncs made
// another way (O_DSYNC/O_SYNC writes, sync_file_range, msync, syncfs, a raw
// syscall, a static binary) are not floored.
#include <dlfcn.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "src/core/clock.h"
#include "src/core/sync_floor_rule.h"

namespace {

using SyncFn = int (*)(int);

struct Floor {
  dev_t dev = 0;
  uint64_t floor_ns = 0;
};

Floor ReadFloor() {
  Floor f;
  const char* dev = std::getenv("DISKTUNE_SYNC_FLOOR_DEV");
  const char* ns = std::getenv("DISKTUNE_SYNC_FLOOR_NS");
  unsigned maj = 0, min = 0;
  char tail = 0;
  if (!dev || !ns || std::sscanf(dev, "%u:%u%c", &maj, &min, &tail) != 2)
    return f;
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(ns, &end, 10);
  if (errno != 0 || end == ns || *end != '\0') return f;
  f.dev = makedev(maj, min);
  f.floor_ns = v;
  return f;
}

SyncFn Next(const char* name) {
  return reinterpret_cast<SyncFn>(dlsym(RTLD_NEXT, name));
}

// Set once, as the library loads, before the program's threads start: a
// sync then reads plain values (no lock, no parsing, no libstdc++ guard).
// A sync from a library loaded earlier, before this runs, passes through.
Floor g_floor;
SyncFn g_fsync = nullptr;
SyncFn g_fdatasync = nullptr;

__attribute__((constructor)) void LoadFloor() {
  g_fsync = Next("fsync");
  g_fdatasync = Next("fdatasync");
  g_floor = ReadFloor();
}

// Runs the real call and, on the floored device, waits out the floor. errno
// is the call's own afterwards.
int Floored(SyncFn real, int fd) {
  if (!real) {
    errno = ENOSYS;
    return -1;
  }
  const Floor f = g_floor;
  if (f.floor_ns == 0) return real(fd);
  uint64_t start = disktune::NowNanos();
  int r = real(fd);
  int saved = errno;
  struct stat st {};
  if (fstat(fd, &st) == 0 && st.st_dev == f.dev)
    disktune::WaitForSyncFloor(start, f.floor_ns);
  errno = saved;
  return r;
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int fsync(int fd) {
  return Floored(g_fsync ? g_fsync : Next("fsync"), fd);
}

__attribute__((visibility("default"))) int fdatasync(int fd) {
  return Floored(g_fdatasync ? g_fdatasync : Next("fdatasync"), fd);
}

}  // extern "C"
