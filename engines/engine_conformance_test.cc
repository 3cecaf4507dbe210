// One conformance suite, run against every engine in the registry: whatever
// the bench runner relies on must hold for each adapter.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "engines/engine.h"

namespace disktune {
namespace {

namespace fs = std::filesystem;
using ::testing::Contains;
using ::testing::Key;
using ::testing::Not;

#define ASSERT_OK(expr)                                       \
  do {                                                        \
    const ::disktune::Status _st = (expr);                    \
    ASSERT_TRUE(_st.ok()) << #expr << ": " << _st.ToString(); \
  } while (0)
#define EXPECT_OK(expr)                                       \
  do {                                                        \
    const ::disktune::Status _st = (expr);                    \
    EXPECT_TRUE(_st.ok()) << #expr << ": " << _st.ToString(); \
  } while (0)

using Entries = std::vector<std::pair<std::string, std::string>>;

// db_bench's key format.
std::string KeyOf(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%016d", i);
  return buf;
}

std::string ValueOf(int i, size_t size_bytes = 100) {
  std::string v;
  v.reserve(size_bytes);
  while (v.size() < size_bytes) v += std::to_string(i) + ":";
  v.resize(size_bytes);
  return v;
}

std::vector<std::string> EngineIds() {
  std::vector<std::string> ids;
  for (const EngineInfo& info : AvailableEngines()) ids.emplace_back(info.id);
  return ids;
}

// A mkdtemp'd directory under ::testing::TempDir(), removed with everything
// in it when the test ends.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern =
        (fs::path(::testing::TempDir()) / "disktune_engine_XXXXXX").string();
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  bool ok() const { return !path_.empty(); }
  // The database directory inside; the engine creates it.
  std::string db() const { return (fs::path(path_) / "db").string(); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

class EngineConformanceTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(scratch_.ok()) << "mkdtemp under " << ::testing::TempDir();
    path_ = scratch_.db();
    engine_ = MakeEngine();
    ASSERT_NE(engine_, nullptr);
  }

  // The engine goes first: it may still hold files in the scratch directory.
  void TearDown() override { engine_.reset(); }

  std::unique_ptr<Engine> MakeEngine() {
    Result<std::unique_ptr<Engine>> made = NewEngine(GetParam());
    EXPECT_TRUE(made.ok()) << made.status().ToString();
    return made.ok() ? std::move(made).value() : nullptr;
  }

  const EngineInfo& Info() const {
    for (const EngineInfo& info : AvailableEngines()) {
      if (info.id == GetParam()) return info;
    }
    static const EngineInfo kNone{};
    return kNone;
  }

  Status Open(const EngineOptions& options = {}) {
    return engine_->Open(path_, options);
  }

  Status Reopen(const EngineOptions& options = {}) {
    DT_RETURN_IF_ERROR(engine_->Close());
    engine_ = MakeEngine();  // a fresh object: nothing cached in the adapter
    return engine_->Open(path_, options);
  }

  std::string GetOrDie(std::string_view key) {
    std::string value;
    const Status s = engine_->Get(key, &value);
    EXPECT_TRUE(s.ok()) << "get " << key << ": " << s.ToString();
    return value;
  }

  bool IsAbsent(std::string_view key) {
    std::string value;
    return engine_->Get(key, &value).code() == Status::Code::kNotFound;
  }

  Entries ScanForward() { return Scan(true); }
  Entries ScanBackward() { return Scan(false); }

  // Every entry, in the order a scan from the first (or the last) meets them.
  Entries Scan(bool forward) {
    Entries out;
    std::unique_ptr<EngineIterator> it = engine_->NewIterator();
    for (forward ? it->SeekToFirst() : it->SeekToLast(); it->Valid();
         forward ? it->Next() : it->Prev()) {
      out.emplace_back(it->key(), it->value());
    }
    EXPECT_OK(it->status());
    return out;
  }

  // Puts `n` db_bench-style entries in a shuffled order; returns them sorted.
  Entries Fill(int n, int value_bytes = 100) {
    std::vector<int> order(n);
    for (int i = 0; i < n; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), std::mt19937(301));
    std::map<std::string, std::string> expected;
    for (int i : order) {
      EXPECT_OK(engine_->Put(KeyOf(i), ValueOf(i, value_bytes), {}));
      expected[KeyOf(i)] = ValueOf(i, value_bytes);
    }
    return Entries(expected.begin(), expected.end());
  }

