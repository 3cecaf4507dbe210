#include "probes/test_file.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

#include "probes/device_info.h"
#include "src/core/clock.h"
#include "src/core/rng.h"
#include "src/core/scratch_dir.h"
#include "src/core/signals.h"

namespace disktune {

namespace {
constexpr uint64_t kChunk = 1 << 20;
constexpr uint64_t kHeadroom = 64ull << 20;
}  // namespace

Result<bool> ProbeDirectIo(int dir_fd, const std::string& dir,
                           std::string* why) {
  // Kernels since 6.6 accept O_DIRECT on tmpfs, but it still only copies
  // memory: treat memory-backed filesystems as refusing it.
  struct statfs sf {};
  if (fstatfs(dir_fd, &sf) == 0 &&
      (sf.f_type == TMPFS_MAGIC || sf.f_type == RAMFS_MAGIC)) {
    *why = std::string(sf.f_type == TMPFS_MAGIC ? "tmpfs" : "ramfs") +
           " is memory, not a disk: O_DIRECT there never reaches a device";
    return false;
  }
  const char* name = ".disktune-odirect-check";
  std::string path = dir + "/" + name;
  int fd = openat(dir_fd, name,
                  O_CREAT | O_EXCL | O_NOFOLLOW | O_RDWR | O_DIRECT | O_CLOEXEC,
                  0600);
  int err = errno;
  if (fd >= 0) close(fd);
  // Only a file this call created is removed.
  if (fd >= 0 || err == EINVAL || err == EOPNOTSUPP) unlinkat(dir_fd, name, 0);
  if (fd >= 0) return true;
  if (err == EINVAL || err == EOPNOTSUPP) {
    FilesystemInfo fs = ReadFilesystemInfo(dir);
    *why = (fs.type.empty() ? std::string("this filesystem") : fs.type) +
           " refuses O_DIRECT (" + std::strerror(err) + ")";
    return false;
  }
  return Status::FromErrno(err, "open " + path);
}

Result<int> OpenTestFile(const std::string& path, bool direct, bool write) {
  int flags = (write ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NOFOLLOW |
              (direct ? O_DIRECT : 0);
  int fd = open(path.c_str(), flags);
  if (fd < 0) return Status::FromErrno(errno, "open " + path);
  return fd;
}

Result<TestFile> PrepareTestFile(const ScratchDir& scratch,
                                 const std::string& name, uint64_t size_bytes,
                                 uint64_t seed, bool direct,
                                 const FillProgress& filled) {
  size_bytes = size_bytes / kChunk * kChunk;
  if (size_bytes == 0)
    return Status::InvalidArgument("test file size must be at least 1MiB");
  DT_RETURN_IF_ERROR(
      scratch.RequireFreeSpace(size_bytes + kHeadroom, "the test file"));
  TestFile tf;
  tf.path = scratch.HandlePath(name);
  tf.size_bytes = size_bytes;
  const std::string shown = scratch.Join(name);
  // A test file an earlier run in this scratch left is disktune's own (the
  // directory is 0700 and reached by its handle): replace it, never follow.
  Status gone = scratch.Unlink(name);
  (void)gone;
  Result<int> created =
      scratch.CreateFile(name, O_WRONLY | (direct ? O_DIRECT : 0));
  if (!created.ok()) return created.status();
  int fd = *created;
  struct Closer {
    int fd;
    ~Closer() { close(fd); }
  } closer{fd};
  // Reserve the blocks up front so the fill cannot fail half-way on space and
  // the file is laid out as contiguously as the filesystem allows.
  if (fallocate(fd, 0, 0, static_cast<off_t>(size_bytes)) != 0 &&
      errno != EOPNOTSUPP) {
    return Status::FromErrno(errno, "fallocate " + shown);
  }
  void* p = nullptr;
  if (posix_memalign(&p, 4096, kChunk) != 0)
    return Status::IOError("out of memory");
  std::unique_ptr<char, decltype(&free)> buf(static_cast<char*>(p), &free);
  Rng rng(seed);
  uint64_t start = NowNanos();
  for (uint64_t off = 0; off < size_bytes; off += kChunk) {
    if (InterruptRequested())
      return Status::Aborted("interrupted while filling " + shown);
    auto* w = reinterpret_cast<uint64_t*>(buf.get());
    for (uint64_t i = 0; i < kChunk / 8; i++) w[i] = rng.Next();
    ssize_t n = pwrite(fd, buf.get(), kChunk, static_cast<off_t>(off));
    if (n < 0) return Status::FromErrno(errno, "write " + shown);
    if (static_cast<uint64_t>(n) != kChunk)
      return Status::IOError("short write to " + shown);
    if (filled && (off / kChunk) % 16 == 0) filled(off, size_bytes);
  }
  if (fdatasync(fd) != 0) return Status::FromErrno(errno, "fdatasync " + shown);
  posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  tf.fill_ns = NowNanos() - start;
  return tf;
}

Result<uint64_t> PageCacheResidentBytes(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno(errno, "open " + path);
  struct stat st {};
  if (fstat(fd, &st) != 0 || st.st_size == 0) {
    close(fd);
    return uint64_t{0};
  }
  size_t len = static_cast<size_t>(st.st_size);
  void* map = mmap(nullptr, len, PROT_READ, MAP_SHARED, fd, 0);
  close(fd);
  if (map == MAP_FAILED) return Status::FromErrno(errno, "mmap " + path);
  long page = sysconf(_SC_PAGESIZE);
  std::vector<unsigned char> vec((len + page - 1) / page);
  int rc = mincore(map, len, vec.data());
  int err = errno;
  munmap(map, len);
  if (rc != 0) return Status::FromErrno(err, "mincore " + path);
  uint64_t resident = 0;
  for (unsigned char v : vec) resident += (v & 1) ? page : 0;
  return resident;
}

}  // namespace disktune
