#include "reports/durability_text.h"

#include <cstdio>
#include <string>

#include "reports/render_util.h"
#include "reports/summarize.h"
#include "src/core/units.h"

namespace disktune {
namespace {

constexpr auto Dur = DurationOrDash;

void Verdicts(const DurabilityFindings& d, std::ostream& os) {
  for (const ScopeVerdict& v : d.verdicts) {
    // An untrusted result: a verdict without its evidence is skipped.
    if (!v.evidence) continue;
    const DurabilityEvidence& e = *v.evidence;
    os << "  " << v.scope << " (" << v.disk
       << "): " << DurabilityTitle(v.verdict.id) << "\n    " << v.verdict.rule
       << "\n    measured: ";
    if (auto f = e.flushes_per_sync()) {
      os << "the disk completed " << Fixed(*f, 2) << " flushes per sync; ";
    } else {
      os << "flushes were not counted; ";
    }
    os << "the fastest sync point (" << e.fastest_point << ") had a p50 of "
       << Dur(e.fastest_sync_p50_ns);
    if (!e.kernel_write_cache.empty())
      os << "; the kernel's view of the cache was '" << e.kernel_write_cache
         << "'";
    os << "\n";
  }
}

void CacheViews(const WriteCacheViews& w, std::ostream& os) {
  for (const WriteCacheView& d : w.devices) {
    os << "  write cache of " << d.disk << ": kernel view '" << d.kernel_view
       << "'";
    if (d.fua) os << ", FUA " << (*d.fua ? "yes" : "no");
    os << ", drive: ";
    if (d.drive.enabled) {
      os << (*d.drive.enabled ? "enabled" : "disabled") << " ("
         << d.drive.source << ")";
    } else {
      os << "unknown";
    }
    if (!d.drive.note.empty()) os << "; " << d.drive.note;
    os << "\n";
  }
}

void Etcd(const NamedChecks& checks, std::ostream& os) {
  auto it = checks.find("etcd");
  if (it == checks.end()) return;
  const NamedCheck& e = it->second;
  os << "  etcd check: " << CheckVerdictText(e) << ", "
     << CheckMeasurementText(e.measurement) << " " << Dur(e.value_ns)
     << " (limit " << Dur(e.threshold_ns) << ")\n";
}

void Ab(const WriteCacheAb& ab, std::ostream& os) {
  for (const WriteCacheAbRun& run : ab.runs) {
    if (run.status != "ok") {
      os << "  write cache A/B (" << run.results << "): skipped: " << run.reason
         << "\n";
      continue;
    }
    os << "  write cache A/B (" << run.results << "), switch "
       << run.switch_used << ", found " << run.as_found << ":\n";
    char line[160];
    std::snprintf(line, sizeof(line), "    %-28s %10s %10s %10s %10s %8s\n",
                  "point", "on p50", "off p50", "on p99", "off p99", "off/on");
    os << line;
    for (const WriteCacheAbPoint& p : run.points) {
      std::snprintf(
          line, sizeof(line), "    %-28s %10s %10s %10s %10s %8.2f\n",
          p.point.c_str(), Dur(p.cache_on.p50_ns).c_str(),
          Dur(p.cache_off.p50_ns).c_str(), Dur(p.cache_on.p99_ns).c_str(),
          Dur(p.cache_off.p99_ns).c_str(), p.off_over_on_p50.value_or(0.0));
      os << line;
    }
  }
}

void FsMatrixRows(const FsMatrix& m, std::ostream& os) {
  std::vector<std::string> ok;
  os << "  filesystems (each on a loop device over an image in the scratch "
        "directory):\n";
  for (const FsMatrixFilesystem& f : m.filesystems) {
    os << "    " << f.filesystem << ": ";
    if (f.status == "ok") {
      ok.push_back(f.filesystem);
      os << "mount options " << f.mount_options << "\n";
    } else {
      os << "skipped: " << f.reason << "\n";
    }
  }
  if (ok.empty()) return;
  char cell[64];
  std::snprintf(cell, sizeof(cell), "    %-28s", "point (p50 / p99)");
  os << cell;
  for (const auto& fs : ok) {
    std::snprintf(cell, sizeof(cell), " %22s", fs.c_str());
    os << cell;
  }
  os << "\n";
  for (const FsMatrixPoint& p : m.points) {
    std::snprintf(cell, sizeof(cell), "    %-28s", p.point.c_str());
    os << cell;
    for (const auto& fs : ok) {
      auto f = p.by_filesystem.find(fs);
      std::string v =
          f != p.by_filesystem.end()
              ? Dur(f->second.p50_ns) + " / " + Dur(f->second.p99_ns)
              : "-";
      std::snprintf(cell, sizeof(cell), " %22s", v.c_str());
      os << cell;
    }
    os << "\n";
  }
}

}  // namespace

void RenderDurabilityText(const DurabilityAnalyses& a, std::ostream& os) {
  if (a.empty()) return;
  os << "\ndurability:\n";
  if (a.findings) Verdicts(*a.findings, os);
  if (a.write_cache) CacheViews(*a.write_cache, os);
  Etcd(a.checks, os);
  if (a.write_cache_ab) Ab(*a.write_cache_ab, os);
  if (a.fs_matrix) FsMatrixRows(*a.fs_matrix, os);
}

void RenderDurabilityText(const model::Analyses& analyses, std::ostream& os) {
  RenderDurabilityText(DurabilityAnalysesOf(analyses), os);
}

}  // namespace disktune