  ScratchDir scratch_;
  std::string path_;
  std::unique_ptr<Engine> engine_;
};

TEST_P(EngineConformanceTest, PutThenGetReturnsTheValue) {
  ASSERT_OK(Open());
  EXPECT_EQ(engine_->id(), GetParam());
  ASSERT_OK(engine_->Put("alpha", "one", {}));
  ASSERT_OK(engine_->Put("beta", "two", {}));
  EXPECT_EQ(GetOrDie("alpha"), "one");
  EXPECT_EQ(GetOrDie("beta"), "two");
}

TEST_P(EngineConformanceTest, GetOfAbsentKeyIsNotFound) {
  ASSERT_OK(Open());
  EXPECT_TRUE(IsAbsent("missing"));
  ASSERT_OK(engine_->Put("present", "x", {}));
  EXPECT_TRUE(IsAbsent("missing"));
  EXPECT_TRUE(IsAbsent("presen"));
  EXPECT_TRUE(IsAbsent("presentt"));
}

TEST_P(EngineConformanceTest, PutOverwritesTheValue) {
  ASSERT_OK(Open());
  ASSERT_OK(engine_->Put("k", "first", {}));
  ASSERT_OK(engine_->Put("k", "second, longer than the first", {}));
  EXPECT_EQ(GetOrDie("k"), "second, longer than the first");
  ASSERT_OK(engine_->Put("k", "3", {}));
  EXPECT_EQ(GetOrDie("k"), "3");
  EXPECT_EQ(ScanForward(), (Entries{{"k", "3"}}));
}

TEST_P(EngineConformanceTest, DeleteRemovesTheKeyAndAbsentDeleteIsOk) {
  ASSERT_OK(Open());
  ASSERT_OK(engine_->Put("a", "1", {}));
  ASSERT_OK(engine_->Put("b", "2", {}));
  ASSERT_OK(engine_->Delete("a", {}));
  EXPECT_TRUE(IsAbsent("a"));
  EXPECT_EQ(GetOrDie("b"), "2");
  EXPECT_OK(engine_->Delete("a", {}));
  EXPECT_OK(engine_->Delete("never-written", {}));
  EXPECT_EQ(ScanForward(), (Entries{{"b", "2"}}));
}

TEST_P(EngineConformanceTest, WriteBatchAppliesPutsAndDeletesInOrder) {
  ASSERT_OK(Open());
  ASSERT_OK(engine_->Put("a", "old-a", {}));
  ASSERT_OK(engine_->Put("b", "old-b", {}));
  ASSERT_OK(engine_->Put("c", "old-c", {}));

  WriteBatch batch;
  batch.Put("a", "new-a");
  batch.Delete("b");
  batch.Put("d", "d");
  batch.Put("e", "e");
  batch.Delete("e");  // the later op wins
  batch.Put("f", "f-1");
  batch.Put("f", "f-2");
  batch.Delete("not-there");  // deleting an absent key is fine in a batch
  EXPECT_EQ(batch.Count(), 8u);
  ASSERT_OK(engine_->Write(batch, {}));

  EXPECT_EQ(
      ScanForward(),
      (Entries{{"a", "new-a"}, {"c", "old-c"}, {"d", "d"}, {"f", "f-2"}}));
}

TEST_P(EngineConformanceTest, LargeWriteBatchOfShuffledKeys) {
  ASSERT_OK(Open());
  std::vector<int> order(1000);
  for (int i = 0; i < 1000; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(7));
  WriteBatch batch;
  for (int i : order) batch.Put(KeyOf(i), ValueOf(i));
  ASSERT_OK(engine_->Write(batch, {}));
  const Entries all = ScanForward();
  ASSERT_EQ(all.size(), 1000u);
  EXPECT_EQ(all.front(), std::make_pair(KeyOf(0), ValueOf(0)));
  EXPECT_EQ(all.back(), std::make_pair(KeyOf(999), ValueOf(999)));
}

