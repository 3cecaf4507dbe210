#include "reports/check.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "reports/render_util.h"
#include "src/core/units.h"
#include "src/model/named_figures.h"

namespace disktune {
namespace {

constexpr const char* kUnitHelp =
    "time: ns, us, ms, s, m, h; size: B, KiB, MiB, GiB, KB, MB, GB; "
    "bandwidth: a size and /s (100MB/s); rate: /s or ops/s";

// A unit of the command line's grammar (core/units.h), in check's terms.
struct UnitInfo {
  Dimension dimension;
  double factor;  // to the canonical unit (bytes, ns)
};
std::optional<UnitInfo> CheckUnit(std::string_view u) {
  std::optional<UnitFactor> f = FindUnit(u);
  if (!f) return std::nullopt;
  return UnitInfo{
      f->kind == UnitKind::kSize ? Dimension::kBytes : Dimension::kTime,
      f->factor};
}

bool IsPathChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ||
         c == '#' || c == '-';
}

bool IsUnitChar(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '/' ||
         static_cast<unsigned char>(c) >= 0x80;
}

Status ColumnError(size_t offset, const std::string& what) {
  return Status::InvalidArgument("column " + std::to_string(offset + 1) + ": " +
                                 what);
}

std::string Quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

// What is at `pos`, for "found ..." in a message.
std::string Found(std::string_view text, size_t pos) {
  if (pos >= text.size()) return "the end of the expression";
  size_t end = pos;
  while (end < text.size() &&
         !std::isspace(static_cast<unsigned char>(text[end])) &&
         end - pos < 12) {
    end++;
  }
  return Quoted(text.substr(pos, std::max<size_t>(end - pos, 1)));
}

std::string CanonicalUnitName(Dimension d) {
  switch (d) {
    case Dimension::kTime:
      return "ns";
    case Dimension::kBytes:
      return "bytes";
    case Dimension::kByteRate:
      return "bytes_per_sec";
    case Dimension::kRate:
      return "ops_per_sec";
    case Dimension::kCount:
      return "count";
  }
  return "";
}

// The units a dimension takes, for an error message.
std::string UnitsFor(Dimension d) {
  switch (d) {
    case Dimension::kTime:
      return "a time unit (ns, us, ms, s), e.g. 10ms";
    case Dimension::kBytes:
      return "a size unit (B, KiB, MiB, GiB, KB, MB, GB), e.g. 4KiB";
    case Dimension::kByteRate:
      return "a bandwidth unit (a size and /s), e.g. 100MB/s";
    case Dimension::kRate:
      return "no unit, /s or ops/s, e.g. 5000/s";
    case Dimension::kCount:
      return "no unit";
  }
  return "";
}

bool Compare(double a, CompareOp op, double b) {
  switch (op) {
    case CompareOp::kLt:
      return a < b;
    case CompareOp::kLe:
      return a <= b;
    case CompareOp::kGt:
      return a > b;
    case CompareOp::kGe:
      return a >= b;
    case CompareOp::kEq:
      return a == b;
    case CompareOp::kNe:
      return a != b;
  }
  return false;
}

std::string MetricOf(const std::string& path) {
  size_t dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

// Whether a metric's name alone says what it measures: the probe and bench
// figures, and names with a unit suffix. Others (a probe's "metrics" keys
// such as flushes_per_sync, analyses entries) are counts unless a suffix says
// otherwise, which is the same rule DimensionOfMetric applies.
bool MetricDimensionIsKnown(const std::string& metric) {
  const auto& p = KnownProbeMetrics();
  const auto& b = KnownBenchMetrics();
  if (std::find(p.begin(), p.end(), metric) != p.end()) return true;
  if (std::find(b.begin(), b.end(), metric) != b.end()) return true;
  return DimensionOfMetric(metric) != Dimension::kCount;
}

// The requirement's unit against the figure's dimension. `metric_offset` is
// where the metric starts in the expression, for the message.
Status UnitFits(const Requirement& req, const std::string& metric,
                Dimension want, size_t metric_offset) {
  if (req.bool_literal) return Status::OK();
  size_t unit_offset = req.unit_column - 1;
  if (!req.unit_dimension) {
    if (want != Dimension::kCount && want != Dimension::kRate) {
      return ColumnError(unit_offset, Quoted(metric) + " is " +
                                          DimensionName(want) + "; give " +
                                          Quoted(req.value_text) + " " +
                                          UnitsFor(want));
    }
  } else if (*req.unit_dimension != want) {
    return ColumnError(unit_offset, Quoted(req.unit_text) + " is " +
                                        DimensionName(*req.unit_dimension) +
                                        " but " + Quoted(metric) + " (column " +
                                        std::to_string(metric_offset + 1) +
                                        ") is " + DimensionName(want) +
                                        "; use " + UnitsFor(want));
  }
  return Status::OK();
}

std::string MeasuredText(const RequirementResult& r) {
  if (!r.figure) return "-";
  if (r.figure->is_bool) return r.figure->value != 0 ? "true" : "false";
  return FormatFigure(r.figure->value, r.figure->dimension, r.figure->metric);
}

}  // namespace

const char* CompareOpText(CompareOp op) {
  switch (op) {
    case CompareOp::kLt:
      return "<";
    case CompareOp::kLe:
      return "<=";
    case CompareOp::kGt:
      return ">";
    case CompareOp::kGe:
      return ">=";
    case CompareOp::kEq:
      return "==";
    case CompareOp::kNe:
      return "!=";
  }
  return "?";
}

const char* CheckOutcomeName(CheckOutcome o) {
  switch (o) {
    case CheckOutcome::kPass:
      return "pass";
    case CheckOutcome::kFail:
      return "fail";
    case CheckOutcome::kNotMeasured:
      return "not_measured";
    case CheckOutcome::kInsufficient:
      return "insufficient";
    case CheckOutcome::kUnreliable:
      return "unreliable";
  }
  return "?";
}

const char* CheckOutcomeLabel(CheckOutcome o) {
  switch (o) {
    case CheckOutcome::kPass:
      return "PASS";
    case CheckOutcome::kFail:
      return "FAIL";
    case CheckOutcome::kNotMeasured:
      return "NOT MEASURED";
    case CheckOutcome::kInsufficient:
      return "INSUFFICIENT";
    case CheckOutcome::kUnreliable:
      return "UNRELIABLE";
  }
  return "?";
}

std::string BusyMachineReason(const Report& report) {
  const SystemInfo& s = report.environment.system;
  std::string other_io = ForeignIoReason(report.environment);
  if (!MachineWasBusy(s)) {
    return other_io.empty() ? ""
                            : other_io + ": measure again on a quiet machine";
  }
  if (!other_io.empty()) other_io += "; ";
  double limit = kBusyLoadPerCpu * s.cpu_count;
  std::string when;
  if (LoadIsBusy(s.load_average_1m, s.cpu_count))
    when = "load " + Fixed(*s.load_average_1m, 2) + " before";
  if (LoadIsBusy(s.load_average_1m_after, s.cpu_count)) {
    when += std::string(when.empty() ? "load " : ", ") +
            Fixed(*s.load_average_1m_after, 2) + " after";
  }
  return other_io + when + " the measurements on " +
         std::to_string(s.cpu_count) + " CPUs (busy above " + Fixed(limit, 2) +
         "): measure again on a quiet machine";
}

int CheckExitCode(const std::vector<RequirementResult>& results) {
  bool insufficient = false;
  for (const auto& r : results) {
    if (r.outcome == CheckOutcome::kFail ||
        r.outcome == CheckOutcome::kNotMeasured)
      return 1;
    insufficient |= r.outcome == CheckOutcome::kInsufficient ||
                    r.outcome == CheckOutcome::kUnreliable;
  }
  return insufficient ? 3 : 0;
}

namespace {

void SkipSpace(std::string_view text, size_t& pos) {
  while (pos < text.size() &&
         std::isspace(static_cast<unsigned char>(text[pos])))
    pos++;
}

// The path at `pos`: dotted names, none empty, a result and a figure at least.
Status ParsePath(std::string_view text, size_t& pos, Requirement& req) {
  SkipSpace(text, pos);
  if (pos == text.size()) {
    return ColumnError(
        pos,
        "empty requirement; expected e.g. 'etcd.sync_latency_ns.p99 < 10ms'");
  }
  size_t path_start = pos;
  while (pos < text.size() && IsPathChar(text[pos])) pos++;
  if (pos == path_start) {
    return ColumnError(
        pos, "expected a path such as etcd.sync_latency_ns.p99, found " +
                 Found(text, pos));
  }
  req.path = std::string(text.substr(path_start, pos - path_start));
  req.path_column = path_start + 1;
  for (size_t i = 0; i < req.path.size(); i++) {
    bool dot = req.path[i] == '.';
    if (dot && (i == 0 || i + 1 == req.path.size() || req.path[i + 1] == '.')) {
      return ColumnError(path_start + i + (i == 0 ? 0 : 1),
                         "empty name in path " + Quoted(req.path));
    }
  }
  if (req.path.find('.') == std::string::npos) {
    return ColumnError(
        pos, "a path names a result and a figure: " + Quoted(req.path) +
                 " needs .<metric>, e.g. " + req.path + ".p99");
  }
  return Status::OK();
}

// The comparison operator after the path; `op_text` is it as written.
Status ParseOperator(std::string_view text, size_t& pos, Requirement& req,
                     std::string& op_text) {
  SkipSpace(text, pos);
  if (pos == text.size()) {
    return ColumnError(pos,
                       "expected an operator (<, <=, >, >=, ==, !=) after " +
                           Quoted(req.path));
  }
  std::string_view rest = text.substr(pos);
  size_t op_start = pos;
  if (rest.rfind("<=", 0) == 0) {
    req.op = CompareOp::kLe;
    pos += 2;
  } else if (rest.rfind(">=", 0) == 0) {
    req.op = CompareOp::kGe;
    pos += 2;
  } else if (rest.rfind("==", 0) == 0) {
    req.op = CompareOp::kEq;
    pos += 2;
  } else if (rest.rfind("!=", 0) == 0) {
    req.op = CompareOp::kNe;
    pos += 2;
  } else if (rest[0] == '<') {
    req.op = CompareOp::kLt;
    pos += 1;
  } else if (rest[0] == '>') {
    req.op = CompareOp::kGt;
    pos += 1;
  } else if (rest[0] == '=') {
    return ColumnError(pos,
                       "'=' is not an operator; use == (or <, <=, >, >=, !=)");
  } else {
    return ColumnError(pos,
                       "expected an operator (<, <=, >, >=, ==, !=) after " +
                           Quoted(req.path) + ", found " + Found(text, pos));
  }
  op_text = std::string(text.substr(op_start, pos - op_start));
  return Status::OK();
}

// true / false at `pos`, for boolean figures (analyses.checks.etcd.pass ==
// true). Sets `matched` when the value is one; the expression must end there.
Status ParseBoolLiteral(std::string_view text, size_t pos, Requirement& req,
                        bool& matched) {
  for (const char* lit : {"true", "false"}) {
    std::string_view l(lit);
    if (text.substr(pos, l.size()) == l &&
        (pos + l.size() == text.size() || !IsPathChar(text[pos + l.size()]))) {
      if (req.op != CompareOp::kEq && req.op != CompareOp::kNe) {
        return ColumnError(pos, "true/false compare only with == or !=");
      }
      req.bool_literal = true;
      req.unit_column = pos + 1;
      req.threshold = l == "true" ? 1 : 0;
      pos += l.size();
      req.value_text = std::string(l);
      SkipSpace(text, pos);
      if (pos != text.size()) {
        return ColumnError(pos, "expected end of expression after " +
                                    Quoted(l) + ", found " + Found(text, pos));
      }
      matched = true;
      return Status::OK();
    }
  }
  return Status::OK();
}

// The number at `pos`: a sign, digits with an optional fraction, and an
// exponent; `number` is it as written.
Status ParseNumber(std::string_view text, size_t& pos,
                   const std::string& op_text, std::string& number,
                   double& value) {
  size_t num_start = pos;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) pos++;
  size_t digits_start = pos;
  while (pos < text.size() &&
         std::isdigit(static_cast<unsigned char>(text[pos])))
    pos++;
  if (pos < text.size() && text[pos] == '.') {
    pos++;
    while (pos < text.size() &&
           std::isdigit(static_cast<unsigned char>(text[pos])))
      pos++;
  }
  bool has_digits = false;
  for (size_t i = digits_start; i < pos; i++) {
    has_digits |= std::isdigit(static_cast<unsigned char>(text[i])) != 0;
  }
  if (!has_digits) {
    return ColumnError(num_start, "expected a number after " + Quoted(op_text) +
                                      ", found " + Found(text, num_start));
  }
  // An exponent only when digits follow, so "5e" is not half a number.
  if (pos + 1 < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    size_t e = pos + 1;
    if (e < text.size() && (text[e] == '+' || text[e] == '-')) e++;
    if (e < text.size() && std::isdigit(static_cast<unsigned char>(text[e]))) {
      while (e < text.size() &&
             std::isdigit(static_cast<unsigned char>(text[e])))
        e++;
      pos = e;
    }
  }
  number = std::string(text.substr(num_start, pos - num_start));
  value = std::strtod(number.c_str(), nullptr);
  if (!std::isfinite(value))
    return ColumnError(num_start, "number out of range: " + number);
  return Status::OK();
}

// Where the unit after a number starts (spaces between are allowed); `pos`
// moves past it, or stays when none follows.
size_t ScanUnit(std::string_view text, size_t& pos) {
  size_t unit_start = pos;
  while (pos < text.size() && text[pos] == ' ') pos++;
  if (pos < text.size() && IsUnitChar(text[pos])) {
    unit_start = pos;
    while (pos < text.size() && IsUnitChar(text[pos])) pos++;
  } else {
    pos = unit_start;
  }
  return unit_start;
}

// A non-empty unit's dimension (into `req`) and its factor to the canonical
// unit; `unit_start` and `number` are for the message.
Status ResolveUnit(const std::string& unit, size_t unit_start,
                   const std::string& number, Requirement& req,
                   double& factor) {
  std::string base = unit;
  bool per_sec = false;
  for (const char* suffix : {"/s", "/sec"}) {
    std::string_view s(suffix);
    if (base.size() >= s.size() &&
        base.compare(base.size() - s.size(), s.size(), s) == 0) {
      base.resize(base.size() - s.size());
      per_sec = true;
      break;
    }
  }
  if (per_sec && (base.empty() || base == "ops" || base == "op")) {
    req.unit_dimension = Dimension::kRate;
  } else if (!per_sec && (unit == "iops" || unit == "IOPS")) {
    req.unit_dimension = Dimension::kRate;
  } else if (std::optional<UnitInfo> u = CheckUnit(base)) {
    if (per_sec && u->dimension != Dimension::kBytes) {
      return ColumnError(
          unit_start, Quoted(unit) + " is not a unit: only a size takes /s (" +
                          std::string(kUnitHelp) + ")");
    }
    req.unit_dimension = per_sec ? Dimension::kByteRate : u->dimension;
    factor = u->factor;
  } else if (base == "b" || base.find('b') != std::string::npos) {
    return ColumnError(unit_start, "unknown unit " + Quoted(unit) +
                                       " (write bytes with a capital B; " +
                                       kUnitHelp + ")");
  } else {
    return ColumnError(unit_start, "unknown unit " + Quoted(unit) + " after " +
                                       Quoted(number) + " (" + kUnitHelp + ")");
  }
  return Status::OK();
}

}  // namespace

