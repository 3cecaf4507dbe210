#include "src/predict/model.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace disktune::predict {

const char* BoundName(Bound b) {
  switch (b) {
    case Bound::kCpu:
      return "cpu";
    case Bound::kReadIops:
      return "read_iops";
    case Bound::kReadBandwidth:
      return "read_bandwidth";
    case Bound::kWriteBandwidth:
      return "write_bandwidth";
    case Bound::kSyncLatency:
      return "sync_latency";
    case Bound::kWriteStall:
      return "write_stall";
  }
  return "cpu";
}

std::optional<Kind> KindOf(const std::string& scenario) {
  static const std::pair<const char*, Kind> kNames[] = {
      {"fillseq", Kind::kFillSeq},
      {"fillrandom", Kind::kFillRandom},
      {"overwrite", Kind::kOverwrite},
      {"fillsync", Kind::kFillSync},
      {"readrandom", Kind::kReadRandom},
      {"readrandom-cold", Kind::kReadRandomCold},
      {"readseq", Kind::kReadSeq},
      {"readseq-cold", Kind::kReadSeqCold},
  };
  for (const auto& [name, kind] : kNames) {
    if (scenario == name) return kind;
  }
  return std::nullopt;
}

int LsmLevels(const LsmShape& shape, double data_bytes) {
  if (data_bytes <= static_cast<double>(shape.write_buffer_bytes)) return 0;
  if (shape.level1_bytes == 0 || data_bytes <= shape.level1_bytes) return 1;
  double over = data_bytes / static_cast<double>(shape.level1_bytes);
  return 1 + static_cast<int>(std::ceil(std::log(over) /
                                        std::log(std::max(2.0, shape.fanout))));
}

double TableWriteAmplification(const LsmShape& shape, Kind kind,
                               double data_bytes) {
  if (kind == Kind::kFillSeq) return 1.0;
  int levels = LsmLevels(shape, data_bytes);
  return 1.0 + levels * (shape.fanout + 1.0) / 2.0;
}

namespace {

bool IsRead(Kind k) {
  return k == Kind::kReadRandom || k == Kind::kReadRandomCold ||
         k == Kind::kReadSeq || k == Kind::kReadSeqCold;
}

// Share of the data the page cache cannot hold.
double WarmMissShare(const Workload& w, double data_bytes) {
  if (data_bytes <= 0 || w.memory_bytes == 0) return 0;
  return std::max(0.0, 1.0 - static_cast<double>(w.memory_bytes) / data_bytes);
}

double TableEntryBytes(const Workload& w) {
  return static_cast<double>(w.key_bytes) +
         static_cast<double>(w.value_bytes) * w.compression_ratio;
}

// Serial composition: the bound is the larger of the two per-op times.
void Serial(double cpu_ns, double device_ns, Bound device, Estimate* e) {
  e->ops_per_sec = 1e9 / (cpu_ns + device_ns);
  e->bound = device_ns > cpu_ns ? device : Bound::kCpu;
}

// Overlapped composition: the lowest ceiling.
void Lowest(Estimate* e) {
  auto it = std::min_element(e->ceilings.begin(), e->ceilings.end(),
                             [](const Ceiling& a, const Ceiling& b) {
                               return a.ops_per_sec < b.ops_per_sec;
                             });
  e->ops_per_sec = it->ops_per_sec;
  e->bound = it->bound;
}

// s_w above: writeback sends a table file as floor(F / r) + 1 requests.
double TableRequestBytes(const LsmShape& shape, const DiskFigures& d) {
  const double file = static_cast<double>(shape.table_file_bytes);
  if (d.request_bytes <= 0 || file <= 0) return d.request_bytes;
  return file / (std::floor(file / d.request_bytes) + 1);
}

void PredictWrites(const Workload& w, const EngineFacts& f,
                   const DiskFigures& d, double data_bytes, Estimate* e) {
  const double user = static_cast<double>(w.key_bytes + w.value_bytes);
  const double table = TableEntryBytes(w);
  if (w.kind == Kind::kFillSync) {
    // One WAL append + fdatasync per op, waited for by the writer.
    e->ceilings.push_back({Bound::kSyncLatency, 1e9 / d.sync_ns});
    Serial(f.cpu_ns, d.sync_ns, Bound::kSyncLatency, e);
    return;
  }
  double wa_t = TableWriteAmplification(f.shape, w.kind, data_bytes);
  if (f.measured_write_amplification) {
    // Measured: what is not the WAL's is the tables'.
    wa_t = std::max(0.0, *f.measured_write_amplification * user - user) / table;
  }
  // The WAL of an unsynced fill never reaches the device (model.h, Cw).
  const double device_bytes = table * wa_t;
  const double write_Bps = StreamBps(d.seq_write_Bps, d.write_iops_limit,
                                     TableRequestBytes(f.shape, d));
  e->derived["table_write_amplification"] = wa_t;
  e->derived["device_write_bytes_per_op"] = device_bytes;
  if (write_Bps < d.seq_write_Bps)
    e->derived["write_bytes_per_sec"] = write_Bps;
  e->ceilings.push_back(
      {Bound::kWriteBandwidth, write_Bps / std::max(1.0, device_bytes)});
  if (f.shape.syncs_table_files && f.shape.table_file_bytes > 0) {
    // The compaction thread syncs each table it finishes, beside the writers.
    const double file = static_cast<double>(f.shape.table_file_bytes);
    const double sync_file_ns = TableSyncNs(d, file);
    const double sync_per_op = table * wa_t * sync_file_ns / file;
    e->derived["table_sync_ns"] = sync_file_ns;
    e->ceilings.push_back({Bound::kSyncLatency, 1e9 / sync_per_op});
  }
  Lowest(e);
}

void PredictReads(const Workload& w, const EngineFacts& f, const DiskFigures& d,
                  double data_bytes, Estimate* e) {
  const double table = TableEntryBytes(w);
  if (w.kind == Kind::kReadSeq || w.kind == Kind::kReadSeqCold) {
    double share =
        w.kind == Kind::kReadSeqCold ? 1.0 : WarmMissShare(w, data_bytes);
    e->derived["device_read_share"] = share;
    if (share > 0) {
      double scan = f.shape.scan_read_bytes > 0
                        ? static_cast<double>(f.shape.scan_read_bytes)
                        : d.read_ahead_bytes;
      if (d.request_bytes > 0) scan = std::min(scan, d.request_bytes);
      const double read_Bps =
          StreamBps(d.seq_read_Bps, d.read_iops_limit, scan);
      if (read_Bps < d.seq_read_Bps) {
        e->derived["read_bytes_per_sec"] = read_Bps;
      }
      e->ceilings.push_back(
          {Bound::kReadBandwidth, read_Bps / (share * table)});
    }
    Lowest(e);
    return;
  }
  double misses = ReadMissesPerOp(w, f.shape, data_bytes, d);
  e->derived["device_reads_per_op"] = misses;
  if (misses <= 0) {
    Lowest(e);
    return;
  }
  const double miss_ns = MissNs(w, f.shape, d);
  e->derived["miss_ns"] = miss_ns;
  e->ceilings.push_back({Bound::kReadIops, 1e9 / (misses * miss_ns)});
  Serial(f.cpu_ns, misses * miss_ns, Bound::kReadIops, e);
}

}  // namespace

