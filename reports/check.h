// `disktune check`: requirements over a result, as a deployment gate.
//
// A requirement is `PATH OP VALUE[UNIT]`:
//   etcd.sync_latency_ns.p99 < 10ms      (a named figure: named_figures.h)
//   fsync.fdatasync.2300.prealloc.p99 < 10ms
//   rand_read.4k.qd32.iops >= 20000
//   seq_read.1m.qd1.bytes_per_sec > 400MB/s
//   bench.leveldb.fillrandom.ops_per_sec > 100000/s
//   analyses.checks.etcd.pass == true
// PATH is resolved by LookupFigure (reports/report_query.h, which states the
// rule for prefixes such as fsync.fdatasync.2300). OP is one of < <= > >= ==
// !=. UNIT: ns, us, ms, s for times; B, KiB, MiB, GiB, TiB, KB, MB, GB, TB for
// sizes; a size followed by /s for bandwidth; /s or ops/s (or nothing) for
// rates; nothing for counts. A time or a size needs its unit: a bare "10"
// after p99 could mean ms or us, and a wrong guess passes a slow disk.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reports/report_query.h"
#include "src/core/status.h"
#include "src/model/report.h"

namespace disktune {

enum class CompareOp { kLt, kLe, kGt, kGe, kEq, kNe };
const char* CompareOpText(CompareOp op);

struct Requirement {
  std::string text;    // as written
  std::string source;  // "--require", or "preset etcd"
  std::string why;     // a preset's reason, "" otherwise
  std::string path;
  size_t path_column = 1;  // 1-based column of `path` in `text`
  CompareOp op = CompareOp::kLt;
  double threshold = 0;    // in the canonical unit of `unit_dimension`
  std::string value_text;  // "10ms", as written
  size_t value_column = 1;
  std::string unit_text;   // "ms", "" for none
  size_t unit_column = 1;  // where the unit is (or would be)
  // The dimension the unit names; nullopt for a bare number or true/false.
  std::optional<Dimension> unit_dimension;
  bool bool_literal = false;
};

// InvalidArgument "column N: <what is wrong>" (1-based, counting bytes of
// `text`) when the expression is malformed, or when its unit does not fit
// the figure the path names (a time unit on a rate).
Result<Requirement> ParseRequirement(std::string_view text);

struct CheckPreset {
  std::string name;
  std::string summary;
  std::vector<std::string> expressions;
  std::string why;
};
const std::vector<CheckPreset>& CheckPresets();
// NotFound-like InvalidArgument naming the valid presets for an unknown name.
Result<std::vector<Requirement>> PresetRequirements(std::string_view name);

// kInsufficient: the figure is a percentile resting on fewer samples than
// MinSamplesForQuantile asks (154 syncs for a p99): never a pass.
// kUnreliable: the figure missed its limit while the machine was busy
// (sysinfo.h MachineWasBusy: the load before or after the measurements beyond
// kBusyLoadPerCpu; or other processes' I/O on the device, probes/foreign_io.h):
// not a verdict on the disk; measure again on a quiet machine. A pass on a busy
// machine stays a pass (load only slows figures).
enum class CheckOutcome {
  kPass,
  kFail,
  kNotMeasured,
  kInsufficient,
  kUnreliable
};
// "pass", "fail", "not_measured", "insufficient", "unreliable"
const char* CheckOutcomeName(CheckOutcome o);

// "PASS", "FAIL", "NOT MEASURED", "INSUFFICIENT", "UNRELIABLE".
const char* CheckOutcomeLabel(CheckOutcome o);

// Why the conditions make a failed figure unreliable ("load 6.97 before the
// measurements on 2 CPUs, busy above 4.00", "other I/O on vda: ..."), or ""
// when the machine was quiet.
std::string BusyMachineReason(const Report& report);

struct RequirementResult {
  Requirement requirement;
  CheckOutcome outcome = CheckOutcome::kNotMeasured;
  std::optional<Figure> figure;  // when measured
  std::string detail;            // why not measured
};

// InvalidArgument "column N: ..." when a path cannot name a figure in any
// report (an unknown metric); a figure this report lacks is kNotMeasured,
// which fails the check.
Result<std::vector<RequirementResult>> EvaluateRequirements(
    const Report& report, const std::vector<Requirement>& requirements);

// The exit code of a check: 0 every requirement passed, 1 one failed or was
// not measured, else 3 when one rests on too few samples or was measured on a
// busy machine.
int CheckExitCode(const std::vector<RequirementResult>& results);

// One aligned line per requirement (outcome, expression, measured value, what
// the path resolved to), then a summary line.
std::string RenderCheckText(const std::vector<RequirementResult>& results);
// {"schema": "disktune.check", "pass": ..., "requirements": [...]}.
nlohmann::json CheckToJson(const std::string& result_path,
                           const std::vector<RequirementResult>& results);

}  // namespace disktune
