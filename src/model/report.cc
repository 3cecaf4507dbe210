#include "src/model/report.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "generated/version.h"
#include "src/core/json_input.h"
#include "src/core/output_file.h"
#include "src/core/sysinfo.h"

namespace disktune {

Report NewReport(const std::string& command) {
  Report r;
  r.tool_version = DISKTUNE_VERSION;
  r.created_at = UtcTimestamp();
  r.command = command;
  return r;
}

nlohmann::json ReportToJson(const Report& r) {
  nlohmann::json j;
  j["schema"] = kReportSchema;
  j["schema_version"] = std::to_string(kReportSchemaMajor) + "." +
                        std::to_string(kReportSchemaMinor);
  j["tool_version"] = r.tool_version;
  j["created_at"] = r.created_at;
  j["command"] = r.command;
  j["completion"] = r.completion;
  j["environment"] = r.environment;
  j["config"] = r.config;
  j["probes"] = r.probes;
  j["analyses"] = model::AnalysesToJson(r.analyses);
  j["benches"] = r.benches;
  j["warnings"] = r.warnings;
  if (r.tune) j["tune"] = model::TuneSummaryToJson(*r.tune);
  if (r.summary) j["summary"] = *r.summary;
  j["bytes_written"] = r.bytes_written;
  return j;
}

Result<Report> ReportFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return Status::Corruption("not a JSON object");
  for (const char* key : {"schema", "schema_version"}) {
    if (j.contains(key) && !j[key].is_string()) {
      return Status::InvalidArgument(
          std::string(key) + " must be a string, e.g. \"" +
          (std::string(key) == "schema" ? kReportSchema : "1.0") +
          "\"; this is not a disktune result");
    }
  }
  if (j.value("schema", "") != kReportSchema) {
    return Status::InvalidArgument("not a disktune report (schema is '" +
                                   j.value("schema", std::string("missing")) +
                                   "', expected '" + kReportSchema + "')");
  }
  std::string version = j.value("schema_version", "");
  int major = -1;
  if (std::sscanf(version.c_str(), "%d.", &major) != 1 ||
      major != kReportSchemaMajor) {
    return Status::InvalidArgument(
        "report schema_version " + version +
        " is not supported by this disktune (reads " +
        std::to_string(kReportSchemaMajor) +
        ".x); re-run the probe with this version");
  }
  try {
    Report r;
    r.tool_version = j.at("tool_version").get<std::string>();
    r.created_at = j.at("created_at").get<std::string>();
    r.command = j.value("command", "");
    r.completion = j.value("completion", "complete");
    r.environment = j.at("environment").get<Environment>();
    r.config = j.value("config", nlohmann::json::object());
    r.probes = j.at("probes").get<std::vector<ProbeResult>>();
    if (auto it = j.find("analyses"); it != j.end() && !it->is_null()) {
      Result<model::Analyses> a = model::AnalysesFromJson(*it);
      if (!a.ok()) {
        return Status::Corruption(
            a.status().message() +
            " (re-run the command that wrote it, or remove that key)");
      }
      r.analyses = std::move(*a);
    }
    if (auto it = j.find("benches"); it != j.end()) {
      for (const auto& b : *it) {
        Result<bench::BenchResult> br = bench::BenchResultFromJson(b);
        if (!br.ok()) return br.status().WithContext("benches");
        r.benches.push_back(std::move(*br));
      }
    }
    r.warnings = j.value("warnings", std::vector<std::string>{});
    if (auto it = j.find("tune"); it != j.end() && !it->is_null()) {
      Result<model::TuneSummary> t = model::TuneSummaryFromJson(*it);
      if (!t.ok()) {
        return Status::Corruption(
            "the tune object is not the tuner's: " + t.status().message() +
            " (re-run `disktune tune`, or remove the tune object)");
      }
      r.tune = std::move(*t);
    }
    if (auto it = j.find("summary"); it != j.end() && it->is_object())
      r.summary = it->get<Summary>();
    r.bytes_written = j.value("bytes_written", uint64_t{0});
    return r;
  } catch (const nlohmann::json::exception& e) {
    return Status::Corruption("report does not have the expected shape: " +
                              DescribeJsonError(e));
  }
}

Result<Report> ReadReportFile(const std::string& path) {
  Result<nlohmann::json> j = ReadJsonInput(path, "result file");
  if (!j.ok()) return j.status();
  Result<Report> r = ReportFromJson(*j);
  if (!r.ok()) return r.status().WithContext(path);
  return r;
}

Status WriteJsonFile(const std::string& path, const nlohmann::json& j,
                     const std::string& flag) {
  return WriteOutputFile(path, DumpJson(j) + "\n", flag);
}

}  // namespace disktune
