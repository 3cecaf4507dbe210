#include "engines/adapter_util.h"

#include <filesystem>
#include <system_error>

#include "src/model/knob_spec.h"

namespace disktune::engine_internal {

namespace fs = std::filesystem;

namespace {

Status FromErrorCode(const std::error_code& ec, std::string_view context) {
  return Status::FromErrno(ec.value(), context);
}

class ErrorIterator final : public EngineIterator {
 public:
  explicit ErrorIterator(Status status) : status_(std::move(status)) {}
  void SeekToFirst() override {}
  void SeekToLast() override {}
  void Seek(std::string_view) override {}
  bool Valid() const override { return false; }
  void Next() override {}
  void Prev() override {}
  std::string_view key() const override { return {}; }
  std::string_view value() const override { return {}; }
  Status status() const override { return status_; }

 private:
  Status status_;
};

}  // namespace

Status EnsureDirectory(const std::string& path, std::string_view engine) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec) {
    return FromErrorCode(ec, std::string(engine) + " mkdir " + path);
  }
  return Status::OK();
}

Status RemoveDbFiles(
    const std::string& path, std::string_view engine,
    const std::function<bool(std::string_view name)>& is_db_file) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return Status::OK();
  std::vector<fs::path> doomed;
  // The error_code overloads throughout: no exception leaves the module.
  for (fs::directory_iterator it(path, ec), end; !ec && it != end;
       it.increment(ec)) {
    // symlink_status: a symlink named like a DB file is removed itself, its
    // target (possibly outside `path`) is left alone.
    std::error_code type_ec;
    if (!fs::is_directory(it->symlink_status(type_ec)) &&
        is_db_file(it->path().filename().native())) {
      doomed.push_back(it->path());
    }
  }
  if (ec) {
    return FromErrorCode(ec, std::string(engine) + " destroy: list " + path);
  }
  for (const fs::path& file : doomed) {
    fs::remove(file, ec);
    if (ec) {
      return FromErrorCode(
          ec, std::string(engine) + " destroy: remove " + file.native());
    }
  }
  if (fs::is_empty(path, ec)) fs::remove(path, ec);
  return Status::OK();
}

void AddSingleFileKnobs(const EngineOptions& options, std::string_view engine,
                        KnobList* out) {
  struct Lsm {
    KnobId id;
    const char* why;
  };
  static constexpr Lsm kLsmOnly[] = {
      {KnobId::kWriteBufferBytes, " writes pages in place; it has no memtable"},
      {KnobId::kBloomBitsPerKey, " has no bloom filters"},
      {KnobId::kMaxOpenFiles, " keeps one data file; there is no table cache"},
      {KnobId::kMaxFileBytes, " keeps one data file; there are no table files"},
  };
  for (const Lsm& lsm : kLsmOnly) {
    const KnobSpec& k = KnobRow(lsm.id);
    std::optional<KnobValue> v = options.Get(k.id);
    // No bloom filter is what a B-tree has: honoured.
    if (!v || (lsm.id == KnobId::kBloomBitsPerKey && *v <= 0)) continue;
    out->emplace_back(std::string(k.json_key), std::string(engine) + lsm.why);
  }
  AddRocksDbOnlyKnobs(options, engine, out);
}

void AddRocksDbOnlyKnobs(const EngineOptions& options, std::string_view engine,
                         KnobList* out) {
  for (const KnobSpec& k : Knobs()) {
    if (IsRocksDbOnly(k) && options.Get(k.id)) {
      out->emplace_back(std::string(k.json_key),
                        std::string(engine) + " has no " +
                            std::string(k.rocksdb.option) +
                            " (a RocksDB option)");
    }
  }
}

Status NotOpen(std::string_view engine, std::string_view op) {
  return Status::InvalidArgument(std::string(engine) + " " + std::string(op) +
                                 ": database is not open");
}

std::unique_ptr<EngineIterator> NewErrorIterator(Status status) {
  return std::make_unique<ErrorIterator>(std::move(status));
}

}  // namespace disktune::engine_internal
