#include "reports/fleet_predicted.h"

#include <charconv>
#include <sstream>

#include "reports/prometheus_report.h"
#include "reports/render_util.h"

namespace disktune {
namespace {

using nlohmann::json;

std::string Join(const std::vector<std::string>& items,
                 const std::string& sep) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string PromValue(double v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, res.ptr);
}

}  // namespace

json FleetPredictionBasisToJson(const FleetPredictionBasis& b) {
  json j = {{"engines", b.engines},
            {"scenarios", b.scenarios},
            {"num", b.num},
            {"probe_command", b.probe_command}};
  if (!b.cpu_calibrated_on.empty()) {
    j["cpu_calibrated_on"] = b.cpu_calibrated_on;
  }
  if (!b.calibration_error.empty()) {
    j["calibration_error"] = b.calibration_error;
  }
  return j;
}

json FleetHostPredictionsToJson(const FleetHost& host) {
  json out = json::array();
  for (const FleetPrediction& p : host.predictions) {
    json jp = {{"engine", p.engine}};
    if (p.figures.empty()) {
      jp["not_predicted"] = FleetNotPredictedText(p);
      if (!p.missing_probe_figures.empty()) {
        jp["missing_probe_figures"] = p.missing_probe_figures;
      }
      out.push_back(jp);
      continue;
    }
    jp["figures"] = json::object();
    for (const FleetPredicted& f : p.figures) {
      json ceilings = json::object();
      for (const auto& [bound, ops] : f.ceilings_ops_per_sec) {
        ceilings[bound] = ops;
      }
      jp["figures"][f.scenario] = {{"ops_per_sec", f.ops_per_sec},
                                   {"bound", f.bound},
                                   {"ceilings_ops_per_sec", ceilings}};
    }
    out.push_back(jp);
  }
  return out;
}

std::string FleetPredictionNote(const FleetReport& fleet) {
  if (!fleet.prediction) return "";
  const FleetPredictionBasis& b = *fleet.prediction;
  std::string s =
      "predicted by disktune predict's model from each host's "
      "probe figures and memory, " +
      Thousands(b.num) + " keys";
  if (b.cpu_calibrated_on.empty()) {
    return s + "; no host predicted: " +
           (b.calibration_error.empty()
                ? std::string("no host has the probe figures the model needs")
                : "the CPU calibration failed: " + b.calibration_error);
  }
  size_t other = 0, known = 0;
  for (const FleetHost& h : fleet.hosts) {
    if (h.cpu_model.empty()) continue;
    known++;
    if (h.cpu_model != b.cpu_calibrated_on) other++;
  }
  s += "; the CPU cost per op is this machine's (" + b.cpu_calibrated_on +
       ", measured in memory once for every host), not each host's";
  if (other > 0) {
    s += ": " + std::to_string(other) + " of " + std::to_string(known) +
         " hosts have another CPU";
  }
  return s;
}

std::vector<FleetPredictedColumn> FleetPredictedColumns(
    const FleetPredictionBasis& basis) {
  std::vector<FleetPredictedColumn> cols;
  for (size_t e = 0; e < basis.engines.size(); e++) {
    for (const std::string& s : basis.scenarios) {
      cols.push_back({e, s, basis.engines[e] + " " + s});
    }
  }
  return cols;
}

std::string FleetPredictedCell(const FleetPrediction& p,
                               const std::string& scenario) {
  for (const FleetPredicted& f : p.figures) {
    if (f.scenario == scenario) {
      return Thousands(f.ops_per_sec) + "/s " + f.bound;
    }
  }
  return "";
}

std::string FleetNotPredictedText(const FleetPrediction& p) {
  if (!p.figures.empty()) return "";
  if (!p.missing_probe_figures.empty()) {
    return "not predicted: missing " + Join(p.missing_probe_figures, ", ");
  }
  return "not predicted: " + p.not_predicted;
}

std::string FleetPredictionsPrometheus(const FleetReport& fleet) {
  if (!fleet.prediction) return "";
  std::ostringstream os;
  os << "# HELP disktune_fleet_predicted_ops_per_sec disktune predict's "
        "figure from the host's probes (CPU cost measured on the machine "
        "that ran fleet), per host, engine and scenario; bound: the resource "
        "that limits it\n";
  os << "# TYPE disktune_fleet_predicted_ops_per_sec gauge\n";
  for (const FleetHost& h : fleet.hosts) {
    for (const FleetPrediction& p : h.predictions) {
      for (const FleetPredicted& f : p.figures) {
        os << "disktune_fleet_predicted_ops_per_sec{host=\""
           << PrometheusLabelValue(h.host) << "\",group=\""
           << PrometheusLabelValue(h.group) << "\",engine=\""
           << PrometheusLabelValue(p.engine) << "\",scenario=\""
           << PrometheusLabelValue(f.scenario) << "\",bound=\""
           << PrometheusLabelValue(f.bound) << "\"} "
           << PromValue(f.ops_per_sec) << "\n";
      }
    }
  }
  return os.str();
}

}  // namespace disktune