Result<Requirement> ParseRequirement(std::string_view text) {
  Requirement req;
  req.text = std::string(text);
  req.source = "--require";
  size_t pos = 0;
  DT_RETURN_IF_ERROR(ParsePath(text, pos, req));
  std::string op_text;
  DT_RETURN_IF_ERROR(ParseOperator(text, pos, req, op_text));

  SkipSpace(text, pos);
  size_t value_start = pos;
  req.value_column = value_start + 1;
  if (pos == text.size()) {
    return ColumnError(pos, "expected a number after " + Quoted(op_text));
  }
  bool is_bool = false;
  DT_RETURN_IF_ERROR(ParseBoolLiteral(text, pos, req, is_bool));
  if (is_bool) return req;
  std::string number;
  double value = 0;
  DT_RETURN_IF_ERROR(ParseNumber(text, pos, op_text, number, value));
  size_t unit_start = ScanUnit(text, pos);
  std::string unit(text.substr(unit_start, pos - unit_start));
  double factor = 1;
  if (!unit.empty()) {
    DT_RETURN_IF_ERROR(ResolveUnit(unit, unit_start, number, req, factor));
  }
  req.threshold = value * factor;
  req.value_text = std::string(text.substr(value_start, pos - value_start));
  SkipSpace(text, pos);
  if (pos != text.size()) {
    std::string what = unit.empty()
                           ? "expected a unit or end of expression after "
                           : "expected end of expression after ";
    return ColumnError(
        pos, what + Quoted(req.value_text) + ", found " + Found(text, pos));
  }

  req.unit_column = unit_start + 1;
  req.unit_text = unit;
  // The unit must fit the figure the path names; checked here, from the
  // metric's name, so a wrong unit is refused even where the figure is absent.
  // A name this cannot place (a key of a probe's metrics) is checked against
  // the figure when the report is read.
  std::string metric = MetricOf(req.path);
  if (MetricDimensionIsKnown(metric)) {
    Status fits =
        UnitFits(req, metric, DimensionOfMetric(metric),
                 req.path_column - 1 + req.path.size() - metric.size());
    if (!fits.ok()) return fits;
  }
  return req;
}

