// The rules for RocksDB's own knobs (EngineOptions::rocksdb): what the
// device facts, the CPU count and the workload say about each, from RocksDB's
// tuning guide ("RocksDB Tuning Guide" and "Setup Options and Basic Tuning"
// on its wiki). Most fix one value and record why; the few whose effect the
// facts cannot predict leave two values for the search to measure.
#include <algorithm>
#include <cstdio>

#include "src/tune/rule_util.h"
#include "src/tune/rules.h"

namespace disktune::tune {
namespace {

using json = nlohmann::json;

// The rule's knob gets `values` (preferred first), recorded as candidates.
void Decide(CandidateSpace* s, RuleRecord* r, std::vector<KnobValue> values) {
  const KnobSpec* k = FindKnob(r->knob);
  for (KnobValue v : values) r->candidates.push_back(KnobValueToJson(*k, v));
  s->Set(k->id, std::move(values));
}

// What an earlier rule decided for knob `id` (its first value), else RocksDB's
// default.
KnobValue Decided(const CandidateSpace& s, KnobId id) {
  return s.First(id).value_or(*KnobRow(id).rocksdb.default_value);
}

KnobValue Default(std::string_view key) {
  return *FindKnob(key)->rocksdb.default_value;
}

// The write buffer the rules prefer (the first one the search tries).
uint64_t FirstWriteBuffer(const RuleInput& in, const CandidateSpace& s) {
  std::optional<KnobValue> v = s.First(KnobId::kWriteBufferBytes);
  return v ? static_cast<uint64_t>(*v)
           : in.engine->defaults.write_buffer_bytes();
}

bool WriteHeavy(const RuleInput& in) { return in.traits.write_share >= 0.5; }

// Bytes written between two background syncs so that a sync's fixed cost
// (its fdatasync latency) is at most a tenth of the time the disk spends
// writing them: 10 x p50 x bandwidth, a power of two in [512 KiB, 16 MiB];
// RocksDB's tuning guide's 1 MiB when either figure is missing.
uint64_t SyncChunk(const DeviceFacts& f) {
  if (!f.fdatasync_p50_ns || !f.seq_write_bytes_per_sec) return 1 * kMiB;
  double bytes = 10 * static_cast<double>(*f.fdatasync_p50_ns) / 1e9 *
                 *f.seq_write_bytes_per_sec;
  return std::clamp(RoundUpPow2(static_cast<uint64_t>(bytes)), 512 * kKiB,
                    16 * kMiB);
}

std::string SyncFacts(const DeviceFacts& f) {
  std::string sync = f.fdatasync_p50_ns
                         ? "fdatasync p50 " + Micros(*f.fdatasync_p50_ns)
                         : "fdatasync not measured";
  std::string bw = f.seq_write_bytes_per_sec
                       ? "disk writes " + MBps(*f.seq_write_bytes_per_sec)
                       : "write bandwidth not measured";
  return sync + "; " + bw;
}

// --------------------------------------------------------------- the rules

void BackgroundJobs(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  const int cpus = in.facts.cpu_count;
  const KnobValue d = Default(r->knob);
  r->fact = std::to_string(cpus) + " CPU(s); scored writes " +
            Percent(in.traits.write_share);
  if (in.traits.write_share == 0) {
    Decide(s, r, {d});
    r->decision =
        "keep the default: no scored writes, so flushes and compactions "
        "have nothing to keep up with";
    return;
  }
  // Flushes and compactions run on their own threads; the writers need a
  // core of their own.
  const KnobValue jobs = std::clamp<KnobValue>(cpus - 1, d, 16);
  Decide(s, r, {jobs});
  r->decision = jobs == d ? "keep the default " + std::to_string(d) +
                                ": no spare cores beyond the writers'"
                          : std::to_string(jobs) +
                                " jobs: one per core beyond the writers' "
                                "(RocksDB's tuning guide: raise it with the "
                                "cores so compaction keeps up)";
}

void WriteBufferNumber(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  // Decided for the smallest write buffer the rules left, and the text
  // names the buffers it holds for, so it agrees with whichever buffer the
  // search keeps.
  uint64_t wb = FirstWriteBuffer(in, *s);
  for (KnobValue x : s->Values(KnobId::kWriteBufferBytes)) {
    wb = std::min(wb, static_cast<uint64_t>(x));
  }
  const KnobValue d = Default(r->knob);
  std::string buffers;
  for (KnobValue x : s->Values(KnobId::kWriteBufferBytes)) {
    buffers += (buffers.empty() ? "" : ", ") + Bytes(static_cast<double>(x));
  }
  r->fact = "scored writes " + Percent(in.traits.write_share) +
            "; write buffers " +
            (buffers.empty() ? Bytes(static_cast<double>(wb)) : buffers) +
            " in a budget of " + Bytes(static_cast<double>(in.budget_bytes));
  if (!WriteHeavy(in)) {
    Decide(s, r, {d});
    r->decision = "keep the default: writes are not the bottleneck";
    return;
  }
  // RocksDB stalls writers once every memtable is full and waiting for a
  // flush; more memtables absorb a burst while one flushes. Each counts
  // against the budget, so at most half of it goes to memtables.
  KnobValue n = d;
  for (KnobValue want : {4, 3}) {
    if (static_cast<uint64_t>(want) * wb <= in.budget_bytes / 2) {
      n = want;
      break;
    }
  }
  if (n == d) {
    Decide(s, r, {d});
    r->decision =
        "keep the default: a third memtable of even the smallest "
        "write buffer the rules left (" +
        Bytes(static_cast<double>(wb)) +
        ") would take more than half the budget";
    return;
  }
  Decide(s, r, {n, d});
  r->decision = "measure " + std::to_string(n) +
                " memtables against the default: more absorb write bursts "
                "while one flushes (RocksDB stalls writes when all are "
                "full), at the cost of the block cache's share; " +
                std::to_string(n) + " x " + Bytes(static_cast<double>(wb)) +
                " is within half the budget";
}

void MergeBeforeFlush(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  r->fact = "scored writes " + Percent(in.traits.write_share) +
            "; keys written " +
            (in.traits.sequential_writes_only ? "in order" : "in any order");
  Decide(s, r, {Default(r->knob)});
  r->decision =
      "keep 1: each memtable flushes as it fills, so level 0 holds fewer "
      "overlapping entries per file; merging memtables first pays only "
      "when the same keys are overwritten within one memtable's span";
}

void Level0Compaction(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  const WorkloadTraits& t = in.traits;
  r->fact = "point reads " + Percent(t.point_read_share) + ", writes " +
            Percent(t.write_share) + " of scored ops";
  if (t.point_read_share >= 0.5 && !WriteHeavy(in)) {
    Decide(s, r, {2});
    r->decision =
        "2: every level-0 file is one more table a point read checks, and "
        "reads dominate, so compact level 0 sooner";
  } else {
    Decide(s, r, {Default(r->knob)});
    r->decision =
        "keep 4: RocksDB's tuning guide sizes level 1 to what level 0 "
        "holds at this trigger";
  }
}

void Level0Slowdown(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  const KnobValue trigger =
      Decided(*s, KnobId::kLevel0FileNumCompactionTrigger);
  r->fact = "scored writes " + Percent(in.traits.write_share) +
            "; level-0 compaction trigger " + std::to_string(trigger);
  if (WriteHeavy(in)) {
    Decide(s, r, {std::max<KnobValue>(32, trigger * 8)});
    r->decision =
        "raise: writes dominate, and a level 0 that may grow further "
        "before RocksDB throttles writers absorbs bursts while the deeper "
        "levels compact (RocksDB's tuning guide: avoid write stalls)";
  } else {
    Decide(s, r, {Default(r->knob)});
    r->decision = "keep the default: writes are not the bottleneck";
  }
}

// A device whose compactions fall behind the writes sooner: a spinning
// disk, or one that writes under 200 MB/s or reads under 5,000 IOPS (a
// cloud volume at its baseline).
bool SlowDevice(const DeviceFacts& f) {
  return f.rotational.value_or(false) ||
         (f.seq_write_bytes_per_sec && *f.seq_write_bytes_per_sec < 200e6) ||
         (f.rand_read_iops && *f.rand_read_iops < 5000);
}

std::string DeviceSpeedText(const DeviceFacts& f) {
  std::string t = f.seq_write_bytes_per_sec
                      ? "disk writes " + MBps(*f.seq_write_bytes_per_sec)
                      : std::string("write bandwidth not measured");
  if (f.rand_read_iops) {
    t += ", " + std::to_string(static_cast<long long>(*f.rand_read_iops)) +
         " random-read IOPS";
  }
  if (f.rotational.value_or(false)) t += ", rotational";
  return t;
}

void Level0Stop(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  const KnobValue slowdown = Decided(*s, KnobId::kLevel0SlowdownWritesTrigger);
  const KnobValue d = Default(r->knob);
  r->fact = "level-0 slowdown trigger " + std::to_string(slowdown) +
            "; scored writes " + Percent(in.traits.write_share) + "; " +
            DeviceSpeedText(in.facts);
  // RocksDB wants stop >= slowdown; keep the default's gap of 16 files.
  const KnobValue stop = std::max(d, slowdown + 16);
  if (WriteHeavy(in) && SlowDevice(in.facts)) {
    // On a device that compacts slowly a full stop is the worst stall:
    // ArangoDB raised the stop trigger 36 -> 256 for cloud volumes.
    const KnobValue far = std::max<KnobValue>(stop, 256);
    Decide(s, r, {far, stop});
    r->decision =
        "measure a stop trigger of " + std::to_string(far) + " against " +
        std::to_string(stop) +
        ": on a device this slow compactions fall behind sooner, and a "
        "full stop is the worst stall (ArangoDB raised it 36 -> 256 for "
        "cloud volumes)";
    return;
  }
  Decide(s, r, {stop});
  r->decision = stop == d ? "keep the default: above the slowdown trigger"
                          : "raise with the slowdown trigger, 16 files above "
                            "it as by default";
}

void Level1Size(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  const uint64_t wb = FirstWriteBuffer(in, *s);
  const KnobValue merge = Decided(*s, KnobId::kMinWriteBufferNumberToMerge);
  const KnobValue trigger =
      Decided(*s, KnobId::kLevel0FileNumCompactionTrigger);
  // RocksDB's tuning guide: level 1 about the size of level 0 when its
  // compaction starts, so an L0->L1 compaction rewrites as much as it
  // reads.
  uint64_t l0 = wb * static_cast<uint64_t>(merge * trigger);
  uint64_t l1 = std::max<uint64_t>(RoundUpPow2(l0 / kMiB) * kMiB, 16 * kMiB);
  r->fact = "write buffer " + Bytes(static_cast<double>(wb)) + " x " +
            std::to_string(merge) + " merged x level-0 trigger " +
            std::to_string(trigger) + " = " + Bytes(static_cast<double>(l0)) +
            " in level 0";
  Decide(s, r, {static_cast<KnobValue>(l1)});
  r->decision = "level 1 of " + Bytes(static_cast<double>(l1)) +
                ", about level 0's size (RocksDB's tuning guide), at least "
                "16 MiB";
}

void LevelMultiplier(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  r->fact = "estimated table data " + Bytes(static_cast<double>(EstimateDbBytes(
                                          in.shape, in.engine->defaults)));
  Decide(s, r, {Default(r->knob)});
  r->decision =
      "keep 10: RocksDB's tuning guide's balance of write amplification "
      "(grows with the multiplier) against levels per read and space";
}

void BytesPerSync(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  r->fact = "scored writes " + Percent(in.traits.write_share) + "; " +
            SyncFacts(in.facts);
  if (in.traits.write_share == 0) {
    Decide(s, r, {0});
    r->decision = "keep 0: no scored writes";
    return;
  }
  const uint64_t chunk = SyncChunk(in.facts);
  Decide(s, r, {static_cast<KnobValue>(chunk)});
  r->decision =
      "sync table files every " + Bytes(static_cast<double>(chunk)) +
      " so writeback trickles instead of stalling on one large flush "
      "(RocksDB's tuning guide), in chunks large enough that a sync's "
      "fixed cost is at most a tenth of writing them";
}

void WalBytesPerSync(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  r->fact = std::string(in.workload.durable_writes ? "durable" : "unsynced") +
            " writes, " + Percent(in.traits.write_share) + " of scored ops; " +
            SyncFacts(in.facts);
  if (in.traits.write_share == 0 || in.workload.durable_writes) {
    Decide(s, r, {0});
    r->decision = in.traits.write_share == 0
                      ? "keep 0: no scored writes"
                      : "keep 0: every commit syncs the log already";
    return;
  }
  const uint64_t chunk = SyncChunk(in.facts);
  Decide(s, r, {static_cast<KnobValue>(chunk)});
  r->decision = "sync the log every " + Bytes(static_cast<double>(chunk)) +
                " in the background, as the table files";
}

void DirectIo(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  const WorkloadTraits& t = in.traits;
  const bool hit = ReadsHitDevice(in);
  r->fact =
      std::string("reads ") +
      (hit ? "reach the device at full size" : "fit in memory at full size") +
      "; reads " + Percent(t.point_read_share + t.scan_share) + ", writes " +
      Percent(t.write_share) + " of scored ops";
  if (hit && t.write_share > 0 && t.point_read_share + t.scan_share >= 0.05) {
    Decide(s, r, {1});
    r->decision =
        "on: the data exceeds memory, and flush and compaction output "
        "read through the page cache would evict the blocks reads need";
  } else {
    Decide(s, r, {0});
    r->decision =
        "off: the page cache holds the data, and buffered compaction "
        "reads benefit from it";
  }
}

// Mapped reads when the tables sit in the page cache (benchmarks/README.md,
// Tuner design records: Mapped reads for RocksDB).
void MmapReads(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  const WorkloadTraits& t = in.traits;
  const bool hit = ReadsHitDevice(in);
  const double reads = t.point_read_share + t.scan_share;
  r->fact =
      std::string("reads ") +
      (hit ? "reach the device at full size" : "fit in memory at full size") +
      "; reads " + Percent(reads) + " of scored ops";
  if (!hit && reads >= 0.5) {
    Decide(s, r, {1, 0});
    r->decision =
        "measure mapped table files against pread: the page cache holds "
        "the tables, and a mapped read skips the system call and, for an "
        "uncompressed block, the copy out of the page cache";
  } else {
    Decide(s, r, {0});
    r->decision =
        hit ? "keep off: the data exceeds memory, and a mapped read that "
              "misses the page cache waits on a page fault"
            : "keep off: reads are not most of the scored ops";
  }
}

void CompactionReadahead(const RuleInput& in, CandidateSpace* s,
                         RuleRecord* r) {
  const bool direct = Decided(*s, KnobId::kDirectIoForFlushAndCompaction) != 0;
  r->fact =
      std::string("device ") +
      (!in.facts.rotational   ? "type unknown"
       : *in.facts.rotational ? "rotational"
                              : "solid state") +
      (in.facts.max_sectors_kb
           ? ", max_sectors_kb " + std::to_string(*in.facts.max_sectors_kb)
           : std::string(", max_sectors_kb not read")) +
      "; direct I/O for compaction " + (direct ? "on" : "off") +
      "; scored writes " + Percent(in.traits.write_share);
  if (in.traits.write_share == 0) {
    // A changed knob the scored steps cannot show is a passenger the knob
    // check spends rounds on (benchmarks/README.md, Tuner design records:
    // Readahead without scored writes).
    Decide(s, r, {0});
    r->decision =
        "keep 0: no scored writes, and the scored reads do not wait on "
        "compactions";
  } else if (in.facts.rotational.value_or(false) || direct) {
    // RocksDB's wiki: >= 2 MiB on spinning disks, but no larger than the
    // device's max_sectors_kb: above it every read is split (2 MiB -> 480
    // KiB raised ~70K to ~77K puts/s where max_sectors_kb was 512).
    uint64_t ra = 2 * kMiB;
    const uint64_t dev =
        in.facts.max_sectors_kb ? *in.facts.max_sectors_kb * kKiB : 0;
    if (dev > 0 && dev < ra) ra = dev;
    Decide(s, r, {static_cast<KnobValue>(ra)});
    r->decision =
        (in.facts.rotational.value_or(false)
             ? Bytes(static_cast<double>(ra)) +
                   ": on a spinning disk compaction inputs should be read in "
                   "large sequential chunks (RocksDB's tuning guide)"
             : Bytes(static_cast<double>(ra)) +
                   ": with direct I/O there is no kernel readahead (RocksDB "
                   "itself uses 2 MiB then)") +
        (ra < 2 * kMiB ? ", capped at the device's max_sectors_kb so no "
                         "read is split"
                       : "");
  } else {
    Decide(s, r, {0});
    r->decision = "keep 0: the kernel's readahead serves a solid-state disk";
  }
}

void BottommostCodec(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  const DeviceFacts& f = in.facts;
  const double ratio = in.shape.compression_ratio;
  char text[96];
  std::snprintf(text, sizeof(text), "values compress to %.2f; ", ratio);
  r->fact = text +
            (f.snappy_bytes_per_sec
                 ? "snappy " + MBps(*f.snappy_bytes_per_sec) + "/core"
                 : std::string("snappy speed not measured")) +
            "; " + SyncFacts(f);
  const bool disk_bound =
      f.snappy_bytes_per_sec && f.seq_write_bytes_per_sec &&
      *f.seq_write_bytes_per_sec * 4 < *f.snappy_bytes_per_sec;
  const bool has_zstd =
      std::find(in.engine->compressions.begin(), in.engine->compressions.end(),
                Compression::kZstd) != in.engine->compressions.end();
  if (ratio < 0.9 && disk_bound && has_zstd) {
    Decide(s, r, {static_cast<KnobValue>(BottommostCompression::kZstd)});
    r->decision =
        "zstd for the last level: it holds most of the data, written "
        "once per compaction into it, and the disk, not the CPU, limits "
        "writes (RocksDB's tuning guide: lz4 above, zstd at the bottom)";
  } else {
    Decide(s, r,
           {static_cast<KnobValue>(BottommostCompression::kSameAsOthers)});
    r->decision = ratio >= 0.9
                      ? "same as the other levels: the values do not compress"
                      : "same as the other levels: the CPU is as scarce as "
                        "the disk's bandwidth";
  }
}

void PerLevelCodec(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  const DeviceFacts& f = in.facts;
  const bool cpu_bound = f.snappy_bytes_per_sec && f.seq_write_bytes_per_sec &&
                         *f.seq_write_bytes_per_sec >= *f.snappy_bytes_per_sec;
  r->fact = "scored writes " + Percent(in.traits.write_share) + "; " +
            (cpu_bound ? "the CPU compresses slower than the disk writes"
                       : "the disk writes slower than the CPU compresses");
  if (WriteHeavy(in) && cpu_bound && in.shape.compression_ratio < 0.9) {
    Decide(s, r, {static_cast<KnobValue>(CompressionPerLevel::kNoneToL1)});
    r->decision =
        "levels 0 and 1 uncompressed: they are rewritten soonest, so "
        "compressing them costs CPU on every flush for data that moves on "
        "(RocksDB's tuning guide)";
  } else {
    Decide(s, r, {static_cast<KnobValue>(CompressionPerLevel::kUniform)});
    r->decision =
        "one codec for every level: compression is not what "
        "limits the writes";
  }
}

void WholeKeyFilter(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  r->fact = "point reads " + Percent(in.traits.point_read_share) +
            " of scored ops, by whole key";
  Decide(s, r, {1});
  r->decision =
      "on: the workload's point reads look up whole keys, which only a "
      "whole-key filter answers";
}

void PrefixBloom(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  r->fact = "scans " + Percent(in.traits.scan_share) +
            " of scored ops, none bounded to a key prefix";
  Decide(s, r, {0});
  r->decision =
      "none: a prefix filter serves seeks within one prefix, and the "
      "workload's scans and reads are not";
}

void CompactionStyleRule(const RuleInput& in, CandidateSpace* s,
                         RuleRecord* r) {
  const WorkloadTraits& t = in.traits;
  r->fact = "writes " + Percent(t.write_share) + ", reads " +
            Percent(t.point_read_share + t.scan_share) + " of scored ops";
  const auto level = static_cast<KnobValue>(CompactionStyle::kLevel);
  if (t.write_share >= 0.9 && t.point_read_share + t.scan_share == 0) {
    Decide(s, r, {level, static_cast<KnobValue>(CompactionStyle::kUniversal)});
    r->decision =
        "measure universal against level: the workload only writes, and "
        "universal compaction rewrites each byte fewer times, but while it "
        "merges it may need up to twice the data's size on disk and reads "
        "check more files (RocksDB's tuning guide)";
  } else {
    Decide(s, r, {level});
    r->decision =
        "level: reads are scored, and level compaction keeps the files a "
        "read checks and the space amplification small";
  }
}

// In order: the triggers before the level-1 size that reads them, direct
// I/O before the readahead it changes.
constexpr Rule kRocksDbRules[] = {
    {"background-jobs-from-cpus", KnobId::kMaxBackgroundJobs,
     "CPU count and the write share", BackgroundJobs},
    {"memtables-for-write-bursts", KnobId::kMaxWriteBufferNumber,
     "write share, the rules' write buffer and the budget", WriteBufferNumber},
    {"flush-each-memtable", KnobId::kMinWriteBufferNumberToMerge,
     "write share and key order", MergeBeforeFlush},
    {"level0-compaction-for-reads", KnobId::kLevel0FileNumCompactionTrigger,
     "point-read and write shares", Level0Compaction},
    {"level0-slowdown-for-writes", KnobId::kLevel0SlowdownWritesTrigger,
     "write share and the level-0 compaction trigger", Level0Slowdown},
    {"level0-stop-above-slowdown", KnobId::kLevel0StopWritesTrigger,
     "the level-0 slowdown trigger", Level0Stop},
    {"level1-matches-level0", KnobId::kMaxBytesForLevelBase,
     "write buffer x memtables merged x level-0 trigger", Level1Size},
    {"level-multiplier", KnobId::kMaxBytesForLevelMultiplier,
     "estimated table data", LevelMultiplier},
    {"bytes-per-sync-from-fsync", KnobId::kBytesPerSync,
     "fdatasync latency, disk write bandwidth, write share", BytesPerSync},
    {"wal-bytes-per-sync-from-fsync", KnobId::kWalBytesPerSync,
     "durable writes, fdatasync latency, disk write bandwidth",
     WalBytesPerSync},
    {"direct-io-when-data-exceeds-memory",
     KnobId::kDirectIoForFlushAndCompaction,
     "data vs memory, read and write shares", DirectIo},
    {"mmap-reads-when-tables-fit-memory", KnobId::kAllowMmapReads,
     "data vs memory, read share", MmapReads},
    {"compaction-readahead-for-device", KnobId::kCompactionReadaheadBytes,
     "rotational device, direct I/O", CompactionReadahead},
    {"bottommost-compression-for-disk", KnobId::kBottommostCompression,
     "value compressibility, snappy speed, disk write bandwidth",
     BottommostCodec},
    {"per-level-compression-for-cpu", KnobId::kCompressionPerLevel,
     "write share, snappy speed against disk write bandwidth", PerLevelCodec},
    {"whole-key-filter-for-gets", KnobId::kWholeKeyFiltering,
     "point reads by whole key", WholeKeyFilter},
    {"prefix-bloom-for-prefix-seeks", KnobId::kBloomPrefixBytes,
     "scans bounded to a prefix", PrefixBloom},
    {"compaction-style-for-write-only", KnobId::kCompactionStyle,
     "write and read shares (space amplification)", CompactionStyleRule},
};

}  // namespace

std::span<const Rule> RocksDbRules() { return kRocksDbRules; }

}  // namespace disktune::tune
