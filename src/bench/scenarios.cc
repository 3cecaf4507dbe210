// The scenario bodies and the table. Bodies follow LevelDB's db_bench
// (db/db_bench.cc, 1.23) operation for operation where a db_bench scenario of
// the same name exists: each thread does the full op count, random keys are
// drawn with replacement from [0, num), reads report "(found of N found)".
#include <snappy.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <mutex>
#include <numeric>
#include <optional>

#include "src/bench/crc32c.h"
#include "src/bench/distributions.h"
#include "src/bench/scenario.h"
#include "src/core/signals.h"

namespace disktune::bench {
namespace {

bool IsNotFound(const Status& s) { return s.code() == Status::Code::kNotFound; }

std::string FoundMessage(const PhaseStats& s) {
  char buf[100];
  std::snprintf(buf, sizeof(buf), "(%" PRIu64 " of %" PRIu64 " found)", s.found,
                s.reads);
  return buf;
}

// ---------------------------------------------------------------- writes

enum class Order { kSequential, kRandom };

// db_bench's DoWrite: `ops` puts (in batches of entries_per_batch), keys
// sequential from 0 or uniform with replacement from [0, key_space).
Status WriteLoop(Worker& w, uint64_t ops, Order order, uint64_t key_space,
                 uint64_t first_key = 0) {
  const BenchParams& p = w.params();
  Engine* engine = w.engine();
  const WriteOptions wo = w.write_options();
  const uint64_t per_batch = std::max<uint64_t>(1, p.entries_per_batch);
  WriteBatch batch;
  std::vector<uint64_t> keys;
  for (uint64_t i = 0; i < ops; i += per_batch) {
    if (w.ShouldStop()) return w.StopStatus();
    const uint64_t n = std::min(per_batch, ops - i);
    if (per_batch == 1) {
      uint64_t k = order == Order::kSequential ? first_key + i
                                               : w.rng().Uniform(key_space);
      const std::string& key = w.Key(k);
      std::string_view value = w.Value(w.ValueLength(k));
      w.BeforeOp();
      Status s = engine->Put(key, value, wo);
      if (!s.ok()) return s.WithContext("put");
      uint64_t bytes = key.size() + value.size();
      w.ModelPut(k);
      w.AddUserWriteBytes(bytes);
      w.OpDone(1, bytes);
      continue;
    }
    batch.Clear();
    keys.clear();
    uint64_t bytes = 0;
    for (uint64_t j = 0; j < n; j++) {
      uint64_t k = order == Order::kSequential ? first_key + i + j
                                               : w.rng().Uniform(key_space);
      const std::string& key = w.Key(k);
      std::string_view value = w.Value(w.ValueLength(k));
      batch.Put(key, value);
      bytes += key.size() + value.size();
      keys.push_back(k);
    }
    w.BeforeOp();
    Status s = engine->Write(batch, wo);
    if (!s.ok()) return s.WithContext("write batch");
    for (uint64_t k : keys) w.ModelPut(k);
    w.AddUserWriteBytes(bytes);
    w.OpDone(n, bytes);
  }
  return Status::OK();
}

void SetOpsMessage(ScenarioRun& run, uint64_t ops) {
  if (ops != run.params().num) {
    run.SetMessage("(" + std::to_string(ops) + " ops)");
  }
}

Status RunWrites(ScenarioRun& run, Order order) {
  const BenchParams& p = run.params();
  SetOpsMessage(run, p.Writes());
  DT_RETURN_IF_ERROR(run.Parallel(p.threads, [&](Worker& w) {
    return WriteLoop(w, p.Writes(), order, p.num);
  }));
  return run.FinishWrites();
}

Status FillSeq(ScenarioRun& run) { return RunWrites(run, Order::kSequential); }
Status FillRandom(ScenarioRun& run) { return RunWrites(run, Order::kRandom); }

Status DeleteLoop(Worker& w, Order order) {
  const BenchParams& p = w.params();
  Engine* engine = w.engine();
  const WriteOptions wo = w.write_options();
  const uint64_t per_batch = std::max<uint64_t>(1, p.entries_per_batch);
  const uint64_t ops = p.Writes();
  WriteBatch batch;
  std::vector<uint64_t> keys;
  for (uint64_t i = 0; i < ops; i += per_batch) {
    if (w.ShouldStop()) return w.StopStatus();
    const uint64_t n = std::min(per_batch, ops - i);
    batch.Clear();
    keys.clear();
    uint64_t bytes = 0;
    for (uint64_t j = 0; j < n; j++) {
      uint64_t k = order == Order::kSequential ? i + j : w.rng().Uniform(p.num);
      const std::string& key = w.Key(k);
      bytes += key.size();
      keys.push_back(k);
      if (per_batch > 1) batch.Delete(key);
    }
    w.BeforeOp();
    Status s = per_batch == 1 ? engine->Delete(w.Key(keys[0]), wo)
                              : engine->Write(batch, wo);
    if (!s.ok() && !IsNotFound(s)) return s.WithContext("delete");
    for (uint64_t k : keys) w.ModelDelete(k);
    w.AddUserWriteBytes(bytes);
    w.OpDone(n, 0);
  }
  return Status::OK();
}

Status DeleteSeq(ScenarioRun& run) {
  return run.Parallel(run.params().threads, [](Worker& w) {
    return DeleteLoop(w, Order::kSequential);
  });
}

Status DeleteRandom(ScenarioRun& run) {
  return run.Parallel(run.params().threads,
                      [](Worker& w) { return DeleteLoop(w, Order::kRandom); });
}

// ----------------------------------------------------------------- reads

// `count` Gets of keys drawn by `next_key`; a key suffix makes every key
// absent (readmissing). Warm-up ops run first and are not measured.
template <typename NextKey>
Status GetLoop(Worker& w, uint64_t count, NextKey next_key,
               bool missing = false) {
  Engine* engine = w.engine();
  std::string value;
  std::string missing_key;
  auto one = [&](bool* found) -> Status {
    uint64_t k = next_key(w);
    const std::string* key = &w.Key(k);
    if (missing) {
      missing_key = *key;
      missing_key.push_back('.');
      key = &missing_key;
    }
    w.BeforeOp();
    Status s = engine->Get(*key, &value);
    *found = s.ok();
    if (!s.ok() && !IsNotFound(s)) return s.WithContext("get");
    return Status::OK();
  };
  const uint64_t warmup =
      ScenarioRun::Share(w.params().warmup_ops, w.params().threads, w.index());
  bool found = false;
  for (uint64_t i = 0; i < warmup; i++) {
    if (w.ShouldStop()) return w.StopStatus();
    DT_RETURN_IF_ERROR(one(&found));
  }
  if (warmup > 0) w.ResetTiming();
  uint64_t hits = 0;
  uint64_t done = 0;
  Status status;
  for (; done < count; done++) {
    if (w.ShouldStop()) {
      status = w.StopStatus();
      break;
    }
    status = one(&found);
    if (!status.ok()) break;
    hits += found ? 1 : 0;
    w.OpDone(1, 0);
  }
  w.AddFound(hits, done);
  return status;
}

Status ReadRandom(ScenarioRun& run) {
  const BenchParams& p = run.params();
  Status s = run.Parallel(p.threads, [&](Worker& w) {
    return GetLoop(w, p.Reads(),
                   [&](Worker& x) { return x.rng().Uniform(p.num); });
  });
  run.SetMessage(FoundMessage(run.main()));
  return s;
}

Status ReadMissing(ScenarioRun& run) {
  const BenchParams& p = run.params();
  Status s = run.Parallel(p.threads, [&](Worker& w) {
    return GetLoop(
        w, p.Reads(), [&](Worker& x) { return x.rng().Uniform(p.num); },
        /*missing=*/true);
  });
  run.SetMessage(FoundMessage(run.main()));
  return s;
}

Status ReadHot(ScenarioRun& run) {
  const BenchParams& p = run.params();
  const uint64_t range = KeyChooser::HotRange(p.num);
  Status s = run.Parallel(p.threads, [&](Worker& w) {
    return GetLoop(w, p.Reads(),
                   [&](Worker& x) { return x.rng().Uniform(range); });
  });
  run.SetMessage(FoundMessage(run.main()));
  return s;
}

// db_bench's ReadSequential / ReadReverse: one iterator, up to `reads` steps.
// The steps between two latency samples run inside the engine's iterator
// (EngineIterator::Skip): the interface's cost per step is a visible share
// of a step, and so is sampling one step in 32 (two clock reads and a
// histogram entry) on LMDB's scan (benchmarks/README.md, "Harness design
// records"): scans sample one step in kScanSampleEvery, ~3,900 samples per
// million steps.
constexpr uint32_t kScanSampleEvery = 256;
Status ScanLoop(Worker& w, bool forward) {
  w.SampleEvery(kScanSampleEvery);
  auto it = w.engine()->NewIterator();
  if (!it) return Status::IOError("engine returned no iterator");
  const uint64_t reads = w.params().Reads();
  uint64_t i = 0;
  if (forward) {
    it->SeekToFirst();
  } else {
    it->SeekToLast();
  }
  while (i < reads && it->Valid()) {
    if (w.ShouldStop()) return w.StopStatus();
    uint64_t bytes = 0;
    uint64_t n =
        it->Skip(std::min(w.TakeUntimedRun(), reads - i), forward, &bytes);
    w.UntimedOpsDone(n, bytes);
    i += n;
    if (i >= reads || !it->Valid()) break;
    // The sampled step: this entry, and moving past it.
    w.BeforeOp();
    bytes = it->key().size() + it->value().size();
    if (forward) {
      it->Next();
    } else {
      it->Prev();
    }
    w.OpDone(1, bytes);
    i++;
  }
  w.AddFound(i, i);
  return it->status().WithContext("iterate");
}

Status ReadSeq(ScenarioRun& run) {
  return run.Parallel(run.params().threads,
                      [](Worker& w) { return ScanLoop(w, true); });
}

// The -cold variants evict the database from the page cache (closing and
// reopening it) before the timed reads, so the first touch of each block
// reads the device: what src/predict's cold read model describes.
Status ReadSeqCold(ScenarioRun& run) {
  PageCacheInfo cache;
  DT_RETURN_IF_ERROR(run.ReopenCold(&cache));
  run.result().page_cache = cache;
  return ReadSeq(run);
}

Status ReadRandomCold(ScenarioRun& run) {
  PageCacheInfo cache;
  DT_RETURN_IF_ERROR(run.ReopenCold(&cache));
  run.result().page_cache = cache;
  return ReadRandom(run);
}

Status ReadReverse(ScenarioRun& run) {
  return run.Parallel(run.params().threads,
                      [](Worker& w) { return ScanLoop(w, false); });
}

Status SeekRandom(ScenarioRun& run) {
  const BenchParams& p = run.params();
  Status s = run.Parallel(p.threads, [&](Worker& w) -> Status {
    uint64_t found = 0;
    uint64_t i = 0;
    for (; i < p.Reads(); i++) {
      if (w.ShouldStop()) break;
      const std::string& key = w.Key(w.rng().Uniform(p.num));
      w.BeforeOp();
      auto it = w.engine()->NewIterator();
      it->Seek(key);
      if (it->Valid() && it->key() == key) found++;
      Status st = it->status();
      if (!st.ok()) return st.WithContext("seek");
      w.OpDone(1, 0);
    }
    w.AddFound(found, i);
    return w.ShouldStop() ? w.StopStatus() : Status::OK();
  });
  run.SetMessage(FoundMessage(run.main()));
  return s;
}

Status SeekOrdered(ScenarioRun& run) {
  const BenchParams& p = run.params();
  Status s = run.Parallel(p.threads, [&](Worker& w) -> Status {
    auto it = w.engine()->NewIterator();
    uint64_t found = 0;
    uint64_t k = 0;
    uint64_t i = 0;
    for (; i < p.Reads(); i++) {
      if (w.ShouldStop()) break;
      k = (k + w.rng().Uniform(100)) % p.num;
      const std::string& key = w.Key(k);
      w.BeforeOp();
      it->Seek(key);
      if (it->Valid() && it->key() == key) found++;
      w.OpDone(1, 0);
    }
    w.AddFound(found, i);
    DT_RETURN_IF_ERROR(it->status().WithContext("seek"));
    return w.ShouldStop() ? w.StopStatus() : Status::OK();
  });
  run.SetMessage(FoundMessage(run.main()));
  return s;
}

// db_bench's ReadWhileWriting: `threads` readers plus one writer that keeps
// putting random keys until the readers finish; only the readers count.
Status ReadWhileWriting(ScenarioRun& run) {
  const BenchParams& p = run.params();
  std::atomic<int> readers_done{0};
  Status s = run.Parallel(p.threads + 1, [&](Worker& w) -> Status {
    if (w.index() > 0) {
      Status st = GetLoop(w, p.Reads(),
                          [&](Worker& x) { return x.rng().Uniform(p.num); });
      readers_done.fetch_add(1);
      return st;
    }
    const WriteOptions wo = w.write_options();
    Status st;
    while (readers_done.load(std::memory_order_relaxed) < p.threads) {
      if (w.ShouldStop()) break;
      uint64_t k = w.rng().Uniform(p.num);
      const std::string& key = w.Key(k);
      st = w.engine()->Put(key, w.Value(w.ValueLength(k)), wo);
      if (!st.ok()) {
        st = st.WithContext("put");
        break;
      }
      w.ModelPut(k);
    }
    // As db_bench: the writer's own work is not part of the figures.
    w.ResetTiming();
    return st;
  });
  run.SetMessage(FoundMessage(run.main()));
  return s;
}

Status Compact(ScenarioRun& run) {
  return run.Parallel(1, [](Worker& w) -> Status {
    w.BeforeOp();
    DT_RETURN_IF_ERROR(w.engine()->CompactAll().WithContext("compact"));
    w.OpDone(1, 0);
    return Status::OK();
  });
}

Status OpenBench(ScenarioRun& run) {
  const uint64_t n = run.params().Writes();
  return run.Parallel(1, [&](Worker& w) -> Status {
    for (uint64_t i = 0; i < n; i++) {
      if (w.ShouldStop()) return w.StopStatus();
      w.BeforeOp();
      DT_RETURN_IF_ERROR(run.Reopen());
      w.OpDone(1, 0);
    }
    return Status::OK();
  });
}

// ------------------------------------------------------ CPU yardsticks

Status Crc32cBench(ScenarioRun& run) {
  const BenchParams& p = run.params();
  const auto total = static_cast<uint64_t>(500.0 * 1048576 * p.cpu_bytes_scale);
  std::atomic<uint32_t> last_crc{0};
  Status s = run.Parallel(p.threads, [&](Worker& w) -> Status {
    const std::string data(4096, 'x');
    uint64_t bytes = 0;
    uint32_t crc = 0;
    while (bytes < total) {
      if (w.ShouldStop()) return w.StopStatus();
      w.BeforeOp();
      crc = Crc32cExtend(0, data.data(), data.size());
      w.OpDone(1, data.size());
      bytes += data.size();
    }
    last_crc.store(crc);
    return Status::OK();
  });
  char msg[64];
  std::snprintf(msg, sizeof(msg), "(0x%08x)", last_crc.load());
  run.SetMessage(msg);
  return s;
}

Status SnappyCompressBench(ScenarioRun& run) {
  const BenchParams& p = run.params();
  const auto total =
      static_cast<uint64_t>(1024.0 * 1048576 * p.cpu_bytes_scale);
  std::atomic<uint64_t> produced_all{0};
  std::atomic<uint64_t> consumed_all{0};
  Status s = run.Parallel(p.threads, [&](Worker& w) -> Status {
    // db_bench compresses one 4 KiB block (leveldb's block size) of values.
    const std::string input(w.Value(4096));
    std::string compressed;
    uint64_t bytes = 0;
    uint64_t produced = 0;
    while (bytes < total) {
      if (w.ShouldStop()) return w.StopStatus();
      w.BeforeOp();
      snappy::Compress(input.data(), input.size(), &compressed);
      w.OpDone(1, input.size());
      produced += compressed.size();
      bytes += input.size();
    }
    produced_all.fetch_add(produced);
    consumed_all.fetch_add(bytes);
    return Status::OK();
  });
  if (consumed_all.load() > 0) {
    char msg[64];
    std::snprintf(msg, sizeof(msg), "(output: %.1f%%)",
                  produced_all.load() * 100.0 / consumed_all.load());
    run.SetMessage(msg);
  }
  return s;
}

Status SnappyUncompressBench(ScenarioRun& run) {
  const BenchParams& p = run.params();
  const auto total =
      static_cast<uint64_t>(1024.0 * 1048576 * p.cpu_bytes_scale);
  return run.Parallel(p.threads, [&](Worker& w) -> Status {
    const std::string input(w.Value(4096));
    std::string compressed;
    snappy::Compress(input.data(), input.size(), &compressed);
    std::string output(input.size(), '\0');
    uint64_t bytes = 0;
    while (bytes < total) {
      if (w.ShouldStop()) return w.StopStatus();
      w.BeforeOp();
      if (!snappy::RawUncompress(compressed.data(), compressed.size(),
                                 output.data())) {
        return Status::Corruption("snappy uncompress failed");
      }
      w.OpDone(1, input.size());
      bytes += input.size();
    }
    if (output != input) {
      return Status::Corruption("snappy round trip changed the data");
    }
    return Status::OK();
  });
}

// ------------------------------------------------- UTXO pulse (the Bitcoin
// Cash UTXO pulse study)

// Bulk load of num sequential 40-byte big-endian keys, in order, in batches,
// as the seed's 100 GB data set was built.
Status UtxoLoad(ScenarioRun& run) {
  const BenchParams& p = run.params();
  return run.Parallel(1, [&](Worker& w) {
    return WriteLoop(w, p.num, Order::kSequential, p.num);
  });
}

// Pulses: sorted reads of pulse_reads random existing keys on `threads`
// threads from a cold page cache, then pulse_inserts new keys and
// pulse_deletes random deletes.
Status UtxoPulse(ScenarioRun& run) {
  const BenchParams& p = run.params();
  BenchResult& result = run.result();
  Rng rng(run.NextThreadSeed());
  for (int pulse = 1; pulse <= p.pulses; pulse++) {
    PulsePoint point;
    point.pulse = pulse;
    point.threads = p.threads;

    PageCacheInfo cache;
    DT_RETURN_IF_ERROR(run.ReopenCold(&cache));
    result.page_cache = cache;
    point.resident_bytes_before_reads = cache.resident_bytes_after;

    const uint64_t key_end = std::max<uint64_t>(1, run.model().key_end());
    std::vector<uint64_t> keys(p.pulse_reads);
    for (uint64_t& k : keys) k = rng.Uniform(key_end);
    // The node sorts the keys of a block before reading them.
    std::sort(keys.begin(), keys.end());

    ResetPeakRss();
    ProcessSnapshot before = TakeProcessSnapshot();
    PhaseStats reads;
    Status s = run.Parallel(
        p.threads,
        [&](Worker& w) -> Status {
          uint64_t begin = 0;
          for (int i = 0; i < w.index(); i++) {
            begin += ScenarioRun::Share(keys.size(), p.threads, i);
          }
          uint64_t n = ScenarioRun::Share(keys.size(), p.threads, w.index());
          uint64_t pos = begin;
          return GetLoop(w, n, [&](Worker&) { return keys[pos++]; });
        },
        &reads);
    ProcessSnapshot after = TakeProcessSnapshot();
    run.main().Merge(reads);
    point.read_ops = reads.ops;
    point.found = reads.found;
    point.read_elapsed_ns = reads.wall_ns();
    point.peak_rss_bytes = after.peak_rss_bytes;
    if (reads.wall_ns() > 0) {
      point.cpu_percent =
          100.0 *
          static_cast<double>((after.cpu_user_ns - before.cpu_user_ns) +
                              (after.cpu_system_ns - before.cpu_system_ns)) /
          static_cast<double>(reads.wall_ns());
    }
    if (!s.ok()) {
      result.pulses.push_back(point);
      return s;
    }

    // Writes of the block: inserts append new keys, deletes spend old ones.
    uint64_t write_start = NowNanos();
    WriteBatch batch;
    std::vector<std::pair<uint64_t, bool>> applied;
    Engine* engine = run.engine();
    WriteOptions wo;
    wo.sync = p.sync;
    std::string key;
    uint64_t next_insert = run.model().key_end();
    uint64_t inserted = 0;
    uint64_t deleted = 0;
    int64_t bytes_delta = 0;
    int64_t keys_delta = 0;
    ValuePool::Cursor values(&run.pool());
    auto flush = [&]() -> Status {
      if (batch.Count() == 0) return Status::OK();
      DT_RETURN_IF_ERROR(engine->Write(batch, wo).WithContext("pulse write"));
      for (auto [k, is_put] : applied) {
        int64_t d = is_put ? run.model().Put(k) : run.model().Delete(k);
        bytes_delta += d;
        keys_delta += d > 0 ? 1 : (d < 0 ? -1 : 0);
      }
      batch.Clear();
      applied.clear();
      return Status::OK();
    };
    Status ws;
    while (ws.ok() &&
           (inserted < p.pulse_inserts || deleted < p.pulse_deletes)) {
      if (InterruptRequested()) {
        ws = Status::Aborted("interrupted");
        break;
      }
      if (inserted < p.pulse_inserts) {
        uint64_t k = next_insert++;
        FormatUtxoKey(k, &key);
        batch.Put(key, values.Next(UtxoValueLength(k)));
        applied.emplace_back(k, true);
        inserted++;
      }
      if (deleted < p.pulse_deletes) {
        uint64_t k = rng.Uniform(key_end);
        FormatUtxoKey(k, &key);
        batch.Delete(key);
        applied.emplace_back(k, false);
        deleted++;
      }
      if (batch.Count() >= 1000) ws = flush();
    }
    if (ws.ok()) ws = flush();
    run.model().Commit(bytes_delta, keys_delta);
    point.inserts = inserted;
    point.deletes = deleted;
    point.write_elapsed_ns = NowNanos() - write_start;
    result.pulses.push_back(point);
    DT_RETURN_IF_ERROR(ws);
  }
  run.SetMessage(FoundMessage(run.main()));
  return Status::OK();
}

// ------------------------------------------- HyperLevelDB charts
// (HyperLevelDB's charts)

// fillrandom on 1, 2, 4, ... max_threads writers, each point on a fresh DB
// with the num writes split between the threads (unlike db_bench, where each
// thread writes num) so every point builds a DB of the same size.
Status FillRandomThreads(ScenarioRun& run) {
  const BenchParams& p = run.params();
  std::vector<int> counts;
  for (int t = 1; t < p.max_threads; t *= 2) counts.push_back(t);
  counts.push_back(p.max_threads);
  for (size_t i = 0; i < counts.size(); i++) {
    int t = counts[i];
    if (i > 0) DT_RETURN_IF_ERROR(run.Recreate());
    PhaseStats stats;
    Status s = run.Parallel(
        t,
        [&](Worker& w) {
          return WriteLoop(w, ScenarioRun::Share(p.Writes(), t, w.index()),
                           Order::kRandom, p.num);
        },
        &stats);
    ThreadPoint point;
    point.threads = t;
    point.ops = stats.ops;
    point.elapsed_ns = stats.wall_ns();
    point.ops_per_sec =
        stats.wall_ns() ? stats.ops * 1e9 / static_cast<double>(stats.wall_ns())
                        : 0;
    point.micros_per_op =
        stats.ops ? static_cast<double>(stats.thread_ns) / 1e3 / stats.ops : 0;
    run.result().thread_series.push_back(point);
    // The headline figures are those of the largest thread count.
    if (i + 1 == counts.size() || !s.ok()) run.main().Merge(stats);
    DT_RETURN_IF_ERROR(s);
  }
  return Status::OK();
}

// fillrandom with throughput recorded per slice of 1/intervals of the ops, to
// show how write speed falls as the DB grows and compaction falls behind.
Status FillRandomGrowth(ScenarioRun& run) {
  const BenchParams& p = run.params();
  const uint64_t total = p.Writes() * static_cast<uint64_t>(p.threads);
  const uint64_t slice =
      std::max<uint64_t>(1, total / static_cast<uint64_t>(p.intervals));
  std::atomic<uint64_t> done{0};
  std::mutex mu;
  std::vector<std::pair<uint64_t, uint64_t>> marks;  // (ops_done, time)
  const uint64_t start = NowNanos();
  constexpr uint64_t kChunk = 256;
  Status s = run.Parallel(p.threads, [&](Worker& w) -> Status {
    uint64_t left = p.Writes();
    while (left > 0) {
      uint64_t n = std::min(kChunk, left);
      DT_RETURN_IF_ERROR(WriteLoop(w, n, Order::kRandom, p.num));
      left -= n;
      uint64_t before = done.fetch_add(n);
      uint64_t after = before + n;
      if (after / slice != before / slice || left == 0) {
        std::lock_guard<std::mutex> lock(mu);
        marks.emplace_back(after, NowNanos() - start);
      }
    }
    return Status::OK();
  });
  std::sort(marks.begin(), marks.end());
  uint64_t prev_ops = 0;
  uint64_t prev_ns = 0;
  for (auto [ops_done, t] : marks) {
    if (ops_done <= prev_ops) continue;
    bool boundary = ops_done / slice != prev_ops / slice || ops_done == total;
    if (!boundary) continue;
    IntervalPoint point;
    point.ops_done = ops_done;
    point.ops = ops_done - prev_ops;
    point.end_ns = t;
    point.ops_per_sec =
        t > prev_ns ? point.ops * 1e9 / static_cast<double>(t - prev_ns) : 0;
    run.result().interval_series.push_back(point);
    prev_ops = ops_done;
    prev_ns = t;
  }
  return s;
}

// ------------------------------------------------------- YCSB core

// Loads every key 0..num-1 exactly once, in a scattered order (YCSB hashes
// its insert order), split between threads.
Status YcsbLoad(ScenarioRun& run) {
  const BenchParams& p = run.params();
  Permutation perm(p.num, p.seed);
  return run.Parallel(p.threads, [&](Worker& w) -> Status {
    uint64_t begin = 0;
    for (int i = 0; i < w.index(); i++) {
      begin += ScenarioRun::Share(p.num, p.threads, i);
    }
    uint64_t n = ScenarioRun::Share(p.num, p.threads, w.index());
    const WriteOptions wo = w.write_options();
    for (uint64_t i = begin; i < begin + n; i++) {
      if (w.ShouldStop()) return w.StopStatus();
      uint64_t k = perm.At(i);
      const std::string& key = w.Key(k);
      std::string_view value = w.Value(w.ValueLength(k));
      w.BeforeOp();
      DT_RETURN_IF_ERROR(w.engine()->Put(key, value, wo).WithContext("insert"));
      w.ModelPut(k);
      w.AddUserWriteBytes(key.size() + value.size());
      w.OpDone(1, key.size() + value.size(), "insert");
    }
    return Status::OK();
  });
}

struct YcsbMix {
  double read, update, insert, scan, rmw;
  Distribution dist;
};

Status RunYcsb(ScenarioRun& run, const YcsbMix& mix) {
  const BenchParams& p = run.params();
  const uint64_t base = std::max<uint64_t>(run.model().key_end(), 1);
  std::atomic<uint64_t> inserted{0};
  Status s = run.Parallel(p.threads, [&](Worker& w) -> Status {
    Engine* engine = w.engine();
    const WriteOptions wo = w.write_options();
    std::optional<ScrambledZipfian> zipf;
    std::optional<SkewedLatest> latest;
    if (mix.dist == Distribution::kZipfian) zipf.emplace(base, p.zipf_theta);
    if (mix.dist == Distribution::kLatest) latest.emplace(base);
    auto choose = [&]() -> uint64_t {
      uint64_t count = base + inserted.load(std::memory_order_relaxed);
      if (latest) return latest->Next(w.rng(), count);
      if (zipf) return zipf->Next(w.rng());
      return w.rng().Uniform(count);
    };
    std::string value;
    uint64_t found = 0;
    uint64_t reads = 0;
    const uint64_t ops = ScenarioRun::Share(p.Reads(), p.threads, w.index());
    for (uint64_t i = 0; i < ops; i++) {
      if (w.ShouldStop()) break;
      double u = w.rng().NextDouble();
      if (u < mix.read) {
        const std::string& key = w.Key(choose());
        w.BeforeOp();
        Status st = engine->Get(key, &value);
        if (!st.ok() && !IsNotFound(st)) return st.WithContext("read");
        reads++;
        found += st.ok() ? 1 : 0;
        w.OpDone(1, 0, "read");
      } else if (u < mix.read + mix.update) {
        uint64_t k = choose();
        const std::string& key = w.Key(k);
        std::string_view v = w.Value(w.ValueLength(k));
        w.BeforeOp();
        DT_RETURN_IF_ERROR(engine->Put(key, v, wo).WithContext("update"));
        w.ModelPut(k);
        w.AddUserWriteBytes(key.size() + v.size());
        w.OpDone(1, key.size() + v.size(), "update");
      } else if (u < mix.read + mix.update + mix.insert) {
        uint64_t k = base + inserted.fetch_add(1);
        const std::string& key = w.Key(k);
        std::string_view v = w.Value(w.ValueLength(k));
        w.BeforeOp();
        DT_RETURN_IF_ERROR(engine->Put(key, v, wo).WithContext("insert"));
        w.ModelPut(k);
        w.AddUserWriteBytes(key.size() + v.size());
        w.OpDone(1, key.size() + v.size(), "insert");
      } else if (u < mix.read + mix.update + mix.insert + mix.scan) {
        const std::string& key = w.Key(choose());
        uint64_t len = 1 + w.rng().Uniform(p.scan_max);
        w.BeforeOp();
        auto it = engine->NewIterator();
        it->Seek(key);
        uint64_t bytes = 0;
        for (uint64_t j = 0; j < len && it->Valid(); j++) {
          bytes += it->key().size() + it->value().size();
          it->Next();
        }
        DT_RETURN_IF_ERROR(it->status().WithContext("scan"));
        w.OpDone(1, bytes, "scan");
      } else {
        uint64_t k = choose();
        const std::string& key = w.Key(k);
        w.BeforeOp();
        Status st = engine->Get(key, &value);
        if (!st.ok() && !IsNotFound(st)) return st.WithContext("read");
        std::string_view v = w.Value(w.ValueLength(k));
        DT_RETURN_IF_ERROR(
            engine->Put(key, v, wo).WithContext("read-modify-write"));
        reads++;
        found += st.ok() ? 1 : 0;
        w.ModelPut(k);
        w.AddUserWriteBytes(key.size() + v.size());
        w.OpDone(1, key.size() + v.size(), "read_modify_write");
      }
    }
    w.AddFound(found, reads);
    return w.ShouldStop() ? w.StopStatus() : Status::OK();
  });
  if (run.main().reads > 0) run.SetMessage(FoundMessage(run.main()));
  return s;
}

Status YcsbA(ScenarioRun& run) {
  return RunYcsb(run, {0.5, 0.5, 0, 0, 0, Distribution::kZipfian});
}
Status YcsbB(ScenarioRun& run) {
  return RunYcsb(run, {0.95, 0.05, 0, 0, 0, Distribution::kZipfian});
}
Status YcsbC(ScenarioRun& run) {
  return RunYcsb(run, {1.0, 0, 0, 0, 0, Distribution::kZipfian});
}
Status YcsbD(ScenarioRun& run) {
  return RunYcsb(run, {0.95, 0, 0.05, 0, 0, Distribution::kLatest});
}
Status YcsbE(ScenarioRun& run) {
  return RunYcsb(run, {0, 0, 0.05, 0.95, 0, Distribution::kZipfian});
}
Status YcsbF(ScenarioRun& run) {
  return RunYcsb(run, {0.5, 0, 0, 0, 0.5, Distribution::kZipfian});
}

// ------------------------------------------------- per-scenario rules

void Batch1000(BenchParams* p) { p->entries_per_batch = 1000; }
void SyncNumDiv1000(BenchParams* p) {
  p->writes = std::max<uint64_t>(1, p->Writes() / 1000);
  p->sync = true;
}
void Values100K(BenchParams* p) {
  p->writes = std::max<uint64_t>(1, p->Writes() / 1000);
  p->value_size = 100 * 1000;
}
void OpenDiv10000(BenchParams* p) {
  p->writes = std::max<uint64_t>(1, p->Writes() / 10000);
}
void ReadsDiv1000(BenchParams* p) {
  p->reads = std::max<uint64_t>(1, p->Reads() / 1000);
}
void UtxoShape(BenchParams* p) {
  p->utxo_keys = true;
  p->key_size = kUtxoKeySize;
  p->value_size = (kUtxoMinValue + kUtxoMaxValue) / 2;
}
void UtxoLoadShape(BenchParams* p) {
  UtxoShape(p);
  p->threads = 1;
  p->entries_per_batch = 1000;
}

constexpr std::string_view kDbBench = "db_bench";

// db_bench's scenario list's scenarios first, in db_bench's order, then the
// others. Columns as ScenarioSpec: name, help, db, needs_data, cheap_ops,
// origin, adjust, run, keys, threads, reads, pulsed, each_key_once.
constexpr std::array kTable = {
    ScenarioSpec{
        "fillseq", "write num values in sequential key order, fresh DB",
        DbUse::kFresh, false, false, kDbBench, nullptr, FillSeq,
        KeyOrder::kSequential, ThreadCount::kThreads, false, false, true},
    ScenarioSpec{"fillbatch",
                 "write num values in sequential key order in batches of "
                 "1000, fresh DB",
                 DbUse::kFresh, false, false, kDbBench, Batch1000, FillSeq,
                 KeyOrder::kSequential, ThreadCount::kThreads, false, false,
                 true},
    ScenarioSpec{"fillrandom",
                 "write num values in random key order (uniform, with "
                 "replacement: ~63% distinct), fresh DB",
                 DbUse::kFresh, false, false, kDbBench, nullptr, FillRandom,
                 KeyOrder::kUniform, ThreadCount::kThreads, false, false,
                 false},
    ScenarioSpec{"overwrite",
                 "write num values in random key order into the "
                 "existing DB",
                 DbUse::kExisting, false, false, kDbBench, nullptr, FillRandom,
                 KeyOrder::kUniform, ThreadCount::kThreads, false, false,
                 false},
    ScenarioSpec{"fillsync",
                 "write num/1000 values in random order with sync on each "
                 "write, fresh DB",
                 DbUse::kFresh, false, false, kDbBench, SyncNumDiv1000,
                 FillRandom, KeyOrder::kUniform, ThreadCount::kThreads, false,
                 false, false},
    ScenarioSpec{"fill100K",
                 "write num/1000 values of 100,000 bytes in random order, "
                 "fresh DB",
                 DbUse::kFresh, false, false, kDbBench, Values100K, FillRandom,
                 KeyOrder::kUniform, ThreadCount::kThreads, false, false,
                 false},
    ScenarioSpec{"deleteseq", "delete num keys in sequential order",
                 DbUse::kExisting, false, false, kDbBench, nullptr, DeleteSeq,
                 KeyOrder::kSequential, ThreadCount::kThreads, false, false,
                 true},
    ScenarioSpec{"deleterandom", "delete num keys in random order",
                 DbUse::kExisting, false, false, kDbBench, nullptr,
                 DeleteRandom, KeyOrder::kUniform, ThreadCount::kThreads, false,
                 false, false},
    ScenarioSpec{"readseq", "read reads entries with one forward iterator",
                 DbUse::kExisting, true, true, kDbBench, nullptr, ReadSeq,
                 KeyOrder::kSequential, ThreadCount::kThreads, true, false,
                 false},
    ScenarioSpec{"readreverse", "read reads entries with one backward iterator",
                 DbUse::kExisting, true, true, kDbBench, nullptr, ReadReverse,
                 KeyOrder::kSequential, ThreadCount::kThreads, true, false,
                 false},
    ScenarioSpec{"readrandom",
                 "get reads random keys (uniform), reporting how many were "
                 "found",
                 DbUse::kExisting, true, false, kDbBench, nullptr, ReadRandom,
                 KeyOrder::kUniform, ThreadCount::kThreads, true, false, false},
    ScenarioSpec{"readrandom-cold",
                 "readrandom after evicting the database from the page cache",
                 DbUse::kExisting, true, false, kDbBench, nullptr,
                 ReadRandomCold, KeyOrder::kUniform, ThreadCount::kThreads,
                 true, false, false},
    ScenarioSpec{"readseq-cold",
                 "readseq after evicting the database from the page cache",
                 DbUse::kExisting, true, true, kDbBench, nullptr, ReadSeqCold,
                 KeyOrder::kSequential, ThreadCount::kThreads, true, false,
                 false},
    ScenarioSpec{"readmissing", "get reads keys that are never present",
                 DbUse::kExisting, true, false, kDbBench, nullptr, ReadMissing,
                 KeyOrder::kUniform, ThreadCount::kThreads, true, false, false},
    ScenarioSpec{"readhot", "get reads random keys from the first 1% of keys",
                 DbUse::kExisting, true, false, kDbBench, nullptr, ReadHot,
                 KeyOrder::kHot, ThreadCount::kThreads, true, false, false},
    ScenarioSpec{"readrandomsmall", "readrandom with reads/1000",
                 DbUse::kExisting, true, false, kDbBench, ReadsDiv1000,
                 ReadRandom, KeyOrder::kUniform, ThreadCount::kThreads, true,
                 false, false},
    ScenarioSpec{"seekrandom", "a new iterator and one Seek per random key",
                 DbUse::kExisting, true, false, kDbBench, nullptr, SeekRandom,
                 KeyOrder::kUniform, ThreadCount::kThreads, true, false, false},
    ScenarioSpec{"seekordered",
                 "Seek one iterator to keys that advance by 0..99",
                 DbUse::kExisting, true, false, kDbBench, nullptr, SeekOrdered,
                 KeyOrder::kUniform, ThreadCount::kThreads, true, false, false},
    ScenarioSpec{"readwhilewriting",
                 "threads readers of random keys plus one writer that keeps "
                 "writing; readers are measured",
                 DbUse::kExisting, true, false, kDbBench, nullptr,
                 ReadWhileWriting, KeyOrder::kUniform,
                 ThreadCount::kThreadsAndWriter, true, false, false},
    ScenarioSpec{"open", "close and reopen the DB num/10000 times",
                 DbUse::kExisting, false, false, kDbBench, OpenDiv10000,
                 OpenBench, KeyOrder::kUniform, ThreadCount::kThreads, false,
                 false, false},
    ScenarioSpec{"compact", "compact the whole key range", DbUse::kExisting,
                 false, false, kDbBench, nullptr, Compact, KeyOrder::kUniform,
                 ThreadCount::kThreads, false, false, false},
    ScenarioSpec{"crc32c", "CRC-32C of 4 KiB blocks, 500 MiB (CPU only)",
                 DbUse::kNone, false, true, kDbBench, nullptr, Crc32cBench,
                 KeyOrder::kNone, ThreadCount::kThreads, false, false, false},
    ScenarioSpec{
        "snappycomp", "snappy-compress 4 KiB of values, 1 GiB (CPU only)",
        DbUse::kNone, false, true, kDbBench, nullptr, SnappyCompressBench,
        KeyOrder::kNone, ThreadCount::kThreads, false, false, false},
    ScenarioSpec{
        "snappyuncomp", "snappy-uncompress 4 KiB of values, 1 GiB (CPU only)",
        DbUse::kNone, false, true, kDbBench, nullptr, SnappyUncompressBench,
        KeyOrder::kNone, ThreadCount::kThreads, false, false, false},
    ScenarioSpec{"fillrandbatch",
                 "write num values in random key order in batches of 1000, "
                 "fresh DB",
                 DbUse::kFresh, false, false, "inmemory", Batch1000, FillRandom,
                 KeyOrder::kUniform, ThreadCount::kThreads, false, false,
                 false},
    ScenarioSpec{"fillrand100K",
                 "the same as fill100K (the in-memory microbench's name)",
                 DbUse::kFresh, false, false, "inmemory", Values100K,
                 FillRandom, KeyOrder::kUniform, ThreadCount::kThreads, false,
                 false, false},
    ScenarioSpec{"utxo-load",
                 "load num 40-byte big-endian keys in order with 30..101-byte "
                 "values, fresh DB",
                 DbUse::kFresh, false, false, "utxo", UtxoLoadShape, UtxoLoad,
                 KeyOrder::kSequential, ThreadCount::kThreads, false, false,
                 true},
    ScenarioSpec{"utxo-pulse",
                 "per pulse: evict the page cache, read pulse-reads sorted "
                 "random keys on threads threads, insert pulse-inserts and "
                 "delete pulse-deletes keys",
                 DbUse::kExisting, true, false, "utxo", UtxoShape, UtxoPulse,
                 KeyOrder::kUniform, ThreadCount::kThreads, false, true, false},
    ScenarioSpec{"fillrandom-threads",
                 "fillrandom on 1, 2, 4 .. max-threads writers (num writes "
                 "split between them), a fresh DB per thread count",
                 DbUse::kFresh, false, false, "hyperleveldb", nullptr,
                 FillRandomThreads, KeyOrder::kUniform,
                 ThreadCount::kMaxThreads, false, false, false},
    ScenarioSpec{"fillrandom-growth",
                 "fillrandom with ops/s recorded in intervals as the DB grows",
                 DbUse::kFresh, false, false, "hyperleveldb", nullptr,
                 FillRandomGrowth, KeyOrder::kUniform, ThreadCount::kThreads,
                 false, false, false},
    ScenarioSpec{"ycsb-load", "insert every key 0..num-1 once, scattered order",
                 DbUse::kFresh, false, false, "ycsb", nullptr, YcsbLoad,
                 KeyOrder::kUniform, ThreadCount::kThreads, false, false, true},
    ScenarioSpec{"ycsb-a", "YCSB A: 50% read, 50% update, zipfian 0.99",
                 DbUse::kExisting, true, false, "ycsb", nullptr, YcsbA,
                 KeyOrder::kZipfian, ThreadCount::kThreads, false, false,
                 false},
    ScenarioSpec{"ycsb-b", "YCSB B: 95% read, 5% update, zipfian 0.99",
                 DbUse::kExisting, true, false, "ycsb", nullptr, YcsbB,
                 KeyOrder::kZipfian, ThreadCount::kThreads, false, false,
                 false},
    ScenarioSpec{"ycsb-c", "YCSB C: 100% read, zipfian 0.99", DbUse::kExisting,
                 true, false, "ycsb", nullptr, YcsbC, KeyOrder::kZipfian,
                 ThreadCount::kThreads, false, false, false},
    ScenarioSpec{"ycsb-d", "YCSB D: 95% read, 5% insert, latest",
                 DbUse::kExisting, true, false, "ycsb", nullptr, YcsbD,
                 KeyOrder::kLatest, ThreadCount::kThreads, false, false, false},
    ScenarioSpec{
        "ycsb-e", "YCSB E: 95% scan (1..100 entries), 5% insert, zipfian 0.99",
        DbUse::kExisting, true, false, "ycsb", nullptr, YcsbE,
        KeyOrder::kZipfian, ThreadCount::kThreads, false, false, false},
    ScenarioSpec{
        "ycsb-f", "YCSB F: 50% read, 50% read-modify-write, zipfian 0.99",
        DbUse::kExisting, true, false, "ycsb", nullptr, YcsbF,
        KeyOrder::kZipfian, ThreadCount::kThreads, false, false, false},
};

// The distribution a key order draws its keys from; none for kNone.
std::optional<Distribution> DistributionOf(KeyOrder k) {
  switch (k) {
    case KeyOrder::kSequential:
      return Distribution::kSequential;
    case KeyOrder::kUniform:
      return Distribution::kUniform;
    case KeyOrder::kHot:
      return Distribution::kHot;
    case KeyOrder::kZipfian:
      return Distribution::kZipfian;
    case KeyOrder::kLatest:
      return Distribution::kLatest;
    case KeyOrder::kNone:
      break;
  }
  return std::nullopt;
}

}  // namespace

// The distribution's own name, which ParseDistribution reads back.
const char* KeyOrderName(KeyOrder k) {
  const std::optional<Distribution> d = DistributionOf(k);
  return d ? DistributionName(*d) : "";
}

std::span<const ScenarioSpec> Scenarios() { return kTable; }

const ScenarioSpec* FindScenario(std::string_view name) {
  for (const ScenarioSpec& s : kTable) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::string ScenarioNames() {
  std::string out;
  for (const ScenarioSpec& s : kTable) {
    if (!out.empty()) out += ", ";
    out += s.name;
  }
  return out;
}

}  // namespace disktune::bench
