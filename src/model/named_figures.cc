#include "src/model/named_figures.h"

namespace disktune {
namespace {

// LevelDB's and RocksDB's write-ahead log with sync writes: a small batch
// appended to the log, rounded to a page, then fdatasync (the 2011 LevelDB
// benchmark page's sync writes; check preset leveldb-wal).
constexpr uint64_t kWalWriteBytes = 4096;

bool IsWalPoint(const ProbeResult& r) {
  return IsFdatasyncPoint(r, kWalWriteBytes, "append");
}

}  // namespace

bool IsFdatasyncPoint(const ProbeResult& r, uint64_t write_bytes,
                      const std::string& pattern) {
  const ProbeParams& p = r.params;
  return r.probe == "fsync" && p.method == "fdatasync" &&
         p.block_size_bytes == write_bytes && p.pattern == pattern &&
         p.writes_per_op == 1 && p.write_cache == CacheState::kAsFound &&
         p.filesystem.empty() && p.variant.empty();
}

bool IsEtcdPoint(const ProbeResult& r) {
  return IsFdatasyncPoint(r, kEtcdWriteBytes, "prealloc");
}

const std::vector<NamedFigure>& NamedFigures() {
  static const std::vector<NamedFigure> k = {
      {"etcd",
       "etcd's WAL point: fdatasync after one 2300 B write into a "
       "preallocated file",
       IsEtcdPoint},
      {"wal",
       "an LSM engine's log with sync writes: fdatasync after one 4 KiB "
       "append",
       IsWalPoint},
  };
  return k;
}

const NamedFigure* FindNamedFigure(std::string_view name) {
  for (const NamedFigure& f : NamedFigures()) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

const ProbeResult* NamedFigurePoint(const NamedFigure& f,
                                    const std::vector<ProbeResult>& results) {
  for (const ProbeResult& r : results) {
    if (f.matches(r)) return &r;
  }
  return nullptr;
}

std::string SyncLatencyPart(std::string_view metric) {
  return metric.rfind("sync_latency_ns", 0) == 0 ? "sync alone" : "write+sync";
}

}  // namespace disktune