// Keys chosen to catch signed-char and length-first orderings: bytewise order
// puts "\x7f" before "\x80" and "a" before "a\x00" before "ab".
Entries TrickyKeys() {
  std::vector<std::string> keys = {"a",
                                   "ab",
                                   "abc",
                                   "b",
                                   std::string("\x00", 1),
                                   std::string("\x00\x01", 2),
                                   std::string("a\x00", 2),
                                   "\x7f",
                                   "\x80",
                                   "\xff",
                                   "\xff\xff"};
  for (int i = 0; i < 50; ++i) keys.push_back(KeyOf(i * 7));
  Entries entries;
  for (const std::string& k : keys) entries.emplace_back(k, "v:" + k);
  return entries;
}

TEST_P(EngineConformanceTest, ForwardIterationIsInBytewiseKeyOrder) {
  ASSERT_OK(Open());
  Entries entries = TrickyKeys();
  std::shuffle(entries.begin(), entries.end(), std::mt19937(11));
  for (const auto& [k, v] : entries) ASSERT_OK(engine_->Put(k, v, {}));
  std::sort(entries.begin(), entries.end());
  EXPECT_EQ(ScanForward(), entries);
}

TEST_P(EngineConformanceTest, ReverseIterationIsInReverseKeyOrder) {
  ASSERT_OK(Open());
  Entries entries = TrickyKeys();
  for (const auto& [k, v] : entries) ASSERT_OK(engine_->Put(k, v, {}));
  std::sort(entries.rbegin(), entries.rend());
  EXPECT_EQ(ScanBackward(), entries);
}

TEST_P(EngineConformanceTest, IterationOverManyEntriesBothWays) {
  ASSERT_OK(Open());
  // More entries than one read-ahead chunk of any adapter.
  const Entries expected = Fill(3000);
  EXPECT_EQ(ScanForward(), expected);
  EXPECT_EQ(ScanBackward(), Entries(expected.rbegin(), expected.rend()));
}

// Adapters that read ahead refill at chunk ends; turning back after a refill
// must meet the entries just passed, whatever their sizes.
TEST_P(EngineConformanceTest, TurningBackAfterRefillsMeetsTheSameEntries) {
  ASSERT_OK(Open());
  Entries expected = Fill(2000);
  // Every 97th value larger than a bulk read's buffer (Berkeley DB: 256 KiB).
  for (int i = 0; i < 2000; i += 97) {
    expected[static_cast<size_t>(i)].second = ValueOf(i, 300000);
    ASSERT_OK(engine_->Put(expected[static_cast<size_t>(i)].first,
                           expected[static_cast<size_t>(i)].second, {}));
  }
  std::unique_ptr<EngineIterator> it = engine_->NewIterator();
  it->Seek(expected[10].first);
  size_t at = 10;
  for (; at < 1500; ++at, it->Next()) {
    ASSERT_TRUE(it->Valid()) << at;
    ASSERT_EQ(it->key(), expected[at].first);
    ASSERT_EQ(it->value(), expected[at].second) << at;
  }
  for (; at > 5; --at, it->Prev()) {
    ASSERT_TRUE(it->Valid()) << at;
    ASSERT_EQ(it->key(), expected[at].first);
    ASSERT_EQ(it->value(), expected[at].second) << at;
  }
  for (; at < 2000; ++at, it->Next()) {
    ASSERT_TRUE(it->Valid()) << at;
    ASSERT_EQ(it->key(), expected[at].first);
  }
  EXPECT_FALSE(it->Valid());
  EXPECT_OK(it->status());
}

TEST_P(EngineConformanceTest, SkipCountsEntriesAndBytesBothWays) {
  ASSERT_OK(Open());
  Entries entries = Fill(300, 37);
  uint64_t all_bytes = 0;
  for (const auto& [k, v] : entries) all_bytes += k.size() + v.size();
  std::unique_ptr<EngineIterator> it = engine_->NewIterator();
  it->SeekToFirst();
  uint64_t bytes = 0;
  ASSERT_EQ(it->Skip(0, true, &bytes), 0u);
  EXPECT_EQ(bytes, 0u);
  ASSERT_EQ(it->Skip(100, true, &bytes), 100u);
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), entries[100].first);
  // Runs out: counts only what is there.
  EXPECT_EQ(it->Skip(1000, true, &bytes), 200u);
  EXPECT_FALSE(it->Valid());
  EXPECT_EQ(bytes, all_bytes);
  it->SeekToLast();
  bytes = 0;
  ASSERT_EQ(it->Skip(10, false, &bytes), 10u);
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), entries[289].first);
  uint64_t last_ten = 0;
  for (size_t i = 290; i < 300; i++)
    last_ten += entries[i].first.size() + entries[i].second.size();
  EXPECT_EQ(bytes, last_ten);
  EXPECT_OK(it->status());
}

