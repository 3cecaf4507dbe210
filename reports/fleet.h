// The fleet view: many hosts' results side by side, the figures that matter
// per host, the median of each within a group of like hardware, and the hosts
// that stand out from it (`disktune fleet`).
//
// The outlier rule, and why (the defaults of FleetRule):
//   Hosts are grouped by device model first: an NVMe host is not an outlier
//   among SATA hosts, it is different hardware.
//   Within a group of at least `min_hosts` results, a figure is an outlier
//   when BOTH
//     - it lies more than `max_mads` robust standard deviations from the
//       group median, measured on the logarithm of the figure: the robust
//       standard deviation is the median absolute deviation (MAD) of
//       ln(value) x 1.4826 (the MAD of a normal sample is 0.6745 sigma).
//       3.5 is Iglewicz and Hoaglin's cut-off for their modified z-score:
//       the median and the MAD are not dragged by the odd host itself, as a
//       mean and a standard deviation would be, so one slow disk in ten does
//       not hide behind the spread it causes. The logarithm because disk
//       figures spread by factors: a host at half the IOPS is as far off as
//       one at twice, and on a linear scale a rate can never fall more than
//       one median below it, so a very slow host would stay few MADs out.
//     - it differs from the median by at least `min_ratio` (x or 1/x). A
//       fleet of identical disks has a tiny MAD, and a host 8% slower would
//       be many MADs out while being no problem at all; --quick probes of
//       identical hosts differ by enough that the ratio alone would not
//       tell the odd host, but with the MAD test it only has to stop the
//       small differences.
//     - and by at least the figure's noise floor where that is larger
//       (`noise_floors`): a host's own back-to-back identical runs move a
//       figure that far, so a host that far from its peers is not odd.
//   The figures behind these rules (the playbook test's hosts, identical
//   hosts' spread, the noise floors) are in benchmarks/README.md, "Fleet:
//   one report that names the odd host".
//   The MAD is floored at ln(1.01): figures that agree closer than 1% are
//   equal within the measurement's resolution (and a MAD of 0, when over
//   half the hosts agree exactly, would make every other value infinitely
//   far out).
//   Both directions are flagged: a host whose fdatasync is 10x *faster* than
//   its identical peers is as suspect (a cache that does not flush) as one
//   10x slower. `direction` says which.
//   A group of fewer than `min_hosts` results gets medians but no judgement:
//   with two hosts there is no telling which one is odd.
//   Categorical facts (the kernel's write cache mode, the flush verdict) are
//   flagged when a host differs from a strict majority of its group.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reports/report_query.h"
#include "src/model/report.h"

