// A small in-memory Engine for the bench tests: a std::map behind a mutex,
// with fault injection (fail writes with NoSpace after a byte budget, like a
// full disk) and switchable capabilities. It keeps one file in its directory
// so the runner's directory handling is exercised as with a real engine.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "engines/engine.h"

namespace disktune::bench::testing {

struct MemEngineConfig {
  bool thread_safe = true;
  bool in_memory_mode = true;
  std::optional<uint64_t> max_value_bytes;
  // Writes fail with NoSpace once this many key+value bytes were written.
  std::optional<uint64_t> fail_after_bytes;
  // Called after every successful put (tests raise SIGINT from here).
  std::function<void(uint64_t puts)> on_put;
  // How long FinishWriteBenchmark() takes (its work inside the time).
  std::chrono::milliseconds finish_writes_delay{0};
  // Background work the second open starts (a reopen that starts a
  // compaction): SettleBackgroundWork() waits it out, a slice at a time.
  uint64_t reopen_settle_ns = 0;
  // Called with the count after every SettleBackgroundWork().
  std::function<void(int settles)> on_settle;
};

class MemEngine : public Engine {
 public:
  explicit MemEngine(MemEngineConfig config = {})
      : config_(std::move(config)) {}

  std::string_view id() const override { return "mem"; }

  Status Open(const std::string& path, const EngineOptions& options) override {
    std::error_code ec;
    std::filesystem::create_directories(path, ec);
    if (ec) return Status::FromErrno(ec.value(), "mkdir " + path);
    std::ofstream marker(path + "/MEMDB");
    if (!marker)
      return Status::IOError("open " + path + "/MEMDB: cannot write");
    path_ = path;
    options_ = options;
    open_ = true;
    opens_++;
    return Status::OK();
  }
  // As RocksDB's: at least `max_ns` while work remains, less once it ended.
  Result<uint64_t> SettleBackgroundWork(uint64_t max_ns) override {
    settles_++;
    if (opens_ == 2 && !started_) {
      started_ = true;
      background_ns_ = config_.reopen_settle_ns;
    }
    const uint64_t slice = std::min(background_ns_, max_ns);
    background_ns_ -= slice;
    if (config_.on_settle) config_.on_settle(settles_);
    return slice;
  }
  Status Close() override {
    open_ = false;
    return Status::OK();
  }
  Status Put(std::string_view key, std::string_view value,
             const WriteOptions&) override {
    std::lock_guard<std::mutex> l(mu_);
    DT_RETURN_IF_ERROR(Charge(key.size() + value.size()));
    data_[std::string(key)] = std::string(value);
    puts_++;
    if (config_.on_put) config_.on_put(puts_);
    return Status::OK();
  }
  Status Get(std::string_view key, std::string* value) override {
    std::lock_guard<std::mutex> l(mu_);
    if (!open_) return Status::IOError("not open");
    auto it = data_.find(std::string(key));
    if (it == data_.end()) return Status::NotFound("");
    *value = it->second;
    return Status::OK();
  }
  Status Delete(std::string_view key, const WriteOptions&) override {
    std::lock_guard<std::mutex> l(mu_);
    data_.erase(std::string(key));
    return Status::OK();
  }
  Status Write(const WriteBatch& batch, const WriteOptions&) override {
    std::lock_guard<std::mutex> l(mu_);
    uint64_t bytes = 0;
    for (const auto& op : batch.ops()) bytes += op.key.size() + op.value.size();
    DT_RETURN_IF_ERROR(Charge(bytes));
    for (const auto& op : batch.ops()) {
      if (op.is_delete) {
        data_.erase(op.key);
      } else {
        data_[op.key] = op.value;
      }
    }
    return Status::OK();
  }

  class Iter : public EngineIterator {
   public:
    explicit Iter(MemEngine* e) : e_(e), it_(e->data_.end()) {}
    void SeekToFirst() override { it_ = e_->data_.begin(); }
    void SeekToLast() override {
      it_ = e_->data_.empty() ? e_->data_.end() : std::prev(e_->data_.end());
    }
    void Seek(std::string_view t) override {
      it_ = e_->data_.lower_bound(std::string(t));
    }
    bool Valid() const override { return it_ != e_->data_.end(); }
    void Next() override { ++it_; }
    void Prev() override {
      it_ = it_ == e_->data_.begin() ? e_->data_.end() : std::prev(it_);
    }
    std::string_view key() const override { return it_->first; }
    std::string_view value() const override { return it_->second; }
    Status status() const override { return Status::OK(); }

