// The EngineIterator over LevelDB's or RocksDB's own iterator: both have the
// same shape (Slice key()/value(), Seek/Next/Prev, status()), so one template
// serves both adapters. Skip() is a tight loop over the engine's iterator, so
// a long scan pays the EngineIterator interface once per batch, not per entry.
#pragma once

#include <memory>
#include <string_view>

#include "engines/engine.h"

namespace disktune {

template <class Iter, class Slice>
class LsmIterator final : public EngineIterator {
 public:
  using StatusFn = Status (*)(const Iter& it);
  LsmIterator(Iter* it, StatusFn status) : it_(it), status_(status) {}

  void SeekToFirst() override { it_->SeekToFirst(); }
  void SeekToLast() override { it_->SeekToLast(); }
  void Seek(std::string_view target) override {
    it_->Seek(Slice(target.data(), target.size()));
  }
  bool Valid() const override { return it_->Valid(); }
  void Next() override { it_->Next(); }
  void Prev() override { it_->Prev(); }
  std::string_view key() const override { return View(it_->key()); }
  std::string_view value() const override { return View(it_->value()); }
  Status status() const override { return status_(*it_); }

  uint64_t Skip(uint64_t n, bool forward, uint64_t* bytes) override {
    Iter& it = *it_;
    uint64_t i = 0, b = 0;
    for (; i < n && it.Valid(); i++) {
      b += it.key().size() + it.value().size();
      if (forward) {
        it.Next();
      } else {
        it.Prev();
      }
    }
    *bytes += b;
    return i;
  }

 private:
  static std::string_view View(const Slice& s) { return {s.data(), s.size()}; }

  std::unique_ptr<Iter> it_;
  StatusFn status_;
};

}  // namespace disktune