// etcd's gate is the durability verdict's (probes/durability_verdict.h): its
// point (the named figure etcd, IsEtcdPoint) and its threshold, both from
// src/model/named_figures.h.
std::string EtcdGateExpression() {
  return "etcd.sync_latency_ns.p99 < " +
         std::to_string(kEtcdThresholdNs / 1'000'000) + "ms";
}

const std::vector<CheckPreset>& CheckPresets() {
  static const std::vector<CheckPreset> k = {
      {"etcd",
       "etcd's disk gate: fdatasync of a 2300 B write into a preallocated "
       "file, p99 under 10 ms",
       {EtcdGateExpression()},
       "etcd appends every raft entry to its WAL, a segment it preallocated "
       "(64 MB), and fdatasyncs it before acknowledging; its documentation "
       "measures the disk with fio --rw=write --ioengine=sync --fdatasync=1 "
       "--bs=2300 (fio preallocates its file too) and asks for a 99th "
       "percentile under 10 ms, above which heartbeats are late and leader "
       "elections churn"},
      {"leveldb-wal",
       "LevelDB with sync writes: fdatasync of a 4 KiB log append, p99 under "
       "20 ms and at "
       "least 100 syncs/s",
       {"wal.p99 < 20ms", "wal.ops_per_sec >= 100/s"},
       "with WriteOptions.sync, LevelDB appends each write batch to its log "
       "and calls "
       "fdatasync (PosixWritableFile::Sync) before Write returns, and every "
       "writer queued "
       "behind it in the group commit waits too. 4 KiB is a small batch "
       "rounded to a page. "
       "100 syncs/s is what the 2011 LevelDB benchmark got from a 7200 rpm "
       "disk with its "
       "write cache off (one commit per revolution): a disk that cannot commit "
       "that often "
       "is slower than a 2011 hard disk. A p99 over 20 ms (more than two "
       "revolutions) "
       "means one write in a hundred stalls the whole write path for longer "
       "than a "
       "commit on that disk"},
  };
  return k;
}

