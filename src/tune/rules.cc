#include "src/tune/rules.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "src/core/number_text.h"
#include "src/core/units.h"
#include "src/predict/disk_figures.h"
#include "src/tune/rule_util.h"

namespace disktune::tune {
namespace {

using json = nlohmann::json;

// Open files the process may use for tables: the fd limit less what the
// engine and the service keep for themselves, and the engine's own cap.
uint64_t OpenFilesCap(const RuleInput& in) {
  return std::min<uint64_t>(
      static_cast<uint64_t>(in.engine->max_open_files),
      in.facts.fd_limit > 128 ? in.facts.fd_limit - 64 : 64);
}

// --------------------------------------------------------------- the rules

// LevelDB syncs each table file as it finishes it, so compaction writes
// stall on one fdatasync per table: writes are capped near max_file_size x
// the sustainable fdatasync rate (Bitcoin Core raised 2 MiB to 32 MiB for
// this and measured about 2x on HDDs; 128 MiB made reads 10x slower
// elsewhere). Where a table's sync costs at least half the time the disk
// spends writing it (a third of the table's time lost: a spinning disk, not
// a VM disk; benchmarks/README.md, "Table size from the sync rate"), the
// size whose sync costs a tenth of writing it, 10 x
// fdatasync p50 x write bandwidth, up to 32 MiB, is measured against the
// size the open-file rule chose.
// RocksDB syncs in bytes_per_sync chunks instead (its own rule).
void TableSizeFromSyncRate(const RuleInput& in, CandidateSpace* s,
                           RuleRecord* r) {
  const DeviceFacts& f = in.facts;
  if (in.engine->id != "leveldb" || in.traits.write_share == 0 ||
      !f.fdatasync_p50_ns || !f.seq_write_bytes_per_sec) {
    return;
  }
  const uint64_t file = static_cast<uint64_t>(*s->First(KnobId::kMaxFileBytes));
  const double sync_s = static_cast<double>(*f.fdatasync_p50_ns) / 1e9;
  const double syncs_per_sec = 1 / std::max(sync_s, 1e-6);
  const double cap = static_cast<double>(file) * syncs_per_sec;
  char text[200];
  std::snprintf(text, sizeof(text),
                "; fdatasync p50 %s (%.0f syncs/s): %s tables cap table "
                "writes near %s against the disk's %s",
                Micros(*f.fdatasync_p50_ns).c_str(), syncs_per_sec,
                Bytes(static_cast<double>(file)).c_str(), MBps(cap).c_str(),
                MBps(*f.seq_write_bytes_per_sec).c_str());
  r->fact += text;
  const uint64_t want = std::min<uint64_t>(
      RoundUpPow2(
          static_cast<uint64_t>(10 * sync_s * *f.seq_write_bytes_per_sec)),
      32 * kMiB);
  const double write_s = static_cast<double>(file) / *f.seq_write_bytes_per_sec;
  if (want <= file || sync_s < 0.5 * write_s) {
    r->decision +=
        "; a table's sync costs under half the time the disk takes to "
        "write it, so the sync rate does not cap writes here";
    return;
  }
  s->Set(KnobId::kMaxFileBytes, std::vector<uint64_t>{want, file});
  r->decision += "; measure " + Bytes(static_cast<double>(want)) +
                 " tables against it: each table's fdatasync would cost "
                 "more than a tenth of the time the disk takes to write it "
                 "(LevelDB syncs every table it finishes)";
  r->candidates = {want, file};
}

void TableFileSize(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  const EngineModel& m = *in.engine;
  TuneConfig c = m.defaults;
  uint64_t db = EstimateDbBytes(in.shape, c);
  uint64_t tables = EstimateTableCount(in.shape, c);
  uint64_t cap = OpenFilesCap(in);
  r->fact = "estimated table data " + Bytes(static_cast<double>(db)) + " = " +
            std::to_string(tables) + " tables of " +
            Bytes(static_cast<double>(c.max_file_bytes())) +
            "; open-file limit " + std::to_string(in.facts.fd_limit);
  uint64_t file = c.max_file_bytes();
  if (tables <= cap * 8 / 10) {
    r->decision = "keep the default table size: every table can stay open";
  } else {
    uint64_t want = RoundUpPow2(db / std::max<uint64_t>(cap * 8 / 10, 1) + 1);
    file = std::clamp(want, m.min_file_bytes, m.max_file_bytes);
    r->decision = "raise the table size to " +
                  Bytes(static_cast<double>(file)) + " so the tables fit in " +
                  std::to_string(cap) + " open files";
  }
  s->Set(KnobId::kMaxFileBytes, std::vector<uint64_t>{file});
  r->candidates = {file};
  TableSizeFromSyncRate(in, s, r);
}

void OpenFiles(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  const EngineModel& m = *in.engine;
  TuneConfig c = m.defaults;
  c.Set(KnobId::kMaxFileBytes, s->First(KnobId::kMaxFileBytes));
  uint64_t tables = EstimateTableCount(in.shape, c);
  uint64_t cap = OpenFilesCap(in);
  r->fact = std::to_string(tables) + " tables expected (" +
            Bytes(static_cast<double>(EstimateDbBytes(in.shape, c))) + " / " +
            Bytes(static_cast<double>(c.max_file_bytes())) + "); default " +
            KnobValueText(m.defaults, Knob::Of(KnobId::kMaxOpenFiles)) +
            "; open-file limit " + std::to_string(in.facts.fd_limit);
  std::optional<int> open = m.defaults.max_open_files();
  if (!m.defaults.max_open_files()) {
    if (tables + 100 > in.facts.fd_limit) {
      open = static_cast<int>(cap);
      r->decision = "unlimited would exceed the open-file limit: cap at " +
                    std::to_string(cap) +
                    " (raise ulimit -n instead if you can)";
    } else {
      r->decision = "keep unlimited: every table stays open within the limit";
    }
  } else if (tables + tables / 10 <=
                 static_cast<uint64_t>(*m.defaults.max_open_files()) &&
             static_cast<uint64_t>(*m.defaults.max_open_files()) <= cap) {
    r->decision = "keep the default: it already covers every table";
  } else if (tables + tables / 10 <=
             static_cast<uint64_t>(*m.defaults.max_open_files())) {
    open = static_cast<int>(cap);
    r->decision = "lower to " + std::to_string(cap) +
                  ": the default would run into the open-file limit (the "
                  "engine also needs descriptors for its log and manifest)";
  } else {
    // the engines' tuning guides: below the table count every read may reopen a
    // table (seed 3: read time fell 2-4x with max_open_files=11000 on 10 GB).
    uint64_t want = (tables * 5 / 4 + 64 + 99) / 100 * 100;
    open = static_cast<int>(std::min(want, cap));
    r->decision = "raise to " + std::to_string(*open) +
                  " (>= tables + 25%): below the table count every read can "
                  "reopen a table (2-4x slower reads, measured on LevelDB); "
                  "the service needs "
                  "ulimit -n >= " +
                  std::to_string(*open + 64);
  }
  s->Set(KnobId::kMaxOpenFiles, std::vector<KnobValue>{open.value_or(-1)});
  r->candidates = {open ? json(*open) : json(-1)};
}

void Bloom(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  const WorkloadTraits& t = in.traits;
  std::string latency =
      in.facts.rand_read_4k_p50_ns
          ? "4 KiB random read p50 " + Micros(*in.facts.rand_read_4k_p50_ns)
          : "random read latency not measured";
  r->fact = "point reads " + Percent(t.point_read_share) + " of scored ops; " +
            latency + "; reads " +
            (ReadsHitDevice(in) ? "reach the device at full size"
                                : "fit in memory at full size");
  if (t.point_read_share < 0.05) {
    s->Set(KnobId::kBloomBitsPerKey, {0});
    r->decision =
        "none: without point reads a filter only costs memory (bits/8 per "
        "key) and CPU while writing";
  } else if (ReadsHitDevice(in) && in.facts.rand_read_4k_p50_ns &&
             *in.facts.rand_read_4k_p50_ns >= 50000) {
    s->Set(KnobId::kBloomBitsPerKey, {10, 0});
    r->decision =
        "10 bits/key first: each read of a table a key is not in costs a "
        "device read, and 10 bits give ~1% false positives; none is "
        "measured too";
  } else {
    s->Set(KnobId::kBloomBitsPerKey, {10, 0});
    r->decision =
        "measure 10 bits/key (~1% false positives) against none: from "
        "memory a filter saves block lookups, not device reads";
  }
  if (t.sequential_writes_only && t.point_read_share > 0) {
    r->decision +=
        "; keys are loaded in order, so tables do not overlap and filters "
        "may give nothing (seed 3)";
  }
  for (KnobValue b : s->Values(KnobId::kBloomBitsPerKey)) {
    r->candidates.push_back(b);
  }
}

void WriteBuffer(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  const EngineModel& m = *in.engine;
  const uint64_t b = in.budget_bytes;
  // The default as the budget holds it: RocksDB's 2 x 64 MiB shrink under a
  // small budget, and a candidate of the unshrunk size would not fit.
  const uint64_t d = BaselineWriteBufferBytes(in);
  // Shares of the budget per buffer (the engine holds write_buffers of
  // them): 1/16, 1/8, 1/4 (RocksDB's OptimizeLevelStyleCompaction, the engines'
  // tuning guides) and 7/16 (close to the seed's 120 MB of 128 MB).
  const uint64_t s16 = b / 16, s8 = b / 8, s4 = b / 4, s7 = b * 7 / 16;
  const double w = in.traits.write_share;
  // A fast device makes flushes cheap I/O; what a larger memtable then
  // changes is how much level 0 absorbs while the deeper levels compact,
  // against the CPU of every insert (a deeper skip list) and ever larger
  // level-0 merges. On this project's 2-CPU test VM (1 MiB writes at 2.3
  // GB/s in its quick probe), over the 4M-key fillrandom + overwrite grid
  // at 128 MiB (benchmarks/README.md, Tuner quality), the mean of the eight
  // points per buffer size was 4 MiB 276k ops/s, 8 MiB 346k, 16 MiB 386k,
  // 32 MiB 284k, 56 MiB 258k: an eighth of the budget first, never below
  // the default.
  const bool fast_device = in.facts.seq_write_bytes_per_sec &&
                           *in.facts.seq_write_bytes_per_sec >= 500e6;
  std::vector<uint64_t> v;
  if (w >= 0.5 && fast_device) {
    v = {std::max(s8, d), s16, d};
    r->decision =
        "an eighth of the budget first: the disk absorbs flushes cheaply, "
        "so beyond that a larger memtable mostly adds CPU per insert and "
        "larger level-0 merges; the 2011 gain at 120 MB came from "
        "saving disk I/O";
  } else if (w >= 0.5) {
    v = {s7, s4, s8};
    r->decision =
        "large buffers first: fewer, larger level-0 files and less merging "
        "(LevelDB's 2011 benchmark: 2.16x random writes at 120 MB)";
  } else if (w == 0) {
    v = {d, s16};
    r->decision =
        "small buffers: no scored writes, so the memory goes to the block "
        "cache";
  } else {
    v = {s8, s16, d, s4};
    r->decision =
        "measure large and small buffers: writes and reads compete "
        "for the budget";
  }
  // A buffer above the whole data set holds everything in memory already.
  uint64_t all = RoundUpPow2(in.shape.user_bytes() + in.shape.user_bytes() / 4);
  std::vector<uint64_t> out;
  for (uint64_t x : v) {
    x = std::clamp(std::min(x, std::max(all, m.min_write_buffer_bytes)),
                   m.min_write_buffer_bytes, m.max_write_buffer_bytes);
    // Round to a MiB so the profile holds values an operator recognises.
    if (x >= 4 * kMiB) x = x / kMiB * kMiB;
    if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
  }
  s->Set(KnobId::kWriteBufferBytes, out);
  r->fact = "scored writes " + Percent(w) + "; budget " +
            Bytes(static_cast<double>(b)) + " for " +
            std::to_string(m.write_buffers) + " write buffers + cache; " +
            (in.facts.seq_write_bytes_per_sec
                 ? "disk writes " + MBps(*in.facts.seq_write_bytes_per_sec)
                 : std::string("write bandwidth not measured"));
  for (uint64_t x : out) r->candidates.push_back(x);
}

void Cache(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  const WorkloadTraits& t = in.traits;
  double reads = t.point_read_share + t.scan_share;
  // The block cache holds uncompressed blocks: hot keys x (key + value +
  // ~20 bytes of block and cache overhead).
  double ws =
      static_cast<double>(in.shape.live_entries) * t.hot_fraction *
      static_cast<double>(in.shape.key_bytes + in.shape.value_bytes + 20);
  r->fact = "working set " + Bytes(ws) + " (" + Percent(t.hot_fraction) +
            " of " + std::to_string(in.shape.live_entries) +
            " keys); scored reads " + Percent(reads);
  if (reads == 0) {
    s->cache_cap_bytes = in.engine->defaults.cache_bytes();
    r->decision =
        "no scored reads: the cache only serves the engine's metadata; keep "
        "the default " +
        Bytes(static_cast<double>(in.engine->defaults.cache_bytes())) +
        " and leave the rest of the budget unused";
  } else if (ws * 1.25 < static_cast<double>(in.budget_bytes)) {
    s->cache_cap_bytes =
        RoundUpPow2(static_cast<uint64_t>(ws * 1.25) / kMiB + 1) * kMiB;
    r->decision = "the working set fits: cache at most " +
                  Bytes(static_cast<double>(*s->cache_cap_bytes)) +
                  " (above it a cache buys nothing)";
  } else {
    r->decision =
        "the working set exceeds the budget: the cache takes everything the "
        "write buffers and index/filter blocks leave (a larger cache "
        "helps random reads near the working set)";
  }
  r->candidates = {s->cache_cap_bytes ? json(*s->cache_cap_bytes)
                                      : json("the rest of the budget")};
}

void CompressionRule(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  const EngineModel& m = *in.engine;
  const DeviceFacts& f = in.facts;
  double ratio = in.shape.compression_ratio;
  auto has = [&](Compression c) {
    return std::find(m.compressions.begin(), m.compressions.end(), c) !=
           m.compressions.end();
  };
  std::string cpu = f.snappy_bytes_per_sec
                        ? "snappy " + MBps(*f.snappy_bytes_per_sec) + "/core"
                        : "snappy speed not measured";
  std::string disk = f.seq_write_bytes_per_sec
                         ? "disk writes " + MBps(*f.seq_write_bytes_per_sec)
                         : "write bandwidth not measured";
  char ratio_text[32];
  std::snprintf(ratio_text, sizeof(ratio_text), "%.2f", ratio);
  r->fact = std::string("values compress to ") + ratio_text + "; " + cpu +
            "; " + disk;
  std::vector<Compression> v;
  if (ratio >= 0.9) {
    v = {Compression::kNone};
    r->decision =
        "none: the values do not compress, so compressing only "
        "costs CPU";
  } else if (f.snappy_bytes_per_sec && f.seq_write_bytes_per_sec &&
             *f.seq_write_bytes_per_sec >= *f.snappy_bytes_per_sec) {
    v = {Compression::kNone, Compression::kSnappy, Compression::kLz4};
    r->decision =
        "the CPU, not the disk, limits writes: measure without compression "
        "first (compression trades CPU for bytes written)";
  } else if (f.snappy_bytes_per_sec && f.seq_write_bytes_per_sec &&
             *f.seq_write_bytes_per_sec * 4 < *f.snappy_bytes_per_sec) {
    v = {Compression::kSnappy, Compression::kLz4, Compression::kZstd};
    r->decision =
        "the disk limits writes: keep compressing (2011 disks wrote "
        "0.76-0.82x as fast without)";
  } else {
    v = {Compression::kSnappy, Compression::kNone, Compression::kLz4};
    r->decision = "CPU and disk are close: measure snappy against none";
  }
  std::vector<Compression> codecs;
  for (Compression c : v) {
    if (has(c)) {
      codecs.push_back(c);
      r->candidates.push_back(CompressionName(c));
    }
  }
  if (codecs.empty()) {
    codecs = {m.defaults.compression()};
    r->candidates = {CompressionName(m.defaults.compression())};
  }
  s->Set(KnobId::kCompression, codecs);
}

void BlockSize(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  const WorkloadTraits& t = in.traits;
  const uint64_t d = in.engine->defaults.block_size_bytes();
  std::vector<uint64_t> blocks;
  r->fact = "point reads " + Percent(t.point_read_share) + ", scans " +
            Percent(t.scan_share) + " of scored ops; device " +
            (!in.facts.rotational   ? "type unknown"
             : *in.facts.rotational ? "rotational"
                                    : "solid state");
  if (t.point_read_share + t.scan_share == 0) {
    // Without reads a block's size changes only what compactions pay per
    // block (an index entry, a checksum, a compression call), and larger
    // blocks save some of it only once the LSM is as deep as the full
    // size's (benchmarks/README.md, Tuner design records: Block size
    // without reads).
    // Copies a write-heavy budget affords cannot judge it, and a full-size
    // leave-one-out (three pairs: six runs whose timed steps alone take
    // 15-16 s each on that VM) does not fit in 0.2 of the grid's time, so it
    // is not ranked.
    blocks = {d};
    r->decision =
        "keep the default: without reads, block size changes only "
        "compaction's cost per block, and larger blocks save some of it "
        "only once the LSM is as deep as at full size, which a tune's "
        "smaller copies do not show (to try 16KiB: disktune bench "
        "--profile PROFILE --block-size 16KiB against the profile alone, "
        "at full size)";
  } else if (in.facts.rotational.value_or(false) && ReadsHitDevice(in)) {
    // RocksDB's wiki for spinning disks: blocks of 64 KiB or more, since a
    // seek costs as much as reading tens of KiB.
    blocks = {64 * kKiB, 16 * kKiB, d};
    r->decision =
        "larger blocks first: on a spinning disk a seek costs as much as "
        "reading tens of KiB, so a read that fetches one 64 KiB block "
        "costs little more than a 4 KiB one and the index shrinks 16x "
        "(RocksDB's wiki: block_size >= 64 KiB on spinning disks)";
  } else if (t.scan_share >= 0.5) {
    blocks = {16 * kKiB, 64 * kKiB, d};
    r->decision =
        "larger blocks first: scans read whole blocks, so fewer, larger "
        "blocks mean fewer fetches and a smaller index";
  } else if (ReadsHitDevice(in)) {
    blocks = {d, 16 * kKiB};
    r->decision =
        "small blocks first: each point read from the device fetches one "
        "block, and 4 KiB matches the device's read unit";
  } else {
    blocks = {d, 16 * kKiB};
    r->decision =
        "measure 4 KiB against 16 KiB (smaller index, more bytes "
        "per lookup)";
  }
  s->Set(KnobId::kBlockSizeBytes, blocks);
  for (uint64_t b : blocks) r->candidates.push_back(b);
}

void GroupCommit(const RuleInput& in, CandidateSpace* s, RuleRecord* r) {
  const Workload& w = in.workload;
  const DeviceFacts& f = in.facts;
  s->entries_per_batch = w.entries_per_batch;
  std::string sync = f.fdatasync_p50_ns
                         ? "fdatasync p50 " + Micros(*f.fdatasync_p50_ns) +
                               " (" + f.fdatasync_point + ")"
                         : "fdatasync not measured";
  char target[64] = "no target rate";
  if (w.target_writes_per_sec) {
    std::snprintf(target, sizeof(target), "target %.0f writes/s",
                  *w.target_writes_per_sec);
  }
  r->fact =
      std::string(w.durable_writes ? "durable writes" : "unsynced writes") +
      "; " + sync + "; " + target + "; " + std::to_string(w.threads) +
      " writer thread(s)";
  if (!w.durable_writes) {
    r->decision = "unchanged: writes are not synced, so each commit is cheap";
  } else if (!w.target_writes_per_sec || !f.fdatasync_p50_ns) {
    r->decision =
        "unchanged: needs a target rate (workload."
        "target_writes_per_sec) and a measured fdatasync";
  } else {
    // One writer commits at most 1 / fsync-latency times a second; LevelDB
    // and RocksDB fold concurrent writers into one synced group.
    double sync_s = static_cast<double>(*f.fdatasync_p50_ns) / 1e9;
    double commits_per_sec = static_cast<double>(w.threads) / sync_s;
    double need = *w.target_writes_per_sec * 1.25;  // 25% headroom
    uint64_t batch = static_cast<uint64_t>(std::ceil(need / commits_per_sec));
    if (batch <= w.entries_per_batch) {
      char buf[160];
      std::snprintf(buf, sizeof(buf),
                    "unchanged: %.0f synced commits/s already exceed the "
                    "target with %llu entries each",
                    commits_per_sec,
                    static_cast<unsigned long long>(w.entries_per_batch));
      r->decision = buf;
    } else {
      s->entries_per_batch = std::min<uint64_t>(batch, 1000000);
      char buf[200];
      std::snprintf(buf, sizeof(buf),
                    "group commit: fsync caps a writer at %.0f commits/s, "
                    "below the target; batches of %llu entries keep it with "
                    "25%% headroom",
                    commits_per_sec,
                    static_cast<unsigned long long>(s->entries_per_batch));
      r->decision = buf;
    }
  }
  r->candidates = {s->entries_per_batch};
}

constexpr Rule kRules[] = {
    {"table-file-size", KnobId::kMaxFileBytes,
     "estimated table data and the open-file limit", TableFileSize},
    {"open-files-vs-tables", KnobId::kMaxOpenFiles,
     "estimated table count (below it reads reopen tables)", OpenFiles},
    {"bloom-for-point-reads", KnobId::kBloomBitsPerKey,
     "point-read share, 4 KiB random read latency, data vs memory", Bloom},
    {"write-buffer-for-writes", KnobId::kWriteBufferBytes,
     "write share, the memory budget and the disk's write bandwidth",
     WriteBuffer},
    {"cache-vs-working-set", KnobId::kCacheBytes,
     "working set of the reads against the budget", Cache},
    {"compression-cpu-vs-disk", KnobId::kCompression,
     "value compressibility, snappy speed per core, disk write bandwidth",
     CompressionRule},
    {"block-size-for-access", KnobId::kBlockSizeBytes,
     "point-read and scan shares, whether reads reach the device", BlockSize},
    {"group-commit-for-durable-writes", std::nullopt,
     "fdatasync latency and the target write rate", GroupCommit},
};

// The knobs the rules left values for, in the order candidates vary (the
// first slowest): the table's order for the knobs both engines have, then
// RocksDB's own in the order their rules decided them. Ties in rank keep
// this order.
std::vector<const KnobCandidates*> VaryingOrder(const CandidateSpace& space) {
  std::vector<const KnobCandidates*> order;
  for (const KnobCandidates& kc : space.knobs) order.push_back(&kc);
  auto key = [](const KnobCandidates* kc) {
    return IsRocksDbOnly(*kc->spec) ? Knobs().size()
                                    : static_cast<size_t>(kc->spec->id);
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](const KnobCandidates* x, const KnobCandidates* y) {
                     return key(x) < key(y);
                   });
  return order;
}

// Calls f(config, rank) for every combination of the space's values on top
// of `base`, rank being the sum of each value's place in its list.
template <typename F>
void ForEachCombination(const CandidateSpace& space, const TuneConfig& base,
                        F&& f) {
  const std::vector<const KnobCandidates*> order = VaryingOrder(space);
  for (const KnobCandidates* kc : order) {
    if (kc->values.empty()) return;
  }
  std::vector<size_t> at(order.size(), 0);
  while (true) {
    TuneConfig c = base;
    size_t rank = 0;
    for (size_t i = 0; i < order.size(); i++) {
      c.Set(order[i]->spec->id, order[i]->values[at[i]]);
      rank += at[i];
    }
    f(c, rank);
    size_t i = order.size();
    while (i > 0 && ++at[i - 1] == order[i - 1]->values.size()) at[--i] = 0;
    if (i == 0) return;
  }
}

// The cache `c` gets under the budget; *fits is false when the write
// buffers and index/filter blocks alone exceed it.
uint64_t CacheFor(const RuleInput& in, const CandidateSpace& space,
                  const TuneConfig& c, bool* fits) {
  auto split = SplitBudget(*in.engine, in.budget_bytes, in.shape, c,
                           space.cache_cap_bytes);
  *fits = split.ok();
  return split.ok() ? split->cache_bytes : 0;
}

}  // namespace

