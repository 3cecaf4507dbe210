#include "src/cli/cli.h"

#include <CLI/CLI.hpp>
#include <ostream>

#include "generated/version.h"
#include "probes/device_journal.h"
#include "src/cli/command.h"
#include "src/core/json_input.h"
#include "src/core/signals.h"

namespace disktune::cli {

namespace {

// A command that ended well (0) or with a verdict (1) but whose output could
// not be written (a closed stdout, a reader that went away: EPIPE) has lost
// its result: exit 3 with one line. EmitJson says so itself, with exit 3.
int ResultWritten(CommandContext& ctx, int code) {
  ctx.out.flush();
  if (ctx.out.good() || (code != 0 && code != 1)) return code;
  ctx.err << "disktune: the result could not be written to standard output "
             "(it is closed, or its reader went away); nothing else was "
             "lost, run again with --json FILE\n";
  return 3;
}

}  // namespace

int Main(const std::vector<std::string>& args, std::ostream& out,
         std::ostream& err, bool err_is_terminal) {
  CLI::App app{
      "disktune: measure a server's disk and tune an embedded LevelDB/RocksDB "
      "for it "
      "before deployment",
      "disktune"};
  app.set_version_flag("--version",
                       std::string("disktune ") + DISKTUNE_VERSION);
  app.require_subcommand(1);
  app.footer(
      "Exit codes: 0 success; 1 a check requirement failed or compare found a "
      "regression; 2 usage or bad input (nothing measured); 3 a measurement "
      "failed; 128+N interrupted by signal N (129 SIGHUP, 130 SIGINT, 143 "
      "SIGTERM).");
  app.fallthrough(false);
  CommandContext ctx{out, err, err_is_terminal};
  // The one place subcommands are wired in.
  SetupRunCommand(app, ctx);
  SetupProbeCommand(app, ctx);
  SetupBenchCommand(app, ctx);
  SetupPredictCommand(app, ctx);
  SetupTuneCommand(app, ctx);
  SetupListCommand(app, ctx);
  SetupRestoreCommand(app, ctx);
  SetupReportCommand(app, ctx);
  SetupCompareCommand(app, ctx);
  SetupFleetCommand(app, ctx);
  SetupCheckCommand(app, ctx);
  SetupExecCommand(app, ctx);

  std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1),
                                args.end());
  if (!rest.empty() && !rest[0].empty() && rest[0][0] != '-') {
    std::string valid;
    bool known = false;
    for (const CLI::App* sub :
         app.get_subcommands([](CLI::App*) { return true; })) {
      known |= sub->get_name() == rest[0];
      valid += (valid.empty() ? "" : ", ") + sub->get_name();
    }
    if (!known) {
      err << "disktune: unknown command '" << rest[0] << "'; valid: " << valid
          << "\n";
      return 2;
    }
  }
  std::reverse(rest.begin(), rest.end());  // CLI11 takes them in reverse order
  // Before any command runs, so every one of them cleans up on a signal.
  InstallInterruptHandlers();
  SetJournalNoticeSink([&err](const std::string& line) {
    err << "disktune: " << line << "\n" << std::flush;
  });
  try {
    app.parse(rest);
  } catch (const nlohmann::json::exception& e) {
    // A field of an input file with the wrong type, found past the readers'
    // checks. Caught here so the stack unwinds: the scratch directory and any
    // device setting are put back by their destructors.
    err << "disktune: an input file holds a field of the wrong type: "
        << DescribeJsonError(e) << "; pass a file written by disktune\n";
    return 2;
  } catch (const std::bad_alloc&) {
    err << "disktune: out of memory; scratch files removed, device settings "
           "restored\n";
    return 3;
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::CallForVersion&) {
    out << app.version() << "\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    // A subcommand's --help is thrown from inside it; print that subcommand's
    // help.
    if (e.get_exit_code() == 0) {
      const CLI::App* sub = nullptr;
      for (const CLI::App* s : app.get_subcommands()) sub = s;
      out << (sub ? sub->help() : app.help());
      return 0;
    }
    err << "disktune: " << e.what() << " (see disktune --help)\n";
    return 2;
  }
  return ResultWritten(ctx, ctx.exit_code);
}

}  // namespace disktune::cli