Result<std::vector<Requirement>> PresetRequirements(std::string_view name) {
  for (const auto& p : CheckPresets()) {
    if (p.name != name) continue;
    std::vector<Requirement> out;
    for (const auto& e : p.expressions) {
      Result<Requirement> r = ParseRequirement(e);
      if (!r.ok()) return r.status().WithContext("preset " + p.name);
      r->source = "preset " + p.name;
      r->why = p.why;
      out.push_back(std::move(*r));
    }
    return out;
  }
  std::string valid;
  for (const auto& p : CheckPresets())
    valid += (valid.empty() ? "" : ", ") + p.name;
  return Status::InvalidArgument("unknown preset '" + std::string(name) +
                                 "'; valid: " + valid);
}

Result<std::vector<RequirementResult>> EvaluateRequirements(
    const Report& report, const std::vector<Requirement>& requirements) {
  std::vector<RequirementResult> out;
  for (const auto& req : requirements) {
    RequirementResult rr;
    rr.requirement = req;
    size_t metric_offset = 0;
    Result<Figure> f = LookupFigure(report, req.path, &metric_offset);
    if (!f.ok()) {
      if (f.status().code() == Status::Code::kInvalidArgument) {
        return Status::InvalidArgument(
            "'" + req.text + "': column " +
            std::to_string(req.path_column + metric_offset) + ": " +
            f.status().message());
      }
      rr.outcome = CheckOutcome::kNotMeasured;
      rr.detail = f.status().message();
      out.push_back(std::move(rr));
      continue;
    }
    if (req.bool_literal && !f->is_bool) {
      return Status::InvalidArgument(
          "'" + req.text + "': column " + std::to_string(req.value_column) +
          ": " + f->resolved + "." + f->metric +
          " is not true/false; compare it with a " + "number");
    }
    Status fits = UnitFits(req, f->metric, f->dimension,
                           req.path_column - 1 + metric_offset);
    if (!fits.ok())
      return Status::InvalidArgument("'" + req.text + "': " + fits.message());
    rr.outcome = Compare(f->value, req.op, req.threshold) ? CheckOutcome::kPass
                                                          : CheckOutcome::kFail;
    if (f->insufficient()) {
      rr.outcome = CheckOutcome::kInsufficient;
      rr.detail = Thousands(static_cast<double>(*f->samples)) + " samples; " +
                  f->metric.substr(f->metric.rfind('.') + 1) + " needs " +
                  Thousands(static_cast<double>(f->samples_needed)) +
                  " (measure longer)";
    } else if (rr.outcome == CheckOutcome::kFail) {
      if (std::string busy = BusyMachineReason(report); !busy.empty()) {
        rr.outcome = CheckOutcome::kUnreliable;
        rr.detail = busy;
      }
    }
    rr.figure = std::move(*f);
    out.push_back(std::move(rr));
  }
  return out;
}