const std::vector<KnobValue>& CandidateSpace::Values(KnobId id) const {
  static const std::vector<KnobValue> kNone;
  for (const KnobCandidates& kc : knobs) {
    if (kc.spec->id == id) return kc.values;
  }
  return kNone;
}

std::optional<KnobValue> CandidateSpace::First(KnobId id) const {
  const std::vector<KnobValue>& v = Values(id);
  if (v.empty()) return std::nullopt;
  return v.front();
}

void CandidateSpace::Set(KnobId id, std::vector<KnobValue> values) {
  for (KnobCandidates& kc : knobs) {
    if (kc.spec->id == id) {
      kc.values = std::move(values);
      return;
    }
  }
  knobs.push_back({&KnobRow(id), std::move(values)});
}

std::span<const Rule> Rules() { return kRules; }

namespace {

// The facts held to a device class's limits, as the predictor's figures
// are (predict::CapToThrottle: a short probe bursts past the throttle's
// time slices); `source` says which were lowered. The class's read-interval
// floor is a floor on the mean QD1 read the model reads (benchmarks/README.md,
// "Class limits in the model's inputs"). The facts carry no mean read: the
// model (predictor_model.cc), the internal estimate (rank.cc) and the bloom
// rule all read rand_read_4k_p50_ns as the QD1 read's time, so that is the
// figure floored. No rule reads rand_read_4k_p99_ns; it stays as measured.
void HoldToClassLimits(const ThrottleLimits& limits, DeviceFacts* f) {
  predict::DiskFigures d;
  d.seq_write_Bps = f->seq_write_bytes_per_sec.value_or(0);
  d.seq_read_Bps = f->seq_read_bytes_per_sec.value_or(0);
  d.read_iops = f->rand_read_iops.value_or(0);
  d.read_ns = static_cast<double>(f->rand_read_4k_p50_ns.value_or(0));
  predict::CapToThrottle(limits, &d);
  // A figure not measured stays unmeasured (CapToThrottle leaves a 0 as is).
  if (f->seq_write_bytes_per_sec) f->seq_write_bytes_per_sec = d.seq_write_Bps;
  if (f->seq_read_bytes_per_sec) f->seq_read_bytes_per_sec = d.seq_read_Bps;
  if (f->rand_read_iops) f->rand_read_iops = d.read_iops;
  if (f->rand_read_4k_p50_ns) {
    // Rounded up: a floor held in whole nanoseconds.
    f->rand_read_4k_p50_ns = static_cast<uint64_t>(std::ceil(d.read_ns));
  }
  std::string said;
  for (const predict::DiskFigures::Capped& c : d.capped) {
    said += std::string(said.empty() ? "" : ", ") + c.figure + " " +
            Thousands(c.measured) + " -> " + Thousands(c.limit);
  }
  if (!said.empty()) f->source += "; held to the class's limits: " + said;
}

}  // namespace