// The runner may write from the thread that holds an iterator (e.g. a scan
// interleaved with updates); no adapter may deadlock or fail on that.
TEST_P(EngineConformanceTest, WritesWhileAnIteratorIsOpen) {
  ASSERT_OK(Open());
  const Entries expected = Fill(100);
  std::unique_ptr<EngineIterator> it = engine_->NewIterator();
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  ASSERT_OK(engine_->Put("zz-written-during-scan", "v", {}));
  ASSERT_OK(engine_->Delete(KeyOf(50), {}));
  WriteBatch batch;
  batch.Put("zz-batched-during-scan", "v");
  ASSERT_OK(engine_->Write(batch, {}));
  int seen = 0;
  for (; it->Valid(); it->Next()) ++seen;
  EXPECT_OK(it->status());
  // Whether the scan sees the concurrent writes is engine-specific.
  EXPECT_GE(seen, 99);
  EXPECT_LE(seen, 102);
  it.reset();
  EXPECT_EQ(GetOrDie("zz-written-during-scan"), "v");
  EXPECT_TRUE(IsAbsent(KeyOf(50)));
}

TEST_P(EngineConformanceTest, IteratorOnEmptyDatabaseIsNeverValid) {
  ASSERT_OK(Open());
  std::unique_ptr<EngineIterator> it = engine_->NewIterator();
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  it->SeekToLast();
  EXPECT_FALSE(it->Valid());
  it->Seek("anything");
  EXPECT_FALSE(it->Valid());
  EXPECT_OK(it->status());
}

TEST_P(EngineConformanceTest, SeekFindsTheFirstKeyAtOrAfterTheTarget) {
  ASSERT_OK(Open());
  for (int i = 0; i <= 90; i += 10) {
    ASSERT_OK(engine_->Put(KeyOf(i), ValueOf(i), {}));
  }
  std::unique_ptr<EngineIterator> it = engine_->NewIterator();

  it->Seek(KeyOf(20));  // exact
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), KeyOf(20));
  EXPECT_EQ(it->value(), ValueOf(20));

  it->Seek(KeyOf(25));  // between keys
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), KeyOf(30));

  it->Seek("");  // before everything
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), KeyOf(0));

  it->Seek(KeyOf(95));  // past the end
  EXPECT_FALSE(it->Valid());

  // Changing direction after a Seek: each move (Next or Prev) and the key it
  // lands on.
  it->Seek(KeyOf(45));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), KeyOf(50));
  const std::pair<bool, int> moves[] = {
      {true, 60}, {false, 50}, {false, 40}, {true, 50}};
  for (const auto& [next, at] : moves) {
    next ? it->Next() : it->Prev();
    ASSERT_TRUE(it->Valid()) << "to " << at;
    EXPECT_EQ(it->key(), KeyOf(at));
  }

  it->Seek(KeyOf(0));
  it->Prev();  // off the front
  EXPECT_FALSE(it->Valid());
  it->SeekToLast();  // usable again after running off
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), KeyOf(90));
  it->Next();
  EXPECT_FALSE(it->Valid());
  EXPECT_OK(it->status());
}

TEST_P(EngineConformanceTest, DataPersistsAcrossCloseAndReopen) {
  ASSERT_OK(Open());
  Entries expected = Fill(500);
  for (int i = 0; i < 500; i += 5) ASSERT_OK(engine_->Delete(KeyOf(i), {}));
  std::erase_if(expected,
                [](const auto& e) { return std::stoi(e.first) % 5 == 0; });
  ASSERT_OK(Reopen());
  EXPECT_EQ(ScanForward(), expected);
  EXPECT_TRUE(IsAbsent(KeyOf(0)));
  EXPECT_EQ(GetOrDie(KeyOf(1)), ValueOf(1));
  // And once more, after writing on the reopened database.
  ASSERT_OK(engine_->Put("after-reopen", "yes", {}));
  ASSERT_OK(Reopen());
  EXPECT_EQ(GetOrDie("after-reopen"), "yes");
  EXPECT_EQ(GetOrDie(KeyOf(499)), ValueOf(499));
}