std::string RenderCheckText(const std::vector<RequirementResult>& results) {
  size_t wexpr = 11, wval = 8;
  for (const auto& r : results) {
    wexpr = std::max(wexpr, r.requirement.text.size());
    wval = std::max(wval, MeasuredText(r).size());
  }
  std::string out;
  char line[1024];
  std::snprintf(line, sizeof(line), "%-12s %-*s  %*s  %s\n", "result",
                static_cast<int>(wexpr), "requirement", static_cast<int>(wval),
                "measured", "from");
  out += line;
  int passed = 0;
  for (const auto& r : results) {
    const char* status = CheckOutcomeLabel(r.outcome);
    passed += r.outcome == CheckOutcome::kPass;
    std::string from = r.figure ? r.figure->resolved : r.detail;
    if (r.figure && r.figure->dimension == Dimension::kTime &&
        r.figure->resolved.rfind("fsync.", 0) == 0)
      from += " (" + SyncLatencyPart(r.figure->metric) + ")";
    if (r.outcome == CheckOutcome::kInsufficient ||
        r.outcome == CheckOutcome::kUnreliable)
      from += ": " + r.detail;
    if (r.requirement.source != "--require")
      from += " [" + r.requirement.source + "]";
    std::snprintf(line, sizeof(line), "%-12s %-*s  %*s  %s\n", status,
                  static_cast<int>(wexpr), r.requirement.text.c_str(),
                  static_cast<int>(wval), MeasuredText(r).c_str(),
                  from.c_str());
    out += line;
  }
  int code = CheckExitCode(results);
  out += std::to_string(passed) + " of " + std::to_string(results.size()) +
         " requirements met: " +
         (code == 0   ? "PASS"
          : code == 1 ? "FAIL"
          : std::any_of(results.begin(), results.end(),
                        [](const RequirementResult& r) {
                          return r.outcome == CheckOutcome::kUnreliable;
                        })
              ? "UNRELIABLE (busy machine)"
              : "INSUFFICIENT SAMPLES") +
         "\n";
  return out;
}