DeviceFacts FactsFromProbes(const std::vector<ProbeResult>& probes,
                            const Environment& env, std::string source) {
  DeviceFacts f;
  f.source = std::move(source);
  f.memory_bytes = env.system.memory_bytes;
  f.cpu_count = std::max(1, env.system.cpu_count);
  if (env.device) {
    f.rotational = env.device->rotational;
    f.max_sectors_kb = env.device->max_sectors_kb;
  }
  const ProbeResult* sync = nullptr;
  int sync_rank = 1000;
  for (const ProbeResult& p : probes) {
    if (p.status != ProbeStatus::kOk) continue;
    const ProbeParams& q = p.params;
    bool qd1 = q.queue_depth == 1;
    if (p.probe == "rand_read" && q.block_size_bytes == uint64_t{4096} &&
        p.iops && (!f.rand_read_iops || *p.iops > *f.rand_read_iops)) {
      f.rand_read_iops = p.iops;
    }
    if (p.probe == "seq_read" && q.block_size_bytes == uint64_t{1} << 20 &&
        p.bytes_per_sec &&
        (!f.seq_read_bytes_per_sec ||
         *p.bytes_per_sec > *f.seq_read_bytes_per_sec)) {
      f.seq_read_bytes_per_sec = p.bytes_per_sec;
    }
    if (p.probe == "rand_read" && q.block_size_bytes == uint64_t{4096} && qd1 &&
        p.latency_ns) {
      f.rand_read_4k_p50_ns = p.latency_ns->p50;
      f.rand_read_4k_p99_ns = p.latency_ns->p99;
    } else if (p.probe == "seq_write" &&
               q.block_size_bytes == uint64_t{1} << 20 && qd1 &&
               p.bytes_per_sec) {
      f.seq_write_bytes_per_sec = p.bytes_per_sec;
    } else if (p.probe == "fsync" && p.latency_ns && q.method == "fdatasync" &&
               q.variant.empty() && q.filesystem.empty() &&
               q.write_cache == CacheState::kAsFound) {
      // A log append of one small record is what a synced commit does:
      // prefer 4 KiB appends, then other appends, then overwrites.
      bool append = q.pattern == "append";
      int rank = append && q.block_size_bytes == uint64_t{4096} ? 0
                 : append                                       ? 1
                                                                : 2;
      if (rank < sync_rank) {
        sync = &p;
        sync_rank = rank;
      }
    }
  }
  if (sync != nullptr) {
    f.fdatasync_point = sync->name;
    f.fdatasync_p50_ns = sync->latency_ns->p50;
    f.fdatasync_p99_ns = sync->latency_ns->p99;
  }
  if (env.throttle) HoldToClassLimits(env.throttle->spec.limits, &f);
  if (auto d = predict::DiskFiguresFromRun(probes, env); d.ok()) {
    f.model_figures = std::move(*d);
  }
  return f;
}

