#include "src/bench/scenario.h"

#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

#include "src/bench/space_guard.h"
#include "src/core/signals.h"
#include "src/core/units.h"

namespace disktune::bench {

void PhaseStats::Merge(const PhaseStats& other) {
  ops += other.ops;
  bytes += other.bytes;
  user_write_bytes += other.user_write_bytes;
  found += other.found;
  reads += other.reads;
  thread_ns += other.thread_ns;
  wall_start_ns = std::min(wall_start_ns, other.wall_start_ns);
  wall_end_ns = std::max(wall_end_ns, other.wall_end_ns);
  threads += other.threads;
  hist.Merge(other.hist);
  for (const auto& [name, v] : other.per_op) {
    auto& mine = per_op[name];
    mine.first += v.first;
    mine.second.Merge(v.second);
  }
}

Worker::Worker(ScenarioRun* run, int index, uint64_t seed)
    : run_(run),
      index_(index),
      rng_(seed),
      keys_(run->params().utxo_keys ? KeyFormat::kDbBenchKeySize
                                    : run->params().key_size),
      values_(&run->pool()),
      sample_all_(!run->spec().cheap_ops) {
  Resample();
}

Engine* Worker::engine() { return run_->engine(); }
const BenchParams& Worker::params() const { return run_->params(); }
DbModel& Worker::model() { return run_->model(); }

WriteOptions Worker::write_options() const {
  WriteOptions wo;
  wo.sync = run_->params().sync;
  return wo;
}

const std::string& Worker::Key(uint64_t k) {
  if (run_->params().utxo_keys) {
    FormatUtxoKey(k, &key_buf_);
  } else {
    keys_.Format(k, &key_buf_);
  }
  return key_buf_;
}

size_t Worker::ValueLength(uint64_t k) const {
  if (run_->params().utxo_keys) return UtxoValueLength(k);
  return run_->params().value_size;
}

void Worker::ResetTiming() {
  PhaseStats fresh;
  stats_ = std::move(fresh);
  stats_.threads = 1;
  last_ = NowNanos();
  stats_.wall_start_ns = last_;
  sampling_ = false;
}

void Worker::OpDone(uint64_t entries, uint64_t bytes, const char* op) {
  stats_.ops += entries;
  stats_.bytes += bytes;
  uint64_t latency;
  if (sample_all_) {
    uint64_t now = NowNanos();
    latency = now - last_;
    last_ = now;
  } else if (sampling_) {
    latency = NowNanos() - t0_;
    sampling_ = false;
    Resample();
  } else {
    return;
  }
  stats_.hist.Add(latency);
  if (op != nullptr) {
    auto& slot = stats_.per_op[op];
    slot.first++;
    slot.second.Add(latency);
  }
}

void Worker::ModelPut(uint64_t k) {
  int64_t d = run_->model().Put(k);
  if (d > 0) {
    live_bytes_delta_ += d;
    live_keys_delta_++;
  }
}

void Worker::ModelDelete(uint64_t k) {
  int64_t d = run_->model().Delete(k);
  if (d < 0) {
    live_bytes_delta_ += d;
    live_keys_delta_--;
  }
}

bool Worker::ShouldStop() const {
  return InterruptRequested() ||
         run_->failed().load(std::memory_order_relaxed) ||
         (run_->space() && (run_->space()->low() || run_->space()->gone()));
}

Status Worker::StopStatus() const {
  if (InterruptRequested()) return Status::Aborted("interrupted");
  if (run_->space() && run_->space()->low())
    return Status::NoSpace(run_->space()->Message());
  if (run_->space() && run_->space()->gone())
    return Status::IOError(run_->space()->GoneMessage());
  return Status::Aborted("stopped: another thread failed");
}

void Worker::Finish() {
  uint64_t end = NowNanos();
  stats_.wall_end_ns = end;
  stats_.thread_ns = end - stats_.wall_start_ns;
}

ScenarioRun::ScenarioRun(const ScenarioSpec& spec, const BenchParams& params,
                         Engine* engine, DbModel* model,
                         const std::string& db_path, const ValuePool* pool,
                         uint64_t* thread_seed_counter, BenchResult* result)
    : spec_(spec),
      params_(params),
      engine_(engine),
      model_(model),
      db_path_(db_path),
      pool_(pool),
      seed_counter_(thread_seed_counter),
      result_(result) {}

uint64_t ScenarioRun::Share(uint64_t total, int threads, int i) {
  uint64_t t = static_cast<uint64_t>(threads);
  uint64_t base = total / t;
  return base + (static_cast<uint64_t>(i) < total % t ? 1 : 0);
}

Status ScenarioRun::FinishWrites() {
  Status s = engine_->FinishWriteBenchmark();
  main_.wall_end_ns = std::max(main_.wall_end_ns, NowNanos());
  return s.WithContext("finish writes");
}

Status ScenarioRun::Parallel(int threads, const Body& body, PhaseStats* into) {
  if (into == nullptr) into = &main_;
  // Watches the filesystem for the length of this phase.
  std::string watched = db_path_;
  while (!watched.empty() && access(watched.c_str(), F_OK) != 0)
    watched = std::filesystem::path(watched).parent_path().string();
  SpaceGuard guard(watched.empty() ? "." : watched);
  space_ = &guard;
  struct ClearSpace {
    const SpaceGuard** p;
    ~ClearSpace() { *p = nullptr; }
  } clear_space{&space_};
  // One thread: the model needs no locked instructions (see DbModel).
  model_->SetSingleWriter(threads == 1);
  struct ClearSingleWriter {
    DbModel* m;
    ~ClearSingleWriter() { m->SetSingleWriter(false); }
  } clear_single_writer{model_};
  std::vector<std::unique_ptr<Worker>> workers;
  workers.reserve(static_cast<size_t>(threads));
  for (int i = 0; i < threads; i++) {
    workers.push_back(std::make_unique<Worker>(this, i, NextThreadSeed()));
  }
  std::vector<Status> statuses(static_cast<size_t>(threads));

  std::mutex mu;
  std::condition_variable cv;
  int ready = 0;
  bool go = false;
  auto thread_main = [&](int i) {
    if (threads > 1) {
      std::unique_lock<std::mutex> lock(mu);
      ready++;
      cv.notify_all();
      cv.wait(lock, [&] { return go; });
    }
    Worker& w = *workers[static_cast<size_t>(i)];
    w.ResetTiming();
    Status s = body(w);
    w.Finish();
    if (!s.ok()) failed_.store(true);
    statuses[static_cast<size_t>(i)] = std::move(s);
  };

  Status spawn_error;
  if (threads == 1) {
    thread_main(0);
  } else {
    std::vector<std::thread> pool;
    pool.reserve(static_cast<size_t>(threads));
    for (int i = 0; i < threads; i++) {
      try {
        pool.emplace_back(thread_main, i);
      } catch (const std::system_error& e) {
        spawn_error = Status::IOError("cannot start thread " +
                                      std::to_string(i) + ": " + e.what());
        break;
      }
    }
    {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return ready == static_cast<int>(pool.size()); });
      if (!spawn_error.ok()) failed_.store(true);
      go = true;
    }
    cv.notify_all();
    for (auto& t : pool) t.join();
    if (!spawn_error.ok()) {
      // Threads that never started contribute nothing.
      workers.resize(pool.size());
      statuses.resize(pool.size());
    }
  }

  int64_t bytes_delta = 0;
  int64_t keys_delta = 0;
  for (auto& w : workers) {
    into->Merge(w->stats());
    bytes_delta += w->live_bytes_delta();
    keys_delta += w->live_keys_delta();
  }
  model_->Commit(bytes_delta, keys_delta);

  if (!spawn_error.ok()) return spawn_error;
  // Report the error that caused the stop, not the "another thread failed"
  // aborts it triggered.
  for (const Status& s : statuses) {
    if (!s.ok() && !s.IsAborted()) return s;
  }
  for (const Status& s : statuses) {
    if (!s.ok()) return s;
  }
  return Status::OK();
}

