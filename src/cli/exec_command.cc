// `disktune exec --throttle CLASS|LIMITS [--dir DIR] -- COMMAND [ARGS...]`:
// runs another program inside a device class, set up exactly as `bench
// --throttle` sets it up (the Session), so a tool disktune does not link
// (RocksDB's db_bench) measures on the same emulated volume. The command
// runs in the throttle's cgroup with its working directory and
// $DISKTUNE_SCRATCH the throttled scratch directory; on a class with a sync
// floor its fsync and fdatasync on that filesystem meet the floor through a
// preload library (src/app/sync_floor_library.h). Everything is removed
// when it ends, however it ends.
#include <sys/stat.h>

#include <string>
#include <vector>

#include "src/app/child_command.h"
#include "src/app/sync_floor_library.h"
#include "src/app/throttle_session.h"
#include "src/cli/command.h"
#include "src/cli/open_session.h"
#include "src/core/signals.h"
#include "src/model/throttle_spec.h"

namespace disktune::cli {
namespace {

struct ExecOptions {
  CommonOptions common;  // --dir, --throttle, --quiet
  std::vector<std::string> command;
};

// What is known before anything is made: the command, the class, the
// preload library when the class has a floor, root. Exit 2 on any of them.
struct ExecPlan {
  ThrottleSpec spec;
  std::string program;
  std::string floor_library;  // "" when the class has no sync floor
};

Result<ExecPlan> PlanExec(const ExecOptions& o) {
  const char* example =
      "; e.g. disktune exec --throttle hdd --dir /data -- db_bench "
      "--benchmarks=fillsync --db=db";
  if (o.common.throttle.empty())
    return Status::InvalidArgument(std::string("exec needs --throttle") +
                                   example);
  if (o.command.empty())
    return Status::InvalidArgument(
        std::string("exec needs a command after --") + example);
  ExecPlan plan;
  Result<ThrottleSpec> spec = ParseThrottle(o.common.throttle);
  if (!spec.ok()) return spec.status();
  plan.spec = *spec;
  Result<std::string> program = app::ResolveChildProgram(o.command[0]);
  if (!program.ok()) return program.status();
  plan.program = *program;
  if (plan.spec.sync_floor_ns > 0) {
    Result<std::string> lib = app::FindSyncFloorLibrary();
    if (!lib.ok()) return lib.status();
    plan.floor_library = *lib;
  }
  // Root last: the checks above hold for anyone.
  Result<std::optional<ThrottleSpec>> root =
      app::PlanThrottle(o.common.throttle);
  if (!root.ok()) return root.status();
  return plan;
}

// The command as the Session left it: in the throttled scratch directory,
// with the floor's preload when the class has one.
Result<app::ChildCommand> CommandIn(const ExecOptions& o, const ExecPlan& plan,
                                    const std::string& scratch) {
  app::ChildCommand c;
  c.program = plan.program;
  c.argv = o.command;
  c.cwd = scratch;
  c.env.emplace_back("DISKTUNE_SCRATCH", scratch);
  if (!plan.floor_library.empty()) {
    struct stat st {};
    if (stat(scratch.c_str(), &st) != 0)
      return Status::IOError("stat " + scratch + ": cannot read its device");
    for (auto& kv : app::SyncFloorEnvironment(plan.floor_library, st.st_dev,
                                              plan.spec.sync_floor_ns))
      c.env.push_back(std::move(kv));
  }
  return c;
}

std::string Shown(const std::vector<std::string>& argv) {
  std::string s;
  for (const std::string& a : argv) s += (s.empty() ? "" : " ") + a;
  return s;
}

int RunExec(CommandContext& ctx, const ExecOptions& o) {
  Result<ExecPlan> plan = PlanExec(o);
  if (!plan.ok()) {
    (void)Fail(ctx, plan.status());
    return kExitUsage;
  }
  CommonOptions common = o.common;
  common.progress = "never";
  std::unique_ptr<TerminalProgress> progress = MakeProgress(ctx, common);
  Result<std::unique_ptr<app::Session>> session =
      OpenSession(ctx, common, plan->spec, progress.get());
  if (!session.ok()) {
    int code = Fail(ctx, session.status());
    return session.status().IsAborted() ? code : kExitMeasurementFailed;
  }
  const std::string scratch = (*session)->scratch().path();
  Result<app::ChildCommand> command = CommandIn(o, *plan, scratch);
  Result<int> code = Status::Aborted("interrupted");
  if (!command.ok()) {
    code = command.status();
  } else if (!InterruptRequested()) {
    progress->Info("exec: running " + Shown(o.command) + " in " + scratch);
    ctx.out.flush();
    ctx.err.flush();
    code = app::RunChildCommand(*command);
  }
  Status finished = (*session)->FinishThrottle(nullptr);
  session->reset();
  if (!finished.ok()) ctx.err << "disktune: " << finished.message() << "\n";
  if (!code.ok()) {
    int failed = Fail(ctx, code.status());
    return code.status().IsAborted() ? failed : kExitMeasurementFailed;
  }
  // The command's own code, unless it succeeded and the class could not be
  // taken down (something of it may be left: `disktune restore`).
  return (*code == 0 && !finished.ok()) ? kExitMeasurementFailed : *code;
}

}  // namespace

void SetupExecCommand(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<ExecOptions>();
  CLI::App* cmd = app.add_subcommand(
      "exec",
      "run another program inside a device class (--throttle): a loop "
      "device, filesystem and cgroup made as bench --throttle makes them; "
      "the program runs in the cgroup, in the throttled scratch directory "
      "(also in $DISKTUNE_SCRATCH), its fsync and fdatasync there meeting "
      "the class's sync floor; everything is removed when it ends");
  cmd->add_option("--throttle", opts->common.throttle, ThrottleFlagHelp())
      ->type_name("hdd|cloud|LIMITS");
  cmd->add_option("--dir", opts->common.dir,
                  "where to make the scratch directory that holds the class's "
                  "image: a new disktune-<time>-<pid> inside DIR (default: "
                  "the current directory), removed at the end")
      ->type_name("DIR");
  cmd->add_flag("-q,--quiet", opts->common.quiet,
                "no progress or warnings from disktune (the program's own "
                "output passes through)");
  cmd->add_option("command", opts->command,
                  "the program and its arguments, after --; run as given "
                  "(no shell), looked up in PATH")
      ->type_name("-- COMMAND [ARGS...]");
  cmd->footer(
      "Exit code: the program's own; 128+N when it died of signal N; 2 for "
      "bad input (nothing was run); 3 when the class could not be set up. "
      "SIGINT, SIGTERM, SIGHUP and SIGQUIT are passed on to the program, and "
      "the class is removed once it has ended. The sync floor reaches "
      "programs linked to libc dynamically, through fsync and fdatasync.");
  cmd->callback([&ctx, opts] { ctx.exit_code = RunExec(ctx, *opts); });
}

}  // namespace disktune::cli
