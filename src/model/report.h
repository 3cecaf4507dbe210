// The Report: the one model every command fills and every output format
// (JSON, text, HTML, Markdown, Prometheus) renders.
//
// Versioning: `schema_version` is "MAJOR.MINOR". MINOR bumps for added optional
// fields, MAJOR for anything else; reports/schema/report.v<MAJOR>.schema.json
// describes each major version and a reader refuses another major.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/core/status.h"
#include "src/model/analyses.h"
#include "src/model/bench_result.h"
#include "src/model/environment.h"
#include "src/model/probe_result.h"
#include "src/model/summary.h"
#include "src/model/tune_summary.h"

namespace disktune {

inline constexpr const char* kReportSchema = "disktune.report";
inline constexpr int kReportSchemaMajor = 1;
inline constexpr int kReportSchemaMinor = 9;

struct Report {
  std::string tool_version;
  std::string created_at;  // UTC, ISO 8601
  std::string command;     // "probe", "run", ...
  Environment environment;
  nlohmann::json config =
      nlohmann::json::object();  // the effective configuration
  std::vector<ProbeResult> probes;
  // Derived findings, one optional value per kind (src/model/analyses.h),
  // and the keys no kind describes as read. JSON only in ReportToJson /
  // ReportFromJson.
  model::Analyses analyses;
  std::vector<bench::BenchResult> benches;  // db_bench scenarios, in run order
  std::vector<std::string> warnings;
  // The tuner's recommendation and its evidence (src/tune), unset when the
  // run did not tune. Typed (src/model/tune_summary.h); JSON only in
  // ReportToJson / ReportFromJson.
  std::optional<model::TuneSummary> tune;
  // Whether the run finished or was cut short (SIGINT): "complete" /
  // "interrupted".
  std::string completion = "complete";
  uint64_t bytes_written = 0;  // by this run, to the scratch directory
  // The answer the report opens with (src/model/summary.h), set by the command
  // that measured (for its --service); absent in results written before 1.3.
  std::optional<Summary> summary;
};

// A new report stamped with the tool version and the current time.
Report NewReport(const std::string& command);

nlohmann::json ReportToJson(const Report& r);
// InvalidArgument for another schema or major version, Corruption for a
// document that does not have the report's shape (a tune object without the
// tuner's shape, or an analysis of a known kind without its struct's shape,
// included: the message names the member).
Result<Report> ReportFromJson(const nlohmann::json& j);
// Reads a result through the bounded JSON reader (src/core/json_input.h);
// every failure names the file and is InvalidArgument or Corruption.
Result<Report> ReadReportFile(const std::string& path);
// Writes through WriteOutputFile (src/core/output_file.h): atomically, and
// never over a file disktune did not write. `flag` names the option.
Status WriteJsonFile(const std::string& path, const nlohmann::json& j,
                     const std::string& flag = "output");

}  // namespace disktune
