#include "engines/leveldb_sync_floor_env.h"

#include <leveldb/env.h>

#include "src/core/sync_floor.h"

namespace disktune::engine_internal {
namespace {

class FlooredWritableFile final : public leveldb::WritableFile {
 public:
  FlooredWritableFile(leveldb::WritableFile* file, uint64_t floor_ns)
      : file_(file), floor_ns_(floor_ns) {}
  ~FlooredWritableFile() override { delete file_; }

  leveldb::Status Append(const leveldb::Slice& data) override {
    return file_->Append(data);
  }
  leveldb::Status Close() override { return file_->Close(); }
  leveldb::Status Flush() override { return file_->Flush(); }
  leveldb::Status Sync() override {
    return FlooredSync(floor_ns_, [this] { return file_->Sync(); });
  }

 private:
  leveldb::WritableFile* file_;  // owned
  uint64_t floor_ns_;
};

class SyncFloorEnv final : public leveldb::EnvWrapper {
 public:
  SyncFloorEnv(leveldb::Env* base, uint64_t floor_ns)
      : leveldb::EnvWrapper(base), floor_ns_(floor_ns) {}

  leveldb::Status NewWritableFile(const std::string& fname,
                                  leveldb::WritableFile** result) override {
    return Wrap(target()->NewWritableFile(fname, result), result);
  }
  leveldb::Status NewAppendableFile(const std::string& fname,
                                    leveldb::WritableFile** result) override {
    return Wrap(target()->NewAppendableFile(fname, result), result);
  }

 private:
  leveldb::Status Wrap(leveldb::Status s, leveldb::WritableFile** result) {
    if (s.ok()) *result = new FlooredWritableFile(*result, floor_ns_);
    return s;
  }
  uint64_t floor_ns_;
};

}  // namespace

std::unique_ptr<leveldb::Env> NewLevelDbSyncFloorEnv(leveldb::Env* base,
                                                     uint64_t floor_ns) {
  return std::make_unique<SyncFloorEnv>(base, floor_ns);
}

}  // namespace disktune::engine_internal