json FactsToJson(const DeviceFacts& f) {
  json j;
  j["source"] = f.source;
  if (f.rand_read_4k_p50_ns) j["rand_read_4k_p50_ns"] = *f.rand_read_4k_p50_ns;
  if (f.rand_read_4k_p99_ns) j["rand_read_4k_p99_ns"] = *f.rand_read_4k_p99_ns;
  if (f.seq_write_bytes_per_sec) {
    j["seq_write_bytes_per_sec"] = *f.seq_write_bytes_per_sec;
  }
  if (!f.fdatasync_point.empty()) j["fdatasync_point"] = f.fdatasync_point;
  if (f.fdatasync_p50_ns) j["fdatasync_p50_ns"] = *f.fdatasync_p50_ns;
  if (f.fdatasync_p99_ns) j["fdatasync_p99_ns"] = *f.fdatasync_p99_ns;
  if (f.rotational) j["rotational"] = *f.rotational;
  if (f.rand_read_iops) j["rand_read_iops"] = *f.rand_read_iops;
  if (f.seq_read_bytes_per_sec) {
    j["seq_read_bytes_per_sec"] = *f.seq_read_bytes_per_sec;
  }
  if (f.max_sectors_kb) j["max_sectors_kb"] = *f.max_sectors_kb;
  if (!f.throttle.empty()) j["throttle"] = f.throttle;
  j["memory_bytes"] = f.memory_bytes;
  j["cpu_count"] = f.cpu_count;
  if (f.snappy_bytes_per_sec) {
    j["snappy_bytes_per_sec"] = *f.snappy_bytes_per_sec;
  }
  j["fd_limit"] = f.fd_limit;
  return j;
}

