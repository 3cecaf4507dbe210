// The throughput model: what an LSM engine's db_bench scenario will do on a
// disk, and which resource bounds it, from the disk's probe figures and a few
// facts about the engine. Pure arithmetic: no I/O, no clock.
//
// Every scenario has ceilings, each the ops/s one resource alone allows:
//
//   cpu              C  = 1e9 / cpu_ns          cpu_ns: the same scenario run
//                                                in memory (/dev/shm) on this
//                                                CPU (calibrate.h)
//   write_bandwidth  Cw = S(write_Bps, write_iops, s_w) / W
//                                                W = E_table x WA_t: the table
//                                                bytes per op (an unsynced
//                                                fill's WAL is deleted with
//                                                its memtable, seconds after
//                                                it was written, before the
//                                                kernel writes it back: 30 s,
//                                                dirty_expire_centisecs)
//   sync_latency     Cs = 1e9 / sync_ns          fillsync: one append +
//                                                fdatasync per op; async
//                                                fills: LevelDB syncs each
//                                                table file it finishes, so
//                                                Cs = 1e9 / t_s with
//                                                t_s = E_table x WA_t x
//                                                sync_file_ns / file_bytes
//   read_iops        Cr = 1e9 / (m x miss_ns)    m device reads per op
//   read_bandwidth   Cb = S(seq_read_Bps, read_iops, s_r) / (m_b x E_table)
//
// S(B, iops, s) = min(B, iops x s) is what a stream of requests of s bytes
// gets from a device that charges each request as one of `iops` per second
// (a device class's limits, DiskFigures below; without an IOPS limit, B).
// Writeback sends a table file of F bytes as floor(F / r) + 1 requests of at
// most r bytes (the device's largest buffered request; a table ends just
// past its target size), so s_w = F / (floor(F / r) + 1). A cold scan reads
// ahead in requests of s_r = min(r, the engine's scan readahead): LevelDB's
// mapped tables get the kernel's readahead window, RocksDB's iterator its
// own readahead (at most 256 KiB by default).
//
// E_user = key + value bytes; E_table = key + value x compression ratio.
// WA_t (table writes per user byte, in table bytes): measured when known,
// as the bytes the engine passed to write calls per user byte (WAL
// included) in the in-memory calibration run of the same step, so
// WA_t = (that x E_user - E_user) / E_table; otherwise from the
// LSM shape: levels L = ceil(log_T(D / level1_bytes)) + 1 for
// D = distinct entries x E_table above one write buffer (else 0), and
// WA_t = 1 (flush) + L x (T + 1) / 2 (each level rewrites about half its
// fanout per byte moved into it), with T = 10 (both engines' default
// multiplier). fillseq writes tables once (sorted input is moved, not
// merged): WA_t = 1.
//
// Reads: a lookup touches one block in each of L levels (no bloom filter by
// default); the page cache holds min(memory, D) of the D bytes. Warm: m =
// k x (1 - min(1, memory / D)). Cold (cache dropped, database reopened): of
// R uniform lookups over B = D / u read units, B x (1 - e^(-R k / B)) touch
// a unit for the first time, so m = that / R (plus the warm miss share above
// memory). The unit u is what one miss brings into memory: LevelDB maps its
// table files, so a miss faults in the kernel's read-around window, the
// device's read_ahead_kb (128 KiB when not known), no more than the table
// file. RocksDB preads one block (advise_random_on_open turns the kernel's
// readahead off) of c = block_bytes x E_table / E_user bytes on disk, at any
// alignment to the 4 KiB pages the cache holds: a miss brings in the pages
// the block spans, some already brought in by a neighbour's miss, so
// u = max(4 KiB + c / 2, c) (model_test checks the first touches over
// B = D / u against a simulation of such lookups). A miss takes
// miss_ns = read_ns + (u - 4 KiB) /
// S(seq_read_Bps, read_iops, r): the first 4 KiB at the QD1 read's latency,
// the rest streamed. Data that never left the write buffer
// (L = 0) is recovered into memory by the reopen (RocksDB replays its WAL
// into the memtable; LevelDB writes it out as a table the page cache keeps):
// cold reads of it miss as warm ones do.
//
// sync_file_ns, the time to sync a table file just written: the probe's
// append of table_sync_bytes (2 MiB, LevelDB's table) + fdatasync, scaled
// to the file's size, and never below a small append's sync_ns:
// max(sync_ns, table_sync_ns x file_bytes / table_sync_bytes); without that
// point, sync_ns + file_bytes / write_Bps (write back the file, then flush).
//
// Composition. Where the resources work one after the other for one thread
// (a synchronous Get that waits for its read, a put that waits for its
// fdatasync), times add: ops/s = 1e9 / (cpu_ns + device_ns_per_op), and the
// bound is the larger term. Where they overlap (writeback, and LevelDB's
// table syncs, in the compaction thread while the writers go on; readahead
// ahead of an iterator), the prediction is the lowest ceiling and the bound
// its resource (benchmarks/README.md, "Table syncs overlap the writers").
// write_stall is never predicted from probes alone; the report names it as the
// cause of a miss when the engine's counters show stalls (explain.h).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace disktune::predict {

enum class Bound {
  kCpu,
  kReadIops,
  kReadBandwidth,
  kWriteBandwidth,
  kSyncLatency,
  kWriteStall,
};
// "cpu", "read_iops", "read_bandwidth", "write_bandwidth", "sync_latency",
// "write_stall".
const char* BoundName(Bound b);