TEST_P(EngineConformanceTest, SyncWritesSucceedAndPersist) {
  ASSERT_OK(Open());
  const WriteOptions sync{.sync = true};
  for (int i = 0; i < 5; ++i) {
    ASSERT_OK(engine_->Put(KeyOf(i), ValueOf(i), sync));
  }
  ASSERT_OK(engine_->Delete(KeyOf(0), sync));
  WriteBatch batch;
  batch.Put("batched", "synced");
  batch.Delete(KeyOf(1));
  ASSERT_OK(engine_->Write(batch, sync));
  ASSERT_OK(engine_->Close());

  // sync in EngineOptions makes every write synced.
  EngineOptions always_sync;
  always_sync.sync = true;
  ASSERT_OK(Reopen(always_sync));
  ASSERT_OK(engine_->Put("default-synced", "yes", {}));
  ASSERT_OK(Reopen());
  EXPECT_TRUE(IsAbsent(KeyOf(0)));
  EXPECT_TRUE(IsAbsent(KeyOf(1)));
  EXPECT_EQ(GetOrDie(KeyOf(4)), ValueOf(4));
  EXPECT_EQ(GetOrDie("batched"), "synced");
  EXPECT_EQ(GetOrDie("default-synced"), "yes");
}

TEST_P(EngineConformanceTest, FlushAndCompactAllKeepTheData) {
  ASSERT_OK(Open());
  Entries expected = Fill(2000);
  ASSERT_OK(engine_->Flush());
  for (int i = 0; i < 2000; i += 2) ASSERT_OK(engine_->Delete(KeyOf(i), {}));
  std::erase_if(expected,
                [](const auto& e) { return std::stoi(e.first) % 2 == 0; });
  ASSERT_OK(engine_->CompactAll());
  ASSERT_OK(engine_->Flush());
  EXPECT_EQ(ScanForward(), expected);
  ASSERT_OK(Reopen());
  EXPECT_EQ(ScanForward(), expected);
}

TEST_P(EngineConformanceTest, EmptyAndHundredKilobyteValues) {
  ASSERT_OK(Open());
  std::string large(100000, '\0');
  std::mt19937 rng(5);
  for (char& c : large) c = static_cast<char>(rng());
  ASSERT_OK(engine_->Put("empty", "", {}));
  ASSERT_OK(engine_->Put("large", large, {}));
  ASSERT_OK(engine_->Put("large2", large.substr(1), {}));

  std::string value = "not empty";
  ASSERT_OK(engine_->Get("empty", &value));
  EXPECT_EQ(value, "");
  EXPECT_EQ(GetOrDie("large"), large);
  EXPECT_EQ(
      ScanForward(),
      (Entries{{"empty", ""}, {"large", large}, {"large2", large.substr(1)}}));
  ASSERT_OK(Reopen());
  EXPECT_EQ(GetOrDie("large2"), large.substr(1));
  ASSERT_OK(engine_->Get("empty", &value));
  EXPECT_EQ(value, "");
  if (engine_->max_value_bytes()) {
    EXPECT_GE(*engine_->max_value_bytes(), 100000u);
  }
}

TEST_P(EngineConformanceTest, UnsetKnobsAreNeverReportedUnsupported) {
  ASSERT_OK(Open());
  EXPECT_THAT(engine_->unsupported_knobs(), ::testing::IsEmpty());
}

