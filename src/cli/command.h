// What every subcommand shares: the streams, the common flags, the scratch
// directory, flag parsing with units, JSON output and Status -> exit code.
//
// A subcommand lives in its own file with a Setup<Name>Command(CLI::App&,
// CommandContext&) function that adds the subcommand, binds its options to a
// struct, and sets a callback that stores the exit code in the context.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "src/core/progress.h"
#include "src/core/scratch_dir.h"
#include "src/core/status.h"
#include "src/model/report.h"

namespace disktune::cli {

struct CommandContext {
  std::ostream& out;
  std::ostream& err;
  bool err_is_terminal = false;
  int exit_code = 0;
};

// --json FILE, --quiet, --dir DIR.
struct CommonOptions {
  std::string json_path;  // "-" = stdout
  bool quiet = false;
  std::string dir;  // the scratch directory
  bool keep = false;
  std::string progress = "auto";  // --progress, on commands that show it
  std::string throttle;           // --throttle, on the commands that take --dir
};
// `with_dir`: the command writes, so it takes --dir (and --keep), and
// measures, so it takes --throttle.
void AddCommonOptions(CLI::App* cmd, CommonOptions* opts, bool with_dir);

// Exit codes, the same in every command (README, "Exit codes"):
inline constexpr int kExitOk = 0;
// check: a requirement failed; compare: a regression past the threshold.
inline constexpr int kExitFailed = 1;
// Usage or bad input: a flag, a file, a path; nothing was measured.
inline constexpr int kExitUsage = 2;
// A measurement failed, or has too few samples to give a verdict.
inline constexpr int kExitMeasurementFailed = 3;
// 128 + N: interrupted by signal N (SIGINT 130, SIGHUP 129, SIGTERM 143).

// Prints "disktune: <message>" on stderr and returns the exit code for it.
int Fail(CommandContext& ctx, const Status& status);
// IOError, exit 3: a result stdout did not take (closed, EPIPE).
Status ResultNotWritten();
int ExitCodeFor(const Status& status);

// Parses a size/duration flag value; the error names the flag and shows a valid
// example:
// "--file-size: '12' has no unit; e.g. --file-size 1GiB".
Result<uint64_t> ParseSizeFlag(const std::string& flag, const std::string& text,
                               const std::string& example);
Result<uint64_t> ParseDurationFlag(const std::string& flag,
                                   const std::string& text,
                                   const std::string& example);

// The tuner's --time-budget and --write-budget (`tune` and `run`): an empty
// text leaves *time_ns / *write_bytes at the command's default.
Status ParseTuneBudgetFlags(const std::string& time_text,
                            const std::string& write_text, uint64_t* time_ns,
                            uint64_t* write_bytes);

// --progress auto|always|never, for the commands with progress lines (probe,
// run, tune).
void AddProgressOption(CLI::App* cmd, CommonOptions* opts);

// The progress sink for a command: a status line on stderr (in place on a
// terminal, plain lines in a log) as --progress says, warnings unless
// --quiet.
std::unique_ptr<TerminalProgress> MakeProgress(CommandContext& ctx,
                                               const CommonOptions& opts);

// Writes the JSON to --json (a file, or stdout for "-"); no-op without --json.
Status EmitJson(CommandContext& ctx, const CommonOptions& opts,
                const nlohmann::json& j);
// The stream for human-readable output: stdout, unless --json - took it (then
// stderr) or --quiet (then nothing: returns nullptr).
std::ostream* HumanStream(CommandContext& ctx, const CommonOptions& opts);

// --service NAME: the service whose gates the report's verdict applies
// (src/model/summary.h); default: the engine the command ran.
void AddServiceOption(CLI::App* cmd, std::string* service);
// Before anything is measured: InvalidArgument for an unknown service.
Status CheckServiceFlag(const std::string& service);
// After the measurements: the load average now (so a verdict knows whether
// the machine was busy) and the summary for `service`.
void FinishReport(const std::string& service, Report* report);
// For `report --service`: the summary recomputed for another service.
void ResummarizeReport(const std::string& service, Report* report);

// Each subcommand, one file each.
void SetupProbeCommand(CLI::App& app, CommandContext& ctx);
void SetupRunCommand(CLI::App& app, CommandContext& ctx);
void SetupListCommand(CLI::App& app, CommandContext& ctx);
void SetupRestoreCommand(CLI::App& app, CommandContext& ctx);
void SetupBenchCommand(CLI::App& app, CommandContext& ctx);
void SetupPredictCommand(CLI::App& app, CommandContext& ctx);
void SetupReportCommand(CLI::App& app, CommandContext& ctx);
void SetupCompareCommand(CLI::App& app, CommandContext& ctx);
void SetupFleetCommand(CLI::App& app, CommandContext& ctx);
void SetupCheckCommand(CLI::App& app, CommandContext& ctx);
void SetupTuneCommand(CLI::App& app, CommandContext& ctx);
void SetupExecCommand(CLI::App& app, CommandContext& ctx);

}  // namespace disktune::cli