nlohmann::json CheckToJson(const std::string& result_path,
                           const std::vector<RequirementResult>& results) {
  nlohmann::json j;
  j["schema"] = "disktune.check";
  j["schema_version"] = "1.0";
  j["result"] = result_path;
  int passed = 0;
  nlohmann::json reqs = nlohmann::json::array();
  for (const auto& r : results) {
    passed += r.outcome == CheckOutcome::kPass;
    nlohmann::json e;
    e["expression"] = r.requirement.text;
    e["source"] = r.requirement.source;
    if (!r.requirement.why.empty()) e["why"] = r.requirement.why;
    e["path"] = r.requirement.path;
    e["op"] = CompareOpText(r.requirement.op);
    e["status"] = CheckOutcomeName(r.outcome);
    Dimension d = r.requirement.unit_dimension.value_or(
        r.figure ? r.figure->dimension
                 : DimensionOfMetric(MetricOf(r.requirement.path)));
    if (r.requirement.bool_literal) {
      e["threshold"] = r.requirement.threshold != 0;
    } else {
      e["threshold"] = r.requirement.threshold;
      e["unit"] = CanonicalUnitName(d);
    }
    if (r.figure) {
      e["resolved"] = r.figure->resolved;
      if (r.figure->is_bool) {
        e["value"] = r.figure->value != 0;
      } else {
        e["value"] = r.figure->value;
      }
      e["measured"] = MeasuredText(r);
      if (r.figure->samples) {
        e["samples"] = *r.figure->samples;
        e["samples_needed"] = r.figure->samples_needed;
      }
      if (!r.detail.empty()) e["detail"] = r.detail;
    } else {
      e["detail"] = r.detail;
    }
    reqs.push_back(std::move(e));
  }
  j["pass"] = passed == static_cast<int>(results.size());
  bool unreliable = std::any_of(results.begin(), results.end(),
                                [](const RequirementResult& r) {
                                  return r.outcome == CheckOutcome::kUnreliable;
                                });
  j["verdict"] = std::string(CheckExitCode(results) == 0   ? "pass"
                             : CheckExitCode(results) == 1 ? "fail"
                             : unreliable                  ? "unreliable"
                                                           : "insufficient");
  j["passed"] = passed;
  j["failed"] = static_cast<int>(results.size()) - passed;
  j["requirements"] = std::move(reqs);
  return j;
}

}  // namespace disktune