   private:
    MemEngine* e_;
    std::map<std::string, std::string>::iterator it_;
  };
  // Iterators are only used while no thread writes (readseq etc.), or with
  // the runner's serialising wrapper.
  std::unique_ptr<EngineIterator> NewIterator() override {
    return std::make_unique<Iter>(this);
  }
  Status Flush() override { return Status::OK(); }
  Status FinishWriteBenchmark() override {
    finished_write_benchmarks_++;
    std::this_thread::sleep_for(config_.finish_writes_delay);
    return Status::OK();
  }
  Status CompactAll() override {
    compactions_++;
    return Status::OK();
  }
  std::string StatsText() override {
    return "mem: " + std::to_string(data_.size()) + " keys";
  }
  std::vector<std::pair<std::string, std::string>> Properties() override {
    return {{"mem.keys", std::to_string(data_.size())}};
  }
  std::vector<std::pair<std::string, std::string>> unsupported_knobs()
      const override {
    if (options_.bloom_bits_per_key()) {
      return {{"bloom_bits_per_key", "mem has no bloom filters"}};
    }
    return {};
  }
  std::optional<uint64_t> max_value_bytes() const override {
    return config_.max_value_bytes;
  }
  bool thread_safe() const override { return config_.thread_safe; }
  Status Destroy(const std::string& path) override {
    open_ = false;
    data_.clear();
    written_ = 0;
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
    if (ec) return Status::FromErrno(ec.value(), "remove " + path);
    return Status::OK();
  }

  size_t size() const { return data_.size(); }
  int compactions() const { return compactions_; }
  int opens() const { return opens_; }
  int settles() const { return settles_; }
  int finished_write_benchmarks() const { return finished_write_benchmarks_; }
  const EngineOptions& options() const { return options_; }

 private:
  Status Charge(uint64_t bytes) {
    if (!open_) return Status::IOError("not open");
    if (config_.fail_after_bytes &&
        written_ + bytes > *config_.fail_after_bytes) {
      return Status::NoSpace("write " + path_ +
                             "/000005.log: No space left on device");
    }
    written_ += bytes;
    return Status::OK();
  }

  MemEngineConfig config_;
  std::mutex mu_;
  std::map<std::string, std::string> data_;
  std::string path_;
  EngineOptions options_;
  bool open_ = false;
  uint64_t written_ = 0;
  uint64_t puts_ = 0;
  int opens_ = 0;
  int settles_ = 0;
  bool started_ = false;
  uint64_t background_ns_ = 0;
  std::atomic<int> compactions_{0};
  std::atomic<int> finished_write_benchmarks_{0};
};

// Forwards to a MemEngine the test keeps, so the test can look at the data
// after the runner has dropped its engine.
class SharedEngine : public Engine {
 public:
  explicit SharedEngine(std::shared_ptr<MemEngine> e) : e_(std::move(e)) {}
  std::string_view id() const override { return e_->id(); }
  Status Open(const std::string& p, const EngineOptions& o) override {
    return e_->Open(p, o);
  }
  Status Close() override { return e_->Close(); }
  Status Put(std::string_view k, std::string_view v,
             const WriteOptions& wo) override {
    return e_->Put(k, v, wo);
  }
  Status Get(std::string_view k, std::string* v) override {
    return e_->Get(k, v);
  }
  Status Delete(std::string_view k, const WriteOptions& wo) override {
    return e_->Delete(k, wo);
  }
  Status Write(const WriteBatch& b, const WriteOptions& wo) override {
    return e_->Write(b, wo);
  }
  std::unique_ptr<EngineIterator> NewIterator() override {
    return e_->NewIterator();
  }
  Status Flush() override { return e_->Flush(); }
  Status FinishWriteBenchmark() override { return e_->FinishWriteBenchmark(); }
  Status CompactAll() override { return e_->CompactAll(); }
  Result<uint64_t> SettleBackgroundWork(uint64_t max_ns) override {
    return e_->SettleBackgroundWork(max_ns);
  }
  std::string StatsText() override { return e_->StatsText(); }
  std::vector<std::pair<std::string, std::string>> Properties() override {
    return e_->Properties();
  }
  std::vector<std::pair<std::string, std::string>> unsupported_knobs()
      const override {
    return e_->unsupported_knobs();
  }
  std::optional<uint64_t> max_value_bytes() const override {
    return e_->max_value_bytes();
  }
  bool thread_safe() const override { return e_->thread_safe(); }
  Status Destroy(const std::string& p) override { return e_->Destroy(p); }

 private:
  std::shared_ptr<MemEngine> e_;
};

// A factory serving MemEngines with `config` under the id "mem", and the
// matching registry entry.
inline std::vector<EngineInfo> MemRegistry(bool in_memory_mode = true) {
  return {EngineInfo{"mem", "test engine", in_memory_mode}};
}

}  // namespace disktune::bench::testing
