#include "reports/text_report.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "reports/durability_text.h"
#include "src/core/units.h"

namespace disktune {
namespace {

std::string Fmt(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), fmt, v);
  return buf;
}

void Header(const Report& r, std::ostringstream& os) {
  const Environment& e = r.environment;
  os << "disktune " << r.tool_version << " " << r.command << " on " << e.system.hostname
     << " (" << e.system.cpu_count << " CPU, " << FormatBytes(e.system.memory_bytes)
     << ", kernel " << e.system.kernel << ")\n";
  os << "target:   " << e.target_dir << " — " << e.filesystem.type << " ("
     << e.filesystem.mount_options << "), " << FormatBytes(e.filesystem.free_bytes)
     << " free\n";
  if (e.device) {
    const DeviceInfo& d = *e.device;
    os << "device:   " << d.disk;
    if (!d.model.empty()) os << " " << d.model;
    if (d.size_bytes) os << ", " << FormatBytes(static_cast<double>(*d.size_bytes));
    if (d.rotational) os << (*d.rotational ? ", rotational" : ", non-rotational");
    if (!d.scheduler.empty()) os << ", scheduler " << d.scheduler;
    if (!d.write_cache.empty()) os << ", write cache: " << d.write_cache;
    os << "\n";
    if (d.chain.size() > 1) {
      os << "path:     ";
      for (size_t i = 0; i < d.chain.size(); i++) os << (i ? " -> " : "") << d.chain[i];
      os << "\n";
    }
  } else if (!e.device_note.empty()) {
    os << "device:   " << e.device_note << "\n";
  }
  if (r.completion != "complete") os << "status:   " << r.completion << " (partial results)\n";
}

void ProbeTable(const Report& r, std::ostringstream& os) {
  if (r.probes.empty()) return;
  char line[512];
  int w = 26;  // wide enough for every name (fsync names run to ~40)
  for (const auto& p : r.probes) w = std::max(w, static_cast<int>(p.name.size()));
  std::snprintf(line, sizeof(line), "\n%-*s %12s %11s %11s %11s %11s %9s\n", w, "probe", "IOPS",
                "MB/s", "p50", "p99", "max", "samples");
  os << line;
  for (const auto& p : r.probes) {
    if (p.status != ProbeStatus::kOk) {
      std::snprintf(line, sizeof(line), "%-*s %s: %s\n", w, p.name.c_str(),
                    ProbeStatusName(p.status),
                    (p.status == ProbeStatus::kSkipped ? p.reason : p.error).c_str());
      os << line;
      continue;
    }
    double iops = p.iops.value_or(p.ops_per_sec.value_or(0));
    std::string mbs = p.bytes_per_sec ? Fmt("%.1f", *p.bytes_per_sec / 1e6) : "-";
    std::string p50 = p.latency_ns ? FormatDuration(p.latency_ns->p50) : "-";
    std::string p99 = p.latency_ns ? FormatDuration(p.latency_ns->p99) : "-";
    std::string mx = p.latency_ns ? FormatDuration(p.latency_ns->max) : "-";
    std::snprintf(line, sizeof(line), "%-*s %12.0f %11s %11s %11s %11s %9llu\n", w,
                  p.name.c_str(), iops, mbs.c_str(), p50.c_str(), p99.c_str(), mx.c_str(),
                  static_cast<unsigned long long>(p.samples.value_or(0)));
    os << line;
    if (p.fio && p.fio->status == "ok") {
      std::string ratio = "  fio: ";
      if (p.fio->iops) ratio += Fmt("%.0f IOPS", *p.fio->iops);
      if (p.fio->latency_ns) ratio += ", p50 " + FormatDuration(p.fio->latency_ns->p50);
      if (p.fio->iops_ratio) ratio += Fmt("; native/fio IOPS %.3f", *p.fio->iops_ratio);
      if (p.fio->latency_p50_ratio) ratio += Fmt(", p50 %.3f", *p.fio->latency_p50_ratio);
      os << ratio << "\n";
    } else if (p.fio) {
      os << "  fio: " << p.fio->status << ": " << p.fio->reason << "\n";
    }
  }
}

void Analyses(const Report& r, std::ostringstream& os) {
  if (auto it = r.analyses.find("rand_read_saturation"); it != r.analyses.end()) {
    const auto& s = *it;
    os << "\nrandom-read saturation: queue depth " << s.value("queue_depth", 0) << " reaches "
       << Fmt("%.0f", s.value("iops", 0.0)) << " IOPS (best "
       << Fmt("%.0f", s.value("best_iops", 0.0)) << " at depth " << s.value("best_queue_depth", 0)
       << ")";
    if (s.contains("latency_ns")) {
      os << ", p50 " << FormatDuration(s["latency_ns"].value("p50", 0.0)) << ", p99 "
         << FormatDuration(s["latency_ns"].value("p99", 0.0));
    }
    os << "\n";
  }
  if (auto it = r.analyses.find("page_cache"); it != r.analyses.end()) {
    os << "page cache bypassed: " << ((*it).value("bypassed", false) ? "yes" : "NO") << " ("
       << FormatBytes((*it).value("resident_bytes", 0.0)) << " of the test file resident)\n";
  }
}

}  // namespace

std::string RenderText(const Report& report) {
  std::ostringstream os;
  Header(report, os);
  ProbeTable(report, os);
  Analyses(report, os);
  RenderDurabilityText(report.analyses, os);
  if (!report.warnings.empty()) {
    os << "\nwarnings:\n";
    for (const auto& w : report.warnings) os << "  - " << w << "\n";
  }
  os << "\nwrote " << FormatBytes(static_cast<double>(report.bytes_written))
     << " to the scratch directory\n";
  return os.str();
}

}  // namespace disktune