TEST_P(EngineConformanceTest, UnsupportedKnobsAreListedWithAReason) {
  EngineOptions o;
  o.Set(KnobId::kCacheBytes, 8 << 20);
  o.Set(KnobId::kWriteBufferBytes, 4 << 20);
  o.Set(KnobId::kBloomBitsPerKey, 10);
  o.Set(KnobId::kCompression, Compression::kNone);
  o.Set(KnobId::kBlockSizeBytes, 4096);
  o.Set(KnobId::kMaxOpenFiles, 1000);
  o.Set(KnobId::kMaxFileBytes, 2 << 20);
  ASSERT_OK(Open(o));
  const auto knobs = engine_->unsupported_knobs();
  const std::set<std::string> known = {
      "cache_bytes",    "write_buffer_bytes", "bloom_bits_per_key",
      "compression",    "block_size_bytes",   "max_open_files",
      "max_file_bytes", "in_memory"};
  for (const auto& [knob, reason] : knobs) {
    EXPECT_TRUE(known.count(knob)) << knob;
    EXPECT_FALSE(reason.empty()) << knob;
  }
  const bool is_lsm = GetParam() == "leveldb" || GetParam() == "rocksdb";
  if (is_lsm) {
    EXPECT_THAT(knobs, ::testing::IsEmpty());
  } else {
    // No B-tree engine here has bloom filters or a memtable.
    EXPECT_THAT(knobs, Contains(Key("bloom_bits_per_key")));
    EXPECT_THAT(knobs, Contains(Key("write_buffer_bytes")));
  }
  // compression = none is honoured by every engine.
  EXPECT_THAT(knobs, Not(Contains(Key("compression"))));
  // The engine still works with every knob set.
  ASSERT_OK(engine_->Put("k", "v", {}));
  EXPECT_EQ(GetOrDie("k"), "v");
}

TEST_P(EngineConformanceTest, CompressionIsHonouredOrReported) {
  for (Compression c : {Compression::kSnappy, Compression::kLz4,
                        Compression::kZstd, Compression::kLzo}) {
    SCOPED_TRACE(CompressionName(c));
    EngineOptions o;
    o.Set(KnobId::kCompression, c);
    ASSERT_OK(Open(o));
    Fill(200);
    ASSERT_OK(engine_->Flush());
    EXPECT_EQ(GetOrDie(KeyOf(7)), ValueOf(7));
    const auto knobs = engine_->unsupported_knobs();
    const bool listed =
        std::find_if(knobs.begin(), knobs.end(), [](const auto& k) {
          return k.first == "compression";
        }) != knobs.end();
    // Debian's rocksdb is built with snappy, lz4 and zstd.
    bool expect_listed = true;  // sqlite3, lmdb, bdb do not compress
    if (GetParam() == "leveldb") {
      expect_listed = c != Compression::kSnappy;
    } else if (GetParam() == "rocksdb") {
      expect_listed = c == Compression::kLzo;
    } else if (GetParam() == "kyotocabinet") {
      expect_listed = c != Compression::kLzo;
    }
    EXPECT_EQ(listed, expect_listed);
    ASSERT_OK(engine_->Destroy(path_));
  }
}

TEST_P(EngineConformanceTest, InMemoryModeWorksOrIsReported) {
  EngineOptions o;
  o.in_memory = true;
  ASSERT_OK(Open(o));
  const auto knobs = engine_->unsupported_knobs();
  if (!Info().has_in_memory_mode) {
    EXPECT_THAT(knobs, Contains(Key("in_memory")));
    return;
  }
  EXPECT_THAT(knobs, Not(Contains(Key("in_memory"))));
  const Entries expected = Fill(1000);
  WriteBatch batch;
  batch.Delete(KeyOf(3));
  ASSERT_OK(engine_->Write(batch, {}));
  EXPECT_TRUE(IsAbsent(KeyOf(3)));
  EXPECT_EQ(ScanForward().size(), expected.size() - 1);
  ASSERT_OK(engine_->Flush());
  ASSERT_OK(engine_->CompactAll());
  EXPECT_EQ(GetOrDie(KeyOf(999)), ValueOf(999));
  ASSERT_OK(engine_->Close());
}

TEST_P(EngineConformanceTest, DestroyRemovesOnlyTheDatabaseFiles) {
  ASSERT_OK(Open());
  Fill(300);
  ASSERT_OK(engine_->Flush());
  ASSERT_OK(engine_->Destroy(path_));  // closes the open database first
  EXPECT_FALSE(fs::exists(path_) && !fs::is_empty(path_))
      << "files left in " << path_;

  // A file that is not the engine's own survives.
  ASSERT_OK(Open());
  ASSERT_OK(engine_->Put("k", "v", {}));
  ASSERT_OK(engine_->Close());
  std::ofstream(fs::path(path_) / "operator-notes.txt") << "keep me\n";
  ASSERT_OK(engine_->Destroy(path_));
  EXPECT_TRUE(fs::exists(fs::path(path_) / "operator-notes.txt"));
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(path_)) {
    left.push_back(entry.path().filename().string());
  }
  EXPECT_EQ(left, std::vector<std::string>{"operator-notes.txt"});

  // A destroyed database reopens empty.
  ASSERT_OK(Open());
  EXPECT_TRUE(ScanForward().empty());
  // Destroy of a database that does not exist is fine.
  EXPECT_OK(
      engine_->Destroy((fs::path(scratch_.path()) / "never-created").string()));
}

