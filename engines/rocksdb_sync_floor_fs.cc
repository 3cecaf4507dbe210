#include "engines/rocksdb_sync_floor_fs.h"

#include <rocksdb/env.h>
#include <rocksdb/file_system.h>

#include "src/core/sync_floor.h"

namespace disktune::engine_internal {
namespace {

class FlooredWritableFile final : public rocksdb::FSWritableFileOwnerWrapper {
 public:
  FlooredWritableFile(std::unique_ptr<rocksdb::FSWritableFile> file,
                      uint64_t floor_ns)
      : rocksdb::FSWritableFileOwnerWrapper(std::move(file)),
        floor_ns_(floor_ns) {}

  rocksdb::IOStatus Sync(const rocksdb::IOOptions& options,
                         rocksdb::IODebugContext* dbg) override {
    return FlooredSync(floor_ns_, [&] { return target()->Sync(options, dbg); });
  }
  rocksdb::IOStatus Fsync(const rocksdb::IOOptions& options,
                          rocksdb::IODebugContext* dbg) override {
    return FlooredSync(floor_ns_,
                       [&] { return target()->Fsync(options, dbg); });
  }

 private:
  uint64_t floor_ns_;
};

class FlooredDirectory final : public rocksdb::FSDirectoryWrapper {
 public:
  FlooredDirectory(std::unique_ptr<rocksdb::FSDirectory> dir, uint64_t floor_ns)
      : rocksdb::FSDirectoryWrapper(std::move(dir)), floor_ns_(floor_ns) {}

  rocksdb::IOStatus Fsync(const rocksdb::IOOptions& options,
                          rocksdb::IODebugContext* dbg) override {
    return FlooredSync(floor_ns_, [&] {
      return rocksdb::FSDirectoryWrapper::Fsync(options, dbg);
    });
  }
  rocksdb::IOStatus FsyncWithDirOptions(
      const rocksdb::IOOptions& options, rocksdb::IODebugContext* dbg,
      const rocksdb::DirFsyncOptions& dir_options) override {
    return FlooredSync(floor_ns_, [&] {
      return rocksdb::FSDirectoryWrapper::FsyncWithDirOptions(options, dbg,
                                                              dir_options);
    });
  }

 private:
  uint64_t floor_ns_;
};

class SyncFloorFileSystem final : public rocksdb::FileSystemWrapper {
 public:
  SyncFloorFileSystem(const std::shared_ptr<rocksdb::FileSystem>& base,
                      uint64_t floor_ns)
      : rocksdb::FileSystemWrapper(base), floor_ns_(floor_ns) {}

  const char* Name() const override { return "DisktuneSyncFloorFileSystem"; }

  rocksdb::IOStatus NewWritableFile(const std::string& f,
                                    const rocksdb::FileOptions& o,
                                    std::unique_ptr<rocksdb::FSWritableFile>* r,
                                    rocksdb::IODebugContext* dbg) override {
    return Wrap(target()->NewWritableFile(f, o, r, dbg), r);
  }
  rocksdb::IOStatus ReopenWritableFile(
      const std::string& f, const rocksdb::FileOptions& o,
      std::unique_ptr<rocksdb::FSWritableFile>* r,
      rocksdb::IODebugContext* dbg) override {
    return Wrap(target()->ReopenWritableFile(f, o, r, dbg), r);
  }
  rocksdb::IOStatus ReuseWritableFile(
      const std::string& f, const std::string& old_f,
      const rocksdb::FileOptions& o,
      std::unique_ptr<rocksdb::FSWritableFile>* r,
      rocksdb::IODebugContext* dbg) override {
    return Wrap(target()->ReuseWritableFile(f, old_f, o, r, dbg), r);
  }
  rocksdb::IOStatus NewDirectory(const std::string& name,
                                 const rocksdb::IOOptions& o,
                                 std::unique_ptr<rocksdb::FSDirectory>* r,
                                 rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus s = target()->NewDirectory(name, o, r, dbg);
    if (s.ok())
      *r = std::make_unique<FlooredDirectory>(std::move(*r), floor_ns_);
    return s;
  }

 private:
  rocksdb::IOStatus Wrap(rocksdb::IOStatus s,
                         std::unique_ptr<rocksdb::FSWritableFile>* r) {
    if (s.ok())
      *r = std::make_unique<FlooredWritableFile>(std::move(*r), floor_ns_);
    return s;
  }
  uint64_t floor_ns_;
};

}  // namespace

std::unique_ptr<rocksdb::Env> NewRocksDbSyncFloorEnv(uint64_t floor_ns) {
  return rocksdb::NewCompositeEnv(std::make_shared<SyncFloorFileSystem>(
      rocksdb::FileSystem::Default(), floor_ns));
}

}  // namespace disktune::engine_internal
