#include "src/predict/disk_figures.h"

#include <algorithm>
#include <string>

#include "src/model/named_figures.h"

namespace disktune::predict {
namespace {

bool Usable(const ProbeResult& p) {
  return p.status == ProbeStatus::kOk && p.params.filesystem.empty() &&
         p.params.variant.empty() &&
         p.params.write_cache == CacheState::kAsFound;
}

// Mean ns per op: the latency mean, else 1 / rate.
std::optional<double> MeanNs(const ProbeResult& p) {
  if (p.latency_ns && p.latency_ns->mean > 0) return p.latency_ns->mean;
  double rate = p.ops_per_sec.value_or(p.iops.value_or(0));
  if (rate > 0) return 1e9 / rate;
  return std::nullopt;
}

const ProbeResult* SyncPoint(const std::vector<ProbeResult>& probes) {
  const ProbeResult* best = nullptr;
  for (const ProbeResult& p : probes) {
    if (!p.params.block_size_bytes || !Usable(p) ||
        !IsFdatasyncPoint(p, *p.params.block_size_bytes, "append") ||
        !MeanNs(p)) {
      continue;
    }
    if (!best || *p.params.block_size_bytes < *best->params.block_size_bytes) {
      best = &p;
    }
  }
  return best;
}

const ProbeResult* TableSyncPoint(const std::vector<ProbeResult>& probes) {
  for (const ProbeResult& p : probes) {
    if (Usable(p) && IsFdatasyncPoint(p, kTableSyncBytes, "append") &&
        MeanNs(p)) {
      return &p;
    }
  }
  return nullptr;
}

const ProbeResult* Named(const std::vector<ProbeResult>& probes,
                         const std::string& name) {
  for (const ProbeResult& p : probes) {
    if (p.name == name && Usable(p)) return &p;
  }
  return nullptr;
}

// The best figure of a probe family at one block size.
const ProbeResult* Best(const std::vector<ProbeResult>& probes,
                        const std::string& probe, uint64_t block,
                        bool by_iops) {
  const ProbeResult* best = nullptr;
  auto figure = [by_iops](const ProbeResult& p) {
    return by_iops ? p.iops.value_or(0) : p.bytes_per_sec.value_or(0);
  };
  for (const ProbeResult& p : probes) {
    if (p.probe != probe || !Usable(p) || p.params.block_size_bytes != block)
      continue;
    if (figure(p) > 0 && (!best || figure(p) > figure(*best))) best = &p;
  }
  return best;
}

// Lowers `*value` to `limit` when it is above, and records it.
void Cap(const char* figure, double limit, double* value, DiskFigures* d) {
  if (limit <= 0 || *value <= limit) return;
  d->capped.push_back({figure, *value, limit});
  *value = limit;
}

double Limit(const std::optional<uint64_t>& v, double times = 1) {
  return v ? static_cast<double>(*v) * times : 0;
}

}  // namespace

void CapToThrottle(const ThrottleLimits& l, DiskFigures* d) {
  constexpr double kRequest = 1 << 20;  // the 1 MiB probe points' request
  auto both = [](double a, double b) {
    if (a <= 0) return b;
    return b <= 0 ? a : std::min(a, b);
  };
  Cap("seq_write_bytes_per_sec",
      both(Limit(l.write_bytes_per_sec), Limit(l.write_iops, kRequest)),
      &d->seq_write_Bps, d);
  Cap("seq_read_bytes_per_sec",
      both(Limit(l.read_bytes_per_sec), Limit(l.read_iops, kRequest)),
      &d->seq_read_Bps, d);
  Cap("read_iops", Limit(l.read_iops), &d->read_iops, d);
  if (l.read_iops && *l.read_iops > 0) {
    // A latency floor, not a ceiling: the mean QD1 read takes at least
    // one interval of the class's read IOPS.
    double floor_ns = 1e9 / static_cast<double>(*l.read_iops);
    if (d->read_ns > 0 && d->read_ns < floor_ns) {
      d->capped.push_back({"read_latency_ns", d->read_ns, floor_ns});
      d->read_ns = floor_ns;
    }
  }
}

std::vector<std::string> ModelProbeArgs() {
  return {"--quick",
          "--probes",
          "seq_read,rand_read,seq_write,fsync",
          "--queue-depths",
          "1,32",
          "--fsync-methods",
          "fdatasync",
          "--fsync-sizes",
          "512,2MiB",
          "--fsync-modes",
          "append",
          "--fsync-duration",
          std::to_string(kSyncPointNs / 1000000) + "ms",
          "--file-size",
          "64MiB",
          "--duration",
          "500ms",
          "--warmup",
          "100ms"};
}

std::string ModelProbeCommand() {
  std::string cmd = "disktune probe";
  for (const std::string& a : ModelProbeArgs()) cmd += " " + a;
  return cmd;
}

Result<DiskFigures> DiskFiguresFromProbes(
    const std::vector<ProbeResult>& probes,
    std::vector<std::string>* missing_out) {
  DiskFigures d;
  std::vector<std::string> missing;
  if (const ProbeResult* p = SyncPoint(probes)) {
    d.sync_ns = *MeanNs(*p);
    d.source.emplace_back("sync_ns", p->name);
  } else {
    missing.push_back("an fsync fdatasync append point");
  }
  if (const ProbeResult* p = TableSyncPoint(probes)) {
    d.table_sync_ns = *MeanNs(*p);
    d.table_sync_bytes = static_cast<double>(kTableSyncBytes);
    d.source.emplace_back("table_sync_ns", p->name);
  }
  if (const ProbeResult* p = Named(probes, "rand_read.4k.qd1");
      p && MeanNs(*p)) {
    d.read_ns = *MeanNs(*p);
    d.source.emplace_back("read_ns", p->name);
  } else {
    missing.push_back("rand_read.4k.qd1");
  }
  if (const ProbeResult* p = Best(probes, "rand_read", 4096, true)) {
    d.read_iops = *p->iops;
    d.source.emplace_back("read_iops", p->name);
  }
  if (const ProbeResult* p = Named(probes, "seq_read.1m.qd1");
      p && p->bytes_per_sec) {
    d.seq_read_Bps = *p->bytes_per_sec;
    d.source.emplace_back("seq_read_Bps", p->name);
  } else {
    missing.push_back("seq_read.1m.qd1");
  }
  if (const ProbeResult* p = Best(probes, "seq_write", 1u << 20, false)) {
    d.seq_write_Bps = *p->bytes_per_sec;
    d.source.emplace_back("seq_write_Bps", p->name);
  } else {
    missing.push_back("seq_write.1m");
  }
  if (!missing.empty()) {
    std::string list;
    for (const std::string& m : missing) list += (list.empty() ? "" : ", ") + m;
    if (missing_out) *missing_out = missing;
    return Status::InvalidArgument(
        "the probe result lacks what the model needs (" + list +
        "); measure them with: " + ModelProbeCommand());
  }
  return d;
}

Result<DiskFigures> DiskFiguresFromRun(const std::vector<ProbeResult>& probes,
                                       const Environment& env,
                                       std::vector<std::string>* missing) {
  auto d = DiskFiguresFromProbes(probes, missing);
  if (!d.ok()) return d;
  if (env.device && env.device->read_ahead_kb) {
    d->read_ahead_bytes = static_cast<double>(*env.device->read_ahead_kb << 10);
  }
  if (env.throttle) {
    const ThrottleRecord& t = *env.throttle;
    CapToThrottle(t.spec.limits, &*d);
    d->read_iops_limit = Limit(t.spec.limits.read_iops);
    d->write_iops_limit = Limit(t.spec.limits.write_iops);
    if (t.request_bytes)
      d->request_bytes = static_cast<double>(*t.request_bytes);
    if (t.read_ahead_bytes) {
      d->read_ahead_bytes = static_cast<double>(*t.read_ahead_bytes);
    }
  }
  return d;
}

}  // namespace disktune::predict