TEST_P(EngineConformanceTest, StatsAndPropertiesAreAvailable) {
  ASSERT_OK(Open());
  Fill(1000);
  ASSERT_OK(engine_->Flush());
  const std::string stats = engine_->StatsText();
  if (GetParam() == "leveldb" || GetParam() == "rocksdb") {
    EXPECT_FALSE(stats.empty());
  }
  const auto props = engine_->Properties();
  EXPECT_THAT(props, Contains(Key("approximate_size_bytes")));
  for (const auto& [name, value] : props) EXPECT_FALSE(name.empty());
}

TEST_P(EngineConformanceTest, OperationsOnAClosedEngineFailCleanly) {
  std::string value;
  EXPECT_FALSE(engine_->Put("k", "v", {}).ok());
  EXPECT_FALSE(engine_->Get("k", &value).ok());
  EXPECT_FALSE(engine_->Delete("k", {}).ok());
  EXPECT_FALSE(engine_->Write(WriteBatch(), {}).ok());
  EXPECT_FALSE(engine_->Flush().ok());
  std::unique_ptr<EngineIterator> it = engine_->NewIterator();
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_FALSE(it->status().ok());
  EXPECT_OK(engine_->Close());
  EXPECT_EQ(engine_->StatsText(), "");
}

TEST_P(EngineConformanceTest, ConcurrentGetsWhileOneThreadWrites) {
  if (!engine_->thread_safe()) {
    GTEST_SKIP() << GetParam() << " is not thread-safe";
  }
  ASSERT_OK(Open());
  constexpr int kKeys = 1000;
  Fill(kKeys);
  std::atomic<int> failures{0};
  std::atomic<bool> writer_done{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(t);
      std::string value;
      for (int n = 0; n < 2000; ++n) {
        const int i = static_cast<int>(rng() % kKeys);
        if (!engine_->Get(KeyOf(i), &value).ok() || value != ValueOf(i)) {
          ++failures;
        }
      }
    });
  }
  threads.emplace_back([&] {
    for (int i = 0; i < 500; ++i) {
      if (!engine_->Put("w" + KeyOf(i), ValueOf(i), {}).ok()) ++failures;
    }
    writer_done = true;
  });
  for (std::thread& t : threads) t.join();
  EXPECT_TRUE(writer_done);
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(GetOrDie("w" + KeyOf(499)), ValueOf(499));
}

INSTANTIATE_TEST_SUITE_P(AllEngines, EngineConformanceTest,
                         ::testing::ValuesIn(EngineIds()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           return p.param;
                         });

#if DISKTUNE_HAVE_LMDB
// LMDB alone limits key size (mdb_env_get_maxkeysize, 511 by default).
TEST(LmdbEngineTest, RejectsKeysLongerThanItsMaximum) {
  ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  Result<std::unique_ptr<Engine>> made = NewEngine("lmdb");
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  Engine& engine = **made;
  ASSERT_OK(engine.Open(scratch.db(), {}));
  const std::string long_key(600, 'k');
  const Status s = engine.Put(long_key, "v", {});
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.ToString();
  std::string value;
  EXPECT_EQ(engine.Get(long_key, &value).code(),
            Status::Code::kInvalidArgument);
  EXPECT_EQ(engine.Put("", "v", {}).code(), Status::Code::kInvalidArgument);
  // Seek with a target longer than any key still finds the next key.
  ASSERT_OK(engine.Put(std::string(511, 'k'), "max", {}));
  ASSERT_OK(engine.Put("l", "after", {}));
  std::unique_ptr<EngineIterator> it = engine.NewIterator();
  it->Seek(long_key);
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), "l");
  it.reset();
  ASSERT_OK(engine.Close());
}
#endif

}  // namespace
}  // namespace disktune
