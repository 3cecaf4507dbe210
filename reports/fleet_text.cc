// FleetText and FleetPrometheus (fleet_render.h).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include "reports/fleet_predicted.h"
#include "reports/fleet_render.h"
#include "reports/prometheus_report.h"
#include "reports/render_util.h"

namespace disktune {
namespace {

// A figure's value in a cell; "-" when the host did not measure it.
std::string Cell(const FleetFigure& f, const FleetCell& c) {
  if (!c.value) return "-";
  std::string s = FormatFigure(*c.value, f.dimension, f.metric);
  return c.outlier ? s + " *" : s;
}

void Table(std::ostream& os, const std::vector<std::string>& header,
           const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width(header.size());
  for (size_t i = 0; i < header.size(); i++) width[i] = header[i].size();
  for (const auto& r : rows) {
    for (size_t i = 0; i < r.size(); i++)
      width[i] = std::max(width[i], r[i].size());
  }
  auto line = [&](const std::vector<std::string>& r) {
    std::string out;
    for (size_t i = 0; i < r.size(); i++) {
      out += r[i];
      if (i + 1 < r.size()) out += std::string(width[i] - r[i].size() + 2, ' ');
    }
    os << "  " << out << "\n";
  };
  line(header);
  for (const auto& r : rows) line(r);
}

std::string PromValue(double v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, res.ptr);
}

// A row per host (in group order) and a column per engine and scenario; a
// host the model cannot predict gets its reason on a line of its own.
void PredictionsText(std::ostream& os, const FleetReport& fleet) {
  if (!fleet.prediction) return;
  os << "\n" << FleetPredictionNote(fleet) << "\n";
  std::vector<FleetPredictedColumn> cols =
      FleetPredictedColumns(*fleet.prediction);
  std::vector<std::string> header = {"host"};
  for (const FleetPredictedColumn& c : cols) header.push_back(c.label);
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> reasons;
  bool missing = false;
  for (const FleetGroup& g : fleet.groups) {
    for (size_t h : g.hosts) {
      const FleetHost& host = fleet.hosts[h];
      std::vector<std::string> r = {host.host};
      for (const FleetPredictedColumn& c : cols) {
        std::string cell;
        if (c.engine < host.predictions.size()) {
          cell = FleetPredictedCell(host.predictions[c.engine], c.scenario);
        }
        r.push_back(cell.empty() ? "-" : cell);
      }
      for (const FleetPrediction& p : host.predictions) {
        std::string why = FleetNotPredictedText(p);
        if (why.empty()) continue;
        bool first = std::find(reasons.begin(), reasons.end(),
                               host.host + ": " + why) == reasons.end();
        if (first) reasons.push_back(host.host + ": " + why);
        missing = missing || !p.missing_probe_figures.empty();
      }
      rows.push_back(r);
    }
  }
  // A table of dashes says nothing the reasons below do not.
  if (reasons.size() < rows.size() || rows.empty()) Table(os, header, rows);
  for (const std::string& why : reasons) os << "  " << why << "\n";
  if (missing) {
    os << "  to predict a host, measure the model's points on it: "
       << fleet.prediction->probe_command << "\n";
  }
}

}  // namespace

