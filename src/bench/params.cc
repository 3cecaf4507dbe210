#include "src/bench/params.h"

#include <cmath>
#include <string>

#include "src/bench/key_value.h"
#include "src/core/sysinfo.h"
#include "src/core/units.h"
#include "src/model/knob_spec.h"

namespace disktune::bench {
namespace {

Status CheckCount(const std::optional<int64_t>& v, const char* flag,
                  int64_t min_value, int64_t max_value) {
  if (!v) return Status::OK();
  if (*v < min_value) {
    return Status::InvalidArgument(std::string("--") + flag +
                                   " must be >= " + std::to_string(min_value) +
                                   ", got " + std::to_string(*v));
  }
  if (*v > max_value) {
    return Status::InvalidArgument(std::string("--") + flag +
                                   " must be <= " + std::to_string(max_value) +
                                   ", got " + std::to_string(*v));
  }
  return Status::OK();
}

}  // namespace

Status ValidateOverrides(const Overrides& o) {
  constexpr int64_t kBig = int64_t{1} << 50;
  DT_RETURN_IF_ERROR(CheckCount(o.num, "num", 1, kBig));
  // The key model (DbModel) holds one bit per key in memory: a --num whose
  // bitmap the machine cannot hold is refused before anything is made.
  if (o.num) {
    DT_RETURN_IF_ERROR(
        CheckFitsInMemory("--num " + std::to_string(*o.num) + " needs " +
                              FormatBytes(static_cast<double>(*o.num / 8)) +
                              " for its key model (one bit per key), which",
                          static_cast<uint64_t>(*o.num / 8), "lower --num"));
  }
  DT_RETURN_IF_ERROR(CheckCount(o.reads, "reads", 1, kBig));
  DT_RETURN_IF_ERROR(CheckCount(o.writes, "writes", 1, kBig));
  if (o.threads && (*o.threads < 1 || *o.threads > kMaxThreads)) {
    return Status::InvalidArgument(
        "--threads must be between 1 and " + std::to_string(kMaxThreads) +
        ", got " + std::to_string(*o.threads) +
        " (more threads than that only measure the scheduler)");
  }
  if (o.value_size && *o.value_size < 1) {
    return Status::InvalidArgument(
        "--value-size must be at least 1 byte, got " +
        std::to_string(*o.value_size));
  }
  DT_RETURN_IF_ERROR(CheckCount(o.value_size, "value-size", 1,
                                static_cast<int64_t>(kMaxValueBytes)));
  DT_RETURN_IF_ERROR(CheckCount(o.key_size, "key-size", 1,
                                static_cast<int64_t>(KeyFormat::kMaxKeySize)));
  if (o.compression_ratio &&
      !(*o.compression_ratio > 0 && *o.compression_ratio <= 1)) {
    return Status::InvalidArgument(
        "--compression-ratio must be in (0, 1], got " +
        std::to_string(*o.compression_ratio));
  }
  DT_RETURN_IF_ERROR(CheckCount(o.entries_per_batch, "batch", 1, 1000000));
  DT_RETURN_IF_ERROR(CheckCount(o.warmup_ops, "warmup", 0, kBig));
  DT_RETURN_IF_ERROR(CheckCount(o.max_threads, "max-threads", 1, kMaxThreads));
  DT_RETURN_IF_ERROR(CheckCount(o.intervals, "intervals", 1, 10000));
  DT_RETURN_IF_ERROR(CheckCount(o.pulse_reads, "pulse-reads", 1, kBig));
  DT_RETURN_IF_ERROR(CheckCount(o.pulse_inserts, "pulse-inserts", 0, kBig));
  DT_RETURN_IF_ERROR(CheckCount(o.pulse_deletes, "pulse-deletes", 0, kBig));
  DT_RETURN_IF_ERROR(CheckCount(o.pulses, "pulses", 1, 100000));
  if (o.data_size_bytes && *o.data_size_bytes < 1024) {
    return Status::InvalidArgument("--data-size must be at least 1KiB");
  }
  for (const KnobSpec& k : Knobs()) {
    if (auto v = o.knobs.Get(k.id)) DT_RETURN_IF_ERROR(CheckKnobRange(k, *v));
  }
  return Status::OK();
}

void ApplyOverrides(const Overrides& o, BenchParams* p) {
  if (o.num) p->num = static_cast<uint64_t>(*o.num);
  if (o.reads) p->reads = static_cast<uint64_t>(*o.reads);
  if (o.writes) p->writes = static_cast<uint64_t>(*o.writes);
  if (o.threads) p->threads = static_cast<int>(*o.threads);
  if (o.value_size) p->value_size = static_cast<uint64_t>(*o.value_size);
  if (o.key_size) p->key_size = static_cast<uint64_t>(*o.key_size);
  if (o.compression_ratio) p->compression_ratio = *o.compression_ratio;
  if (o.entries_per_batch) {
    p->entries_per_batch = static_cast<uint64_t>(*o.entries_per_batch);
  }
  if (o.sync) p->sync = *o.sync;
  if (o.seed) p->seed = *o.seed;
  if (o.warmup_ops) p->warmup_ops = static_cast<uint64_t>(*o.warmup_ops);
  if (o.max_threads) p->max_threads = static_cast<int>(*o.max_threads);
  if (o.intervals) p->intervals = static_cast<int>(*o.intervals);
  if (o.pulse_reads) p->pulse_reads = static_cast<uint64_t>(*o.pulse_reads);
  if (o.pulse_inserts) {
    p->pulse_inserts = static_cast<uint64_t>(*o.pulse_inserts);
  }
  if (o.pulse_deletes) {
    p->pulse_deletes = static_cast<uint64_t>(*o.pulse_deletes);
  }
  if (o.pulses) p->pulses = static_cast<int>(*o.pulses);
  if (o.page_cache) p->page_cache = *o.page_cache;
  if (o.data_size_bytes) {
    double entry = kUtxoKeySize + (kUtxoMinValue + kUtxoMaxValue) / 2.0;
    p->num = std::max<uint64_t>(
        1,
        static_cast<uint64_t>(static_cast<double>(*o.data_size_bytes) / entry));
  }
  EngineOptions& e = p->engine;
  MergeKnobs(o.knobs, /*overwrite=*/true, &e);
  if (o.in_memory) e.in_memory = *o.in_memory;
  if (o.sync) e.sync = *o.sync;
  e.settings.insert(e.settings.end(), o.engine_settings.begin(),
                    o.engine_settings.end());
}

Status ValidateParams(const BenchParams& p) {
  if (p.num < 1) return Status::InvalidArgument("num must be at least 1");
  if (p.Reads() < 1) return Status::InvalidArgument("reads must be at least 1");
  if (p.Writes() < 1) {
    return Status::InvalidArgument("writes must be at least 1");
  }
  if (p.threads < 1 || p.threads > kMaxThreads) {
    return Status::InvalidArgument("threads must be between 1 and " +
                                   std::to_string(kMaxThreads));
  }
  if (p.value_size < 1 || p.value_size > kMaxValueBytes) {
    return Status::InvalidArgument(
        "value size must be between 1 byte and 64MiB, got " +
        std::to_string(p.value_size));
  }
  KeyFormat kf(p.key_size);
  // Inserting scenarios (YCSB D/E, UTXO) go past num; leave room for 2x.
  if (!kf.Fits(p.num * 2)) {
    return Status::InvalidArgument(
        "--key-size " + std::to_string(p.key_size) + " cannot hold " +
        std::to_string(KeyFormat::Digits(p.num * 2)) +
        "-digit keys needed for --num " + std::to_string(p.num));
  }
  return Status::OK();
}

}  // namespace disktune::bench
