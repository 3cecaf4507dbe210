#include "reports/durability_text.h"

#include <cstdio>
#include <string>

#include "reports/render_util.h"
#include "src/core/units.h"

namespace disktune {
namespace {

std::string Str(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

std::string Dur(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? FormatDuration(it->get<double>())
                                          : "-";
}

void Verdicts(const nlohmann::json& a, std::ostream& os) {
  // An untrusted result: a node of the wrong type is skipped, not indexed.
  auto it = a.find("durability");
  if (it == a.end() || !it->is_object()) return;
  auto verdicts = it->find("verdicts");
  if (verdicts == it->end() || !verdicts->is_array()) return;
  for (const auto& v : *verdicts) {
    if (!v.is_object()) continue;
    auto evidence = v.find("evidence");
    if (evidence == v.end() || !evidence->is_object()) continue;
    const auto& e = *evidence;
    os << "  " << Str(v, "scope") << " (" << Str(v, "disk")
       << "): " << Str(v, "verdict") << "\n    " << Str(v, "rule")
       << "\n    evidence: ";
    char buf[64];
    if (e.contains("flushes_per_sync") && e["flushes_per_sync"].is_number()) {
      std::snprintf(buf, sizeof(buf), "%.2f",
                    e["flushes_per_sync"].get<double>());
      os << buf << " device flushes per sync, ";
    } else {
      os << "flushes not counted, ";
    }
    os << "fastest sync p50 " << Dur(e, "fastest_sync_p50_ns") << " ("
       << Str(e, "fastest_point") << ")";
    if (e.contains("kernel_write_cache"))
      os << ", kernel view " << Str(e, "kernel_write_cache");
    os << "\n";
  }
}

void CacheViews(const nlohmann::json& a, std::ostream& os) {
  auto it = a.find("write_cache");
  if (it == a.end()) return;
  for (const auto& d : (*it)["devices"]) {
    const auto& drive = d["drive"];
    os << "  write cache of " << Str(d, "disk") << ": kernel view '"
       << Str(d, "kernel_view") << "'";
    if (d.contains("fua"))
      os << ", FUA " << (d["fua"].get<bool>() ? "yes" : "no");
    os << ", drive: ";
    if (drive.contains("enabled")) {
      os << (drive["enabled"].get<bool>() ? "enabled" : "disabled") << " ("
         << Str(drive, "source") << ")";
    } else {
      os << "unknown";
    }
    if (!Str(drive, "note").empty()) os << "; " << Str(drive, "note");
    os << "\n";
  }
}

void Etcd(const nlohmann::json& a, std::ostream& os) {
  auto c = a.find("checks");
  if (c == a.end() || !c->contains("etcd")) return;
  const auto& e = (*c)["etcd"];
  os << "  etcd check (fdatasync 2300 B append, p99 < "
     << Dur(e, "threshold_ns") << "): " << CheckVerdictText(e) << ", p99 "
     << Dur(e, "value_ns") << "\n";
}

void Ab(const nlohmann::json& a, std::ostream& os) {
  auto it = a.find("write_cache_ab");
  if (it == a.end()) return;
  for (const auto& run : (*it)["runs"]) {
    if (Str(run, "status") != "ok") {
      os << "  write cache A/B (" << Str(run, "results")
         << "): skipped: " << Str(run, "reason") << "\n";
      continue;
    }
    os << "  write cache A/B (" << Str(run, "results") << "), switch "
       << Str(run, "switch") << ", found " << Str(run, "as_found") << ":\n";
    char line[160];
    std::snprintf(line, sizeof(line), "    %-28s %10s %10s %10s %10s %8s\n",
                  "point", "on p50", "off p50", "on p99", "off p99", "off/on");
    os << line;
    for (const auto& p : run["points"]) {
      double ratio = p.value("off_over_on_p50", 0.0);
      std::snprintf(line, sizeof(line), "    %-28s %10s %10s %10s %10s %8.2f\n",
                    Str(p, "point").c_str(),
                    Dur(p["cache_on"], "p50_ns").c_str(),
                    Dur(p["cache_off"], "p50_ns").c_str(),
                    Dur(p["cache_on"], "p99_ns").c_str(),
                    Dur(p["cache_off"], "p99_ns").c_str(), ratio);
      os << line;
    }
  }
}

void FsMatrix(const nlohmann::json& a, std::ostream& os) {
  auto it = a.find("fs_matrix");
  if (it == a.end()) return;
  std::vector<std::string> ok;
  os << "  filesystems (each on a loop device over an image in the scratch "
        "directory):\n";
  for (const auto& f : (*it)["filesystems"]) {
    os << "    " << Str(f, "filesystem") << ": ";
    if (Str(f, "status") == "ok") {
      ok.push_back(Str(f, "filesystem"));
      os << "mount options " << Str(f, "mount_options") << "\n";
    } else {
      os << "skipped: " << Str(f, "reason") << "\n";
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
  for (const auto& p : (*it)["points"]) {
    std::snprintf(cell, sizeof(cell), "    %-28s", Str(p, "point").c_str());
    os << cell;
    for (const auto& fs : ok) {
      std::string v = p.contains(fs)
                          ? Dur(p[fs], "p50_ns") + " / " + Dur(p[fs], "p99_ns")
                          : "-";
      std::snprintf(cell, sizeof(cell), " %22s", v.c_str());
      os << cell;
    }
    os << "\n";
  }
}

}  // namespace

void RenderDurabilityText(const nlohmann::json& analyses, std::ostream& os) {
  bool any = false;
  for (const char* k :
       {"durability", "write_cache", "checks", "write_cache_ab", "fs_matrix"}) {
    any |= analyses.contains(k);
  }
  if (!any) return;
  os << "\ndurability:\n";
  Verdicts(analyses, os);
  CacheViews(analyses, os);
  Etcd(analyses, os);
  Ab(analyses, os);
  FsMatrix(analyses, os);
}

}  // namespace disktune