Status ScenarioRun::Reopen() {
  DT_RETURN_IF_ERROR(engine_->Close().WithContext("close " + db_path_));
  return engine_->Open(db_path_, params_.engine)
      .WithContext("open " + db_path_);
}

Status ScenarioRun::CloseAndEvict(PageCacheInfo* info) {
  DT_RETURN_IF_ERROR(engine_->Close().WithContext("close " + db_path_));
  info->policy = PageCachePolicyName(params_.page_cache);
  auto evicted = EvictFromPageCache(db_path_, params_.page_cache);
  if (!evicted.ok()) {
    Status reopen = engine_->Open(db_path_, params_.engine);
    (void)reopen;
    return evicted.status();
  }
  info->method = evicted->method;
  info->resident_bytes_after = evicted->resident_bytes_after;
  info->note = evicted->note;
  return Status::OK();
}

Status ScenarioRun::ReopenCold(PageCacheInfo* info) {
  DT_RETURN_IF_ERROR(CloseAndEvict(info));
  DT_RETURN_IF_ERROR(
      engine_->Open(db_path_, params_.engine).WithContext("open " + db_path_));
  // In slices, so Ctrl-C is heard within one.
  uint64_t waited = 0;
  bool busy = true;
  while (busy && waited < kSettleMaxNs) {
    if (InterruptRequested()) return Status::Aborted("interrupted");
    Result<uint64_t> slice = engine_->SettleBackgroundWork(kSettleSliceNs);
    DT_RETURN_IF_ERROR(slice.status().WithContext("settle " + db_path_));
    waited += *slice;
    busy = *slice >= kSettleSliceNs;
  }
  if (waited == 0) return Status::OK();
  DT_RETURN_IF_ERROR(CloseAndEvict(info));
  std::string note = "the reopen's flushes and compactions ran " +
                     FormatDuration(static_cast<double>(waited)) +
                     " before the reads" +
                     (busy ? " and had not finished" : "") +
                     "; the cache was evicted after them";
  info->note = info->note.empty() ? note : note + "; " + info->note;
  return engine_->Open(db_path_, params_.engine)
      .WithContext("open " + db_path_);
}

Status ScenarioRun::Recreate() {
  DT_RETURN_IF_ERROR(
      engine_->Destroy(db_path_).WithContext("destroy " + db_path_));
  ValueShape shape = model_->shape();
  uint64_t capacity = model_->capacity();
  model_->Reset(shape);
  model_->Reserve(capacity);
  return engine_->Open(db_path_, params_.engine)
      .WithContext("open " + db_path_);
}

}  // namespace disktune::bench