// The probe figures the model reads (disk_figures.h fills them from a probe
// result and names the points in `source`).
struct DiskFigures {
  double sync_ns = 0;        // mean of one small append + fdatasync
  double read_ns = 0;        // mean 4 KiB random read at queue depth 1
  double read_iops = 0;      // best 4 KiB random-read IOPS over queue depths
  double seq_read_Bps = 0;   // 1 MiB sequential reads, bytes/s
  double seq_write_Bps = 0;  // 1 MiB sequential writes, bytes/s
  // Mean of one append of table_sync_bytes + fdatasync (0: not measured).
  double table_sync_ns = 0;
  double table_sync_bytes = 0;
  // What each request costs, where known (0: not known, no limit): a device
  // class's IOPS limits, the largest request buffered I/O sends the device
  // (r above) and its readahead window.
  double read_iops_limit = 0;
  double write_iops_limit = 0;
  double request_bytes = 0;
  double read_ahead_bytes = 0;
  // Probe point name per figure: "sync_ns" -> "fsync.fdatasync.512.append".
  std::vector<std::pair<std::string, std::string>> source;
  // Figures a device class's limits held below what its probe measured
  // (disk_figures.h, CapToThrottle), by their JSON names.
  struct Capped {
    std::string figure;  // "seq_write_bytes_per_sec"
    double measured = 0;
    double limit = 0;
  };
  std::vector<Capped> capped;
};

// The scenarios the model knows; others have no model.
enum class Kind {
  kFillSeq,
  kFillRandom,
  kOverwrite,
  kFillSync,
  kReadRandom,      // warm page cache
  kReadRandomCold,  // page cache dropped before the reads
  kReadSeq,         // warm page cache
  kReadSeqCold,
};
std::optional<Kind> KindOf(const std::string& scenario);

// The LSM shape facts of one engine's configuration (engine defaults from the
// engine's own options; see engine_facts.h for each value's origin).
struct LsmShape {
  uint64_t write_buffer_bytes = 0;
  uint64_t table_file_bytes = 0;
  uint64_t level1_bytes = 0;
  double fanout = 10;
  uint64_t block_bytes = 4096;
  // The tables are mapped: a cold miss faults in the device's readahead
  // window, capped at the table file. Otherwise a miss preads one block of
  // block_bytes before compression (c and u above).
  bool mapped_tables = false;
  // The largest read a cold scan issues (s_r above); 0: the device's
  // readahead window.
  uint64_t scan_read_bytes = 0;
  // LevelDB fdatasyncs each finished table file in the writing path of its
  // compaction; RocksDB syncs them too, but in its background threads.
  bool syncs_table_files = false;
};

// What the scenario does, in the engine's units.
struct Workload {
  Kind kind = Kind::kFillRandom;
  uint64_t num = 0;  // key space
  uint64_t ops = 0;  // operations measured
  uint64_t key_bytes = 16;
  uint64_t value_bytes = 100;
  double compression_ratio = 0.5;
  // Distinct entries in the database the scenario reads or grows.
  uint64_t distinct_entries = 0;
  uint64_t memory_bytes = 0;  // page cache the data may occupy
};

struct EngineFacts {
  std::string engine;
  double cpu_ns = 0;  // per op, the scenario in memory on this CPU
  LsmShape shape;
  // Bytes written per user byte, WAL included, from the engine's own
  // in-memory run of the step (calibrate.h).
  std::optional<double> measured_write_amplification;
};

struct Ceiling {
  Bound bound;
  double ops_per_sec;
};

struct Estimate {
  double ops_per_sec = 0;
  Bound bound = Bound::kCpu;
  std::vector<Ceiling> ceilings;
  // The derived figures (entry sizes, levels, WA, miss share), with units.
  nlohmann::json derived = nlohmann::json::object();
};

// Levels below level 0 an LSM with this shape needs for `data_bytes`.
int LsmLevels(const LsmShape& shape, double data_bytes);
// Table bytes written per table byte of user data (WA_t above).
double TableWriteAmplification(const LsmShape& shape, Kind kind,
                               double data_bytes);
// Bytes an unsynced fill passes to write calls per op by the LSM-shape
// formula: the WAL record plus the table bytes, E_user + E_table x WA_t, for
// the workload's distinct entries (what a measured write amplification
// counts).
double FormulaDeviceBytesPerOp(const Workload& w, const LsmShape& shape);
// sync_file_ns above: the time to sync a table file of `file_bytes` just
// written.
double TableSyncNs(const DiskFigures& d, double file_bytes);
// S above: what requests of `request_bytes` get from a device of
// `bandwidth` bytes/s that charges each as one of `iops_limit` (0: none).
double StreamBps(double bandwidth, double iops_limit, double request_bytes);
// u above: the bytes one cold miss brings in.
double ColdReadUnitBytes(const Workload& w, const LsmShape& shape,
                         const DiskFigures& d);
// miss_ns above.
double MissNs(const Workload& w, const LsmShape& shape, const DiskFigures& d);
// Expected device reads per lookup (m above).
double ReadMissesPerOp(const Workload& w, const LsmShape& shape,
                       double data_bytes, const DiskFigures& d);

// REQUIRES: facts.cpu_ns > 0, the disk figures the scenario uses > 0.
Estimate Predict(const Workload& w, const EngineFacts& facts,
                 const DiskFigures& disk);

}  // namespace disktune::predict