CandidateSpace ApplyRules(const RuleInput& in) {
  CandidateSpace space;
  auto run = [&](std::span<const Rule> rules) {
    for (const Rule& rule : rules) {
      RuleRecord rec;
      rec.rule = std::string(rule.name);
      rec.knob =
          std::string(rule.knob ? KnobRow(*rule.knob).json_key : Knob{}.name());
      rule.apply(in, &space, &rec);
      space.records.push_back(std::move(rec));
    }
  };
  run(kRules);
  if (in.engine->id == "rocksdb") run(RocksDbRules());
  return space;
}

uint64_t BaselineWriteBufferBytes(const RuleInput& in) {
  const EngineModel& m = *in.engine;
  TuneConfig c = m.defaults;
  if (SplitBudget(m, in.budget_bytes, in.shape, c, std::nullopt).ok()) {
    return c.write_buffer_bytes();
  }
  // The default write buffers alone overrun the budget (RocksDB's 2 x 64
  // MiB under 64 MiB): the budget is a hard limit, so the baseline's
  // buffers shrink to a quarter of it in all, whole MiB where they can.
  // When not even that fits, the index blocks are what overruns: the
  // baseline keeps the defaults and the tuner refuses the budget.
  const int held = WriteBuffersHeld(m, c);
  uint64_t x = in.budget_bytes / 4 / static_cast<uint64_t>(held);
  if (x >= 4 * kMiB) x = x / kMiB * kMiB;
  c.Set(KnobId::kWriteBufferBytes, std::clamp(x, m.min_write_buffer_bytes,
                                              m.defaults.write_buffer_bytes()));
  return SplitBudget(m, in.budget_bytes, in.shape, c, std::nullopt).ok()
             ? c.write_buffer_bytes()
             : m.defaults.write_buffer_bytes();
}