namespace disktune {

inline constexpr const char* kFleetSchema = "disktune.fleet";
inline constexpr int kFleetSchemaMajor = 1;
inline constexpr int kFleetSchemaMinor = 1;  // 1.1: predictions

struct FleetRule {
  double max_mads = 3.5;
  double min_ratio = 1.5;
  size_t min_hosts = 3;
  double mad_floor_fraction = 0.01;
  bool group_by_model = true;
  // Raise min_ratio, per figure, to the noise floor of its kind
  // (reports/noise_floor.h): how far two back-to-back identical runs on one
  // host were seen apart. A host that differs from the median by less than
  // one host differs from itself is not shown to be odd.
  bool noise_floors = true;
};
// "at least 1.50x (or the figure's noise floor, where larger: ...)": the
// ratio part of the rule, as the text, HTML and JSON state it.
std::string RatioRuleText(const FleetRule& r);
// The scale factor from a MAD to a normal sample's standard deviation.
inline constexpr double kMadToSigma = 1.4826;

// One figure compared across the fleet.
struct FleetFigure {
  std::string id;     // JSON key, with its unit: "read_4k_qd1_p50_ns"
  std::string label;  // "4 KiB QD1 read p50"
  std::string path;   // the report_query path: "rand_read.4k.qd1.p50"
  Dimension dimension = Dimension::kCount;
  std::string metric;  // for FormatFigure: "p50", "iops", ...
  bool higher_is_better = false;
  // The ratio to the median this figure must reach to be an outlier:
  // FleetRule::min_ratio, or the figure's noise floor where larger.
  double min_ratio = 1.5;
};

struct FleetInput {
  std::string file;
  Report report;
};

struct FleetCell {
  std::optional<double> value;  // absent: not measured on this host
  // Set when the host's group was judged (enough hosts with this figure).
  // |ln(value) - ln(median)| / (MAD of ln x 1.4826, floored)
  std::optional<double> mads;
  std::optional<double> ratio;  // max(value, median) / min(value, median)
  bool outlier = false;
  std::string direction;  // "worse" / "better", for an outlier
};

struct FleetOutlier {
  std::string host;
  std::string figure;  // a FleetFigure id, or "write_cache" / "flush_verdict"
  std::string direction;  // "worse" / "better" / "differs"
  std::string text;       // one line for people
};

// One figure `disktune predict`'s model (src/predict) gives a host from its
// probe figures.
struct FleetPredicted {
  std::string scenario;  // "fillsync", "fillrandom", "readrandom-cold"
  double ops_per_sec = 0;
  std::string bound;  // predict::BoundName: "sync_latency", "cpu", ...
  // Each resource's ceiling: {"cpu", 180000}, {"sync_latency", 9500}, ...
  std::vector<std::pair<std::string, double>> ceilings_ops_per_sec;
};

// An engine's predicted figures for one host, or why there are none.
struct FleetPrediction {
  std::string engine;
  std::vector<FleetPredicted> figures;
  // Set when `figures` is empty: the probe points the model needs and the
  // result lacks ("seq_write.1m"), or another reason in `not_predicted`.
  std::vector<std::string> missing_probe_figures;
  std::string not_predicted;
};

// What every host's prediction shares: the workload, and whose CPU.
struct FleetPredictionBasis {
  std::vector<std::string> engines;
  std::vector<std::string> scenarios;
  uint64_t num = 0;
  // The CPU of the machine `fleet` ran on, where the engines' CPU cost per
  // op was measured (in memory) once for every host; "" when it was not.
  std::string cpu_calibrated_on;
  std::string calibration_error;  // why it was not; "" otherwise
  std::string probe_command;      // what measures the model's points
};

struct FleetHost {
  std::string host;      // the label shown: hostname, or hostname/file stem
  std::string hostname;  // as recorded in the result's environment
  std::string file;
  std::string group;
  std::string command;
  std::string created_at;
  std::string device;            // "vda (Virtio disk)"
  std::vector<FleetCell> cells;  // one per FleetReport::figures
  std::string write_cache;       // kernel's view; "" when unknown
  std::string flush_verdict;     // the scratch directory's verdict; ""
  std::string recommended;       // "mixed-leveldb: write_buffer_bytes"; ""
  std::string cpu_model;         // the host's own CPU, as recorded
  // One per FleetPredictionBasis::engines; empty when the fleet has no
  // prediction basis.
  std::vector<FleetPrediction> predictions;
};

struct FleetGroupStat {
  size_t hosts = 0;  // hosts of the group with this figure
  std::optional<double> median;
  // The median absolute deviation of ln(value), unscaled.
  std::optional<double> mad_ln;
};

struct FleetGroup {
  std::string key;                    // the device model, or "all hosts"
  std::vector<size_t> hosts;          // indices into FleetReport::hosts
  bool judged = false;                // at least min_hosts results
  std::vector<FleetGroupStat> stats;  // one per FleetReport::figures
  std::string write_cache_majority;
  std::string flush_verdict_majority;
};

struct FleetSkipped {
  std::string file;
  std::string error;
};

struct FleetReport {
  FleetRule rule;
  std::string created_at;
  std::vector<FleetFigure> figures;
  std::vector<FleetHost> hosts;
  std::vector<FleetGroup> groups;
  std::vector<FleetOutlier> outliers;
  std::vector<FleetSkipped> skipped;
  // Absent when `fleet --no-predict` ran.
  std::optional<FleetPredictionBasis> prediction;
};

// Median of `v` (copied, not required sorted); nullopt when empty.
std::optional<double> Median(std::vector<double> v);

// Builds the fleet view one result at a time, so a caller can drop each
// Report after Add(): `fleet` over 1,000 results holds 1,000 rows of
// figures, not 1,000 reports. Hosts keep the order added within a group;
// groups are ordered by key.
class FleetBuilder {
 public:
  explicit FleetBuilder(const FleetRule& rule);
  // REQUIRES: each file is added once. `predictions`: the host's, one per
  // engine of the basis set with SetPredictionBasis (none without one).
  void Add(const std::string& file, const Report& report,
           std::vector<FleetPrediction> predictions = {});
  // The predictions' shared basis; may be set or updated before Finish().
  void SetPredictionBasis(FleetPredictionBasis basis);
  // A file that could not be read: listed in every output.
  void Skip(const std::string& file, const std::string& error);
  // The host labels, groups, medians and outliers. The builder is empty
  // afterwards.
  FleetReport Finish();

 private:
  FleetReport fleet_;
};

// FleetBuilder over `inputs`, in order.
FleetReport BuildFleet(const std::vector<FleetInput>& inputs,
                       const FleetRule& rule);

nlohmann::json FleetToJson(const FleetReport& fleet);

}  // namespace disktune
