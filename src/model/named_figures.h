// The figures a service's gate reads, each defined once: the probe point it
// is taken from (by its params, never its name) and what it means. Every
// format, gate (the check presets, the durability verdict's etcd check) and
// query (`etcd.<metric>`, `wal.<metric>` in check paths) reads them from here.
//
// On a sync point two latencies exist and are named apart wherever both
// appear: the point's own `p99` (write + sync, the table's "write+sync" column)
// and `sync_latency_ns.p99` (the sync call alone, what etcd's gate and fio's
// "sync" percentiles time).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/model/probe_result.h"

namespace disktune {

// etcd's WAL write and its disk gate's limit on the sync's p99.
inline constexpr uint64_t kEtcdWriteBytes = 2300;
inline constexpr uint64_t kEtcdThresholdNs = 10000000;
// Whether `r` is the point etcd's gate reads: fdatasync after one 2300 B
// write into a preallocated file (etcd's WAL layout) on the scratch directory,
// the write cache as found (by its params, whatever its name).
bool IsEtcdPoint(const ProbeResult& r);
// One fdatasync after one write of `write_bytes` in `pattern` ("append",
// "prealloc"), on the scratch filesystem with its write cache as found: the
// shape of the named sync figures and of the model's sync points.
bool IsFdatasyncPoint(const ProbeResult& r, uint64_t write_bytes,
                      const std::string& pattern);

struct NamedFigure {
  const char* name;  // "etcd", "wal": the first segment of a check path
  const char* what;  // in words, for reports and errors
  bool (*matches)(const ProbeResult& r);
};

// In a fixed order: etcd, wal.
const std::vector<NamedFigure>& NamedFigures();
// The named figure `name`, or nullptr.
const NamedFigure* FindNamedFigure(std::string_view name);
// The first ok-or-not result `f` matches, or nullptr.
const ProbeResult* NamedFigurePoint(const NamedFigure& f,
                                    const std::vector<ProbeResult>& results);

// "write+sync" for a point's own latency, "sync alone" for its
// sync_latency_ns group: what a latency `metric` of a sync point times.
std::string SyncLatencyPart(std::string_view metric);

}  // namespace disktune