double FormulaDeviceBytesPerOp(const Workload& w, const LsmShape& shape) {
  const double table = TableEntryBytes(w);
  const double data = static_cast<double>(w.distinct_entries) * table;
  return static_cast<double>(w.key_bytes + w.value_bytes) +
         table * TableWriteAmplification(shape, w.kind, data);
}

double TableSyncNs(const DiskFigures& d, double file_bytes) {
  if (d.table_sync_ns > 0 && d.table_sync_bytes > 0) {
    return std::max(d.sync_ns,
                    d.table_sync_ns * file_bytes / d.table_sync_bytes);
  }
  return d.sync_ns + file_bytes / std::max(1.0, d.seq_write_Bps) * 1e9;
}

double StreamBps(double bandwidth, double iops_limit, double request_bytes) {
  if (iops_limit <= 0 || request_bytes <= 0) return bandwidth;
  return std::min(bandwidth, iops_limit * request_bytes);
}

double ColdReadUnitBytes(const Workload& w, const LsmShape& shape,
                         const DiskFigures& d) {
  if (!shape.mapped_tables) {
    constexpr double kPage = 4096;
    const double block = static_cast<double>(shape.block_bytes) *
                         TableEntryBytes(w) /
                         static_cast<double>(w.key_bytes + w.value_bytes);
    return std::max(kPage + block / 2, block);
  }
  constexpr double kDefaultReadAhead = 128 << 10;  // read_ahead_kb's default
  double unit = d.read_ahead_bytes > 0 ? d.read_ahead_bytes : kDefaultReadAhead;
  if (shape.table_file_bytes > 0) {
    unit = std::min(unit, static_cast<double>(shape.table_file_bytes));
  }
  return std::max(unit, static_cast<double>(shape.block_bytes));
}

double MissNs(const Workload& w, const LsmShape& shape, const DiskFigures& d) {
  constexpr double kFirstRead = 4096;  // what read_ns is measured for
  const double rest = ColdReadUnitBytes(w, shape, d) - kFirstRead;
  if (rest <= 0) return d.read_ns;
  const double request = d.request_bytes > 0 ? d.request_bytes : rest;
  const double Bps = StreamBps(d.seq_read_Bps, d.read_iops_limit, request);
  return d.read_ns + (Bps > 0 ? rest / Bps * 1e9 : 0);
}

double ReadMissesPerOp(const Workload& w, const LsmShape& shape,
                       double data_bytes, const DiskFigures& d) {
  const int levels = LsmLevels(shape, data_bytes);
  const double k = std::max(1, levels);
  double warm = k * WarmMissShare(w, data_bytes);
  if (w.kind != Kind::kReadRandomCold || w.ops == 0 || levels == 0) {
    return warm;
  }
  const double blocks =
      std::max(1.0, data_bytes / ColdReadUnitBytes(w, shape, d));
  const double touches = static_cast<double>(w.ops) * k;
  double first = blocks * (1.0 - std::exp(-touches / blocks));
  return std::max(warm, first / static_cast<double>(w.ops));
}

Estimate Predict(const Workload& w, const EngineFacts& f,
                 const DiskFigures& d) {
  Estimate e;
  const double table = TableEntryBytes(w);
  const double data_bytes = static_cast<double>(w.distinct_entries) * table;
  e.derived["entry_bytes"] = w.key_bytes + w.value_bytes;
  e.derived["table_entry_bytes"] = table;
  e.derived["data_bytes"] = data_bytes;
  e.derived["lsm_levels"] = LsmLevels(f.shape, data_bytes);
  e.ceilings.push_back({Bound::kCpu, 1e9 / f.cpu_ns});
  if (IsRead(w.kind)) {
    PredictReads(w, f, d, data_bytes, &e);
  } else {
    PredictWrites(w, f, d, data_bytes, &e);
  }
  return e;
}

}  // namespace disktune::predict
