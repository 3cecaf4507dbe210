#include "src/cli/command.h"

#include <fstream>
#include <iostream>

#include "probes/foreign_io.h"
#include "reports/summarize.h"
#include "src/core/json_input.h"
#include "src/core/signals.h"
#include "src/core/sysinfo.h"
#include "src/core/units.h"
#include "src/model/report.h"
#include "src/model/throttle_spec.h"

namespace disktune::cli {

void AddCommonOptions(CLI::App* cmd, CommonOptions* opts, bool with_dir) {
  cmd->add_option("--json", opts->json_path,
                  "write the result as JSON to FILE ('-' for stdout; then "
                  "nothing else goes "
                  "to stdout)")
      ->type_name("FILE");
  cmd->add_flag("-q,--quiet", opts->quiet,
                "no progress, warnings or text report");
  if (with_dir) {
    cmd->add_option("--dir", opts->dir,
                    "where to make the scratch directory, the only place "
                    "written: a new disktune-<time>-<pid> inside DIR (default: "
                    "the current directory), removed at the end; nothing else "
                    "in DIR is touched")
        ->type_name("DIR");
    cmd->add_flag("--keep", opts->keep,
                  "keep the scratch files at the end (for debugging)");
    cmd->add_option("--throttle", opts->throttle, ThrottleFlagHelp())
        ->type_name("hdd|cloud|LIMITS");
  }
}

void AddProgressOption(CLI::App* cmd, CommonOptions* opts) {
  cmd->add_option("--progress", opts->progress,
                  "progress on stderr: auto (in place on a terminal, a plain "
                  "line every few seconds in a log; none with --quiet), "
                  "always, never")
      ->type_name("auto|always|never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
}

int ExitCodeFor(const Status& status) {
  if (status.ok()) return 0;
  switch (status.code()) {
    case Status::Code::kAborted:
      return InterruptExitCode() ? InterruptExitCode() : 130;
    case Status::Code::kInvalidArgument:
    case Status::Code::kNotFound:
    case Status::Code::kBusy:
    case Status::Code::kNoSpace:
    case Status::Code::kPermissionDenied:
    case Status::Code::kNotSupported:
      return kExitUsage;
    default:  // kIOError, kCorruption, ...: the measurement could not be made
      return kExitMeasurementFailed;
  }
}

int Fail(CommandContext& ctx, const Status& status) {
  if (status.IsAborted()) {
    ctx.err << "disktune: interrupted (" << InterruptSignalName()
            << "); scratch files removed, device settings restored\n";
  } else {
    ctx.err << "disktune: " << status.message() << "\n";
  }
  return ExitCodeFor(status);
}

Result<uint64_t> ParseSizeFlag(const std::string& flag, const std::string& text,
                               const std::string& example) {
  Result<uint64_t> r = ParseSize(text);
  if (!r.ok()) {
    return Status::InvalidArgument(flag + ": " + r.status().message() +
                                   "; e.g. " + flag + " " + example);
  }
  return r;
}

Result<uint64_t> ParseDurationFlag(const std::string& flag,
                                   const std::string& text,
                                   const std::string& example) {
  Result<uint64_t> r = ParseDuration(text);
  if (!r.ok()) {
    return Status::InvalidArgument(flag + ": " + r.status().message() +
                                   "; e.g. " + flag + " " + example);
  }
  if (*r == 0) {
    return Status::InvalidArgument(flag + ": must be longer than 0; e.g. " +
                                   flag + " " + example);
  }
  return r;
}

Status ParseTuneBudgetFlags(const std::string& time_text,
                            const std::string& write_text, uint64_t* time_ns,
                            uint64_t* write_bytes) {
  if (!time_text.empty()) {
    Result<uint64_t> t = ParseDurationFlag("--time-budget", time_text, "10m");
    if (!t.ok()) return t.status();
    *time_ns = *t;
  }
  if (!write_text.empty()) {
    Result<uint64_t> b = ParseSizeFlag("--write-budget", write_text, "2GiB");
    if (!b.ok()) return b.status();
    *write_bytes = *b;
  }
  return Status::OK();
}

std::unique_ptr<TerminalProgress> MakeProgress(CommandContext& ctx,
                                               const CommonOptions& opts) {
  return std::make_unique<TerminalProgress>(
      ctx.err, ctx.err_is_terminal, opts.quiet,
      ParseProgressMode(opts.progress).value_or(ProgressMode::kAuto));
}

Status ResultNotWritten() {
  return Status::IOError(
      "the result could not be written to standard output (it is closed, or "
      "its reader went away); run again with --json FILE");
}

Status EmitJson(CommandContext& ctx, const CommonOptions& opts,
                const nlohmann::json& j) {
  if (opts.json_path.empty()) return Status::OK();
  if (opts.json_path == "-") {
    ctx.out << DumpJson(j) << "\n";
    ctx.out.flush();
    if (!ctx.out.good()) return ResultNotWritten();
    return Status::OK();
  }
  return WriteJsonFile(opts.json_path, j, "--json");
}

std::ostream* HumanStream(CommandContext& ctx, const CommonOptions& opts) {
  if (opts.quiet) return nullptr;
  if (opts.json_path == "-") return &ctx.err;
  return &ctx.out;
}

void AddServiceOption(CLI::App* cmd, std::string* service) {
  cmd->add_option("--service", *service,
                  "the service the verdict is for, each a set of gates: " +
                      ServiceList() +
                      " (default: the engine run, else leveldb; README, "
                      "\"Reading the verdict\")")
      ->type_name("NAME");
}

Status CheckServiceFlag(const std::string& service) {
  return ValidateService(service);
}

void FinishReport(const std::string& service, Report* report) {
  report->environment.system.load_average_1m_after = ReadLoadAverage1m();
  if (report->environment.foreign_io)
    FinishForeignIo(&*report->environment.foreign_io);
  report->summary = Summarize(*report, service);
}

void ResummarizeReport(const std::string& service, Report* report) {
  report->summary = Summarize(*report, service);
}

}  // namespace disktune::cli