TuneConfig BaselineConfig(const RuleInput& in, std::string* definition) {
  const EngineModel& m = *in.engine;
  TuneConfig c = m.defaults;
  c.sync = in.workload.durable_writes;
  c.entries_per_batch = in.workload.entries_per_batch;
  c.Set(KnobId::kWriteBufferBytes, BaselineWriteBufferBytes(in));
  auto split = SplitBudget(m, in.budget_bytes, in.shape, c, std::nullopt);
  std::string what = std::string(m.id) + " " + std::string(m.version) +
                     " defaults for every knob";
  if (c.write_buffer_bytes() != m.defaults.write_buffer_bytes()) {
    what += ", except the write buffer, shrunk to " +
            Bytes(static_cast<double>(c.write_buffer_bytes())) +
            " (the default " + std::to_string(WriteBuffersHeld(m, c)) + " x " +
            Bytes(static_cast<double>(m.defaults.write_buffer_bytes())) +
            " would not fit the " +
            Bytes(static_cast<double>(in.budget_bytes)) + " budget)";
  }
  if (split.ok()) {
    c.Set(KnobId::kCacheBytes, split->cache_bytes);
    what +=
        ", except the block cache, which gets what the " +
        Bytes(static_cast<double>(in.budget_bytes)) +
        " budget leaves after the write buffers (" +
        std::to_string(WriteBuffersHeld(m, c)) + " x " +
        Bytes(static_cast<double>(c.write_buffer_bytes())) +
        ") and index blocks: " + Bytes(static_cast<double>(c.cache_bytes()));
  } else {
    what += " and no room for a block cache: " + split.status().message();
  }
  if (c.sync) what += "; every write synced, as the workload requires";
  if (c.entries_per_batch > 1) {
    what += "; the workload's own batches of " +
            std::to_string(c.entries_per_batch);
  }
  if (definition != nullptr) *definition = what;
  return c;
}

