// Small formatting and lookup helpers shared by the report renderers (text,
// HTML, Markdown, Prometheus), compare and check.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/core/number_text.h"
#include "src/model/analysis_checks.h"
#include "src/model/report.h"

namespace disktune {

// The disk a probe measured: its own "disk" parameter (fsync points on a loop
// device carry one), else the report's device, else "".
std::string ProbeDevice(const Report& report, const ProbeResult& p);
// The report's disk ("vda"), or "" without one.
std::string ReportDevice(const Report& report);

// For each bench (same order), its occurrence among the benches of the same
// engine and scenario, from 1: a set that runs readrandom twice gives 1 then 2.
std::vector<int> BenchOccurrences(
    const std::vector<bench::BenchResult>& benches);
// "readrandom", or "readrandom#2" for the second run on that engine.
std::string BenchKey(const bench::BenchResult& b, int occurrence);

// A string member, or "" when absent or not a string.
std::string JsonStr(const nlohmann::json& j, std::string_view key);
// "PASS", "FAIL" or "INSUFFICIENT" for a named check under analyses.checks
// (its "verdict", or "pass" in results written before verdicts had
// sample counts); with " (154 of 1,000 samples)" when insufficient.
std::string CheckVerdictText(const NamedCheck& check);
// FormatDuration of a figure in nanoseconds, or "-" when it is unset.
std::string DurationOrDash(const std::optional<uint64_t>& ns);
// A numeric member, or nullptr when absent or not a number.
const nlohmann::json* JsonNum(const nlohmann::json& j, std::string_view key);

// A JSON scalar as text for a table cell ("true", "4096", "ext4"); objects and
// arrays compactly.
std::string JsonScalarText(const nlohmann::json& v);

// An array of lines laid out for a terminal (the tuner's explanation): all
// strings, and some indented with a leading space. Reports keep their columns.
bool IsPreformatted(const nlohmann::json& v);

// A value for a person, read through its key's unit suffix: *_bytes ->
// "64 MiB", *_ns -> "1.25 ms", *_per_sec -> "4,643/s" (bytes_per_sec ->
// "65.7 MB/s"), bytes_* -> "1.6 GiB", eta (the search's) in words; other
// scalars as JsonScalarText. Objects and arrays compactly.
std::string HumanValue(std::string_view key, const nlohmann::json& v);
// The label a person reads beside HumanValue(key, v): the key without the
// unit suffix the value now shows ("elapsed_ns" -> "elapsed" beside
// "37.1 s"); other keys as they are.
std::string FieldLabel(std::string_view key, const nlohmann::json& v);

// A short label for a probe point: "4 KiB sequential reads, QD 1",
// "fdatasync 2300 append" (fsync points: what their params say, as their
// name after "fsync." reads).
std::string ProbeLabel(const ProbeResult& p);

// The tuner's part of a report split for display: its scalar members
// (engine, workload, budget...) in one object, then the names of its
// structured members, "recommendation" and "evidence" first, the rest as
// stored.
struct TuneSections {
  nlohmann::json scalars = nlohmann::json::object();
  std::vector<std::string> sections;
};
TuneSections SplitTune(const nlohmann::json& tune);

// The keys of a JSON object in display order: the naming keys (name, knob,
// id, engine, scenario, point) first, then the rest as stored.
std::vector<std::string> DisplayKeys(const nlohmann::json& object);

// An array of objects as table cells in words: the first row is the header
// (a column per key any element has, in display order), then a row per
// element: a value with its unit, "-" where the element lacks the key, an
// array as "a / b", an object as "label = value; ...".
std::vector<std::vector<std::string>> ObjectTableCells(
    const nlohmann::json& array);

// "*" when `samples` are fewer than a q-quantile needs
// (MinSamplesForQuantile), else " "; sets *any when it marks.
std::string FewSamplesMark(uint64_t samples, double q, bool* any);
// The footnote every table with such a mark carries.
inline constexpr const char* kFewSamplesNote =
    "* fewer samples than the percentile needs (10 / (1 - q): p99 1,000, "
    "p99.9 10,000); no verdict rests on it\n";

// The random-read curve in one sentence: its knee (the depth past which the
// next step gains < 10% IOPS or doubles the p99) and the best measured.
struct RandReadSaturation;
std::string SaturationText(const RandReadSaturation& s);

// Whether a result is a durability point on the scratch directory with the
// write cache as found (not one of the cache A/B or the filesystem matrix),
// by its params.
bool IsScratchFsync(const ProbeResult& p);

}  // namespace disktune