std::string FleetText(const FleetReport& fleet) {
  std::ostringstream os;
  os << "disktune fleet: " << fleet.hosts.size() << " result"
     << (fleet.hosts.size() == 1 ? "" : "s") << ", " << fleet.groups.size()
     << " device-model group" << (fleet.groups.size() == 1 ? "" : "s") << ", "
     << fleet.outliers.size() << " outlier"
     << (fleet.outliers.size() == 1 ? "" : "s") << "\n";
  for (const FleetGroup& g : fleet.groups) {
    os << "\ngroup: " << g.key << " (" << g.hosts.size() << " host"
       << (g.hosts.size() == 1 ? "" : "s") << ")";
    if (!g.judged) {
      os << ": fewer than " << fleet.rule.min_hosts
         << " hosts, medians only, no outliers";
    }
    os << "\n";
    // Only the figures someone in the group measured, to keep it narrow.
    std::vector<size_t> shown;
    for (size_t f = 0; f < fleet.figures.size(); f++) {
      if (g.stats[f].hosts > 0) shown.push_back(f);
    }
    std::vector<std::string> header = {"host"};
    for (size_t f : shown) header.push_back(fleet.figures[f].label);
    header.insert(header.end(), {"write cache", "flush verdict", "profile"});
    std::vector<std::vector<std::string>> rows;
    for (size_t h : g.hosts) {
      const FleetHost& host = fleet.hosts[h];
      std::vector<std::string> r = {host.host};
      for (size_t f : shown) r.push_back(Cell(fleet.figures[f], host.cells[f]));
      auto or_dash = [](const std::string& s) { return s.empty() ? "-" : s; };
      r.push_back(or_dash(host.write_cache));
      r.push_back(or_dash(host.flush_verdict));
      r.push_back(or_dash(host.recommended));
      rows.push_back(r);
    }
    std::vector<std::string> median = {"median"};
    for (size_t f : shown) {
      const FleetFigure& fig = fleet.figures[f];
      median.push_back(
          FormatFigure(*g.stats[f].median, fig.dimension, fig.metric));
    }
    auto or_dash = [](const std::string& s) { return s.empty() ? "-" : s; };
    median.push_back(or_dash(g.write_cache_majority));
    median.push_back(or_dash(g.flush_verdict_majority));
    median.push_back("");
    rows.push_back(median);
    Table(os, header, rows);
  }
  const FleetRule& r = fleet.rule;
  os << "\noutliers (* above): more than " << Fixed(r.max_mads, 1)
     << " MADs (on a log scale) and " << RatioRuleText(r)
     << " from the group median, in groups of " << r.min_hosts
     << " or more hosts of one device model\n";
  if (fleet.outliers.empty()) os << "  none\n";
  for (const FleetOutlier& o : fleet.outliers) {
    os << "  " << o.host << ": " << o.text << "\n";
  }
  PredictionsText(os, fleet);
  for (const FleetSkipped& s : fleet.skipped) {
    os << "skipped " << s.file << ": " << s.error << "\n";
  }
  return os.str();
}

std::string FleetPrometheus(const FleetReport& fleet) {
  std::ostringstream os;
  auto labels = [](const FleetHost& h) {
    return "host=\"" + PrometheusLabelValue(h.host) + "\",group=\"" +
           PrometheusLabelValue(h.group) + "\"";
  };
  for (size_t f = 0; f < fleet.figures.size(); f++) {
    const FleetFigure& fig = fleet.figures[f];
    // Prometheus wants base units: seconds, not the JSON's nanoseconds.
    std::string name = "disktune_fleet_" + fig.id;
    double scale = 1;
    if (name.ends_with("_ns")) {
      name = name.substr(0, name.size() - 3) + "_seconds";
      scale = 1e-9;
    }
    bool any = false;
    for (const FleetHost& h : fleet.hosts) {
      if (!h.cells[f].value) continue;
      if (!any) {
        os << "# HELP " << name << " " << fig.label << ", per host\n";
        os << "# TYPE " << name << " gauge\n";
        any = true;
      }
      os << name << "{" << labels(h) << "} "
         << PromValue(*h.cells[f].value * scale) << "\n";
    }
  }
  os << "# HELP disktune_fleet_outlier 1 when the host is an outlier for the "
        "figure in its device-model group\n";
  os << "# TYPE disktune_fleet_outlier gauge\n";
  for (const FleetHost& h : fleet.hosts) {
    for (size_t f = 0; f < fleet.figures.size(); f++) {
      if (!h.cells[f].mads) continue;
      os << "disktune_fleet_outlier{" << labels(h) << ",figure=\""
         << fleet.figures[f].id << "\"} " << (h.cells[f].outlier ? 1 : 0)
         << "\n";
    }
    for (const FleetOutlier& o : fleet.outliers) {
      if (o.host != h.host || o.direction != "differs") continue;
      os << "disktune_fleet_outlier{" << labels(h) << ",figure=\"" << o.figure
         << "\"} 1\n";
    }
  }
  os << "# HELP disktune_fleet_outliers outliers found in the fleet\n";
  os << "# TYPE disktune_fleet_outliers gauge\n";
  os << "disktune_fleet_outliers " << fleet.outliers.size() << "\n";
  os << FleetPredictionsPrometheus(fleet);
  return os.str();
}

}  // namespace disktune