TuneConfig WithBudgetCache(const RuleInput& in, const CandidateSpace& space,
                           TuneConfig c) {
  bool fits = false;
  uint64_t cache = CacheFor(in, space, c, &fits);
  if (fits) c.Set(KnobId::kCacheBytes, cache);
  return c;
}

std::vector<TuneConfig> EnumerateCandidates(const RuleInput& in,
                                            const TuneConfig& baseline,
                                            CandidateSpace* space) {
  struct Ranked {
    size_t rank;
    TuneConfig c;
  };
  std::vector<Ranked> out;
  size_t dropped = 0;
  TuneConfig base = baseline;
  base.entries_per_batch = space->entries_per_batch;
  ForEachCombination(*space, base, [&](TuneConfig u, size_t rank) {
    bool fits = false;
    u.Set(KnobId::kCacheBytes, CacheFor(in, *space, u, &fits));
    if (!fits) {
      dropped++;
      return;
    }
    if (u == baseline) return;
    bool dup = std::any_of(out.begin(), out.end(),
                           [&](const Ranked& r) { return r.c == u; });
    if (!dup) out.push_back({rank, u});
  });
  std::stable_sort(
      out.begin(), out.end(),
      [](const Ranked& x, const Ranked& y) { return x.rank < y.rank; });
  std::vector<TuneConfig> configs = {baseline};
  for (const Ranked& r : out) configs.push_back(r.c);

  RuleRecord rec;
  rec.rule = "memory-budget";
  rec.knob = std::string(KnobRow(KnobId::kCacheBytes).json_key);
  rec.fact = "budget " + Bytes(static_cast<double>(in.budget_bytes)) + " = " +
             (space->Values(KnobId::kMaxWriteBufferNumber).empty()
                  ? std::to_string(in.engine->write_buffers)
                  : std::string("max_write_buffer_number")) +
             " x write buffer + index/filter blocks of open tables + block "
             "cache";
  rec.decision = "the cache takes the rest; " + std::to_string(configs.size()) +
                 " candidates including the baseline";
  if (dropped > 0) {
    rec.decision += "; " + std::to_string(dropped) +
                    " combinations dropped for exceeding the budget";
  }
  space->records.push_back(std::move(rec));
  return configs;
}

json RuleRecordToJson(const RuleRecord& r) {
  json j;
  j["rule"] = r.rule;
  if (!r.knob.empty()) j["knob"] = r.knob;
  j["fact"] = r.fact;
  j["decision"] = r.decision;
  if (!r.candidates.empty()) j["candidates"] = r.candidates;
  return j;
}

}  // namespace disktune::tune
