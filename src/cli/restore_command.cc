// `disktune restore`: replays the device journal left by a killed run (a
// write cache still switched, a loop device or mount still there) and says
// what it put back.
#include "src/cli/restore_command.h"

#include <unistd.h>

#include "probes/device_journal.h"

namespace disktune::cli {
namespace {

size_t CountStale(const std::vector<JournalEntry>& entries) {
  size_t n = 0;
  for (const auto& e : entries) n += JournalOwnerAlive(e) ? 0 : 1;
  return n;
}

int RunRestoreCommand(CommandContext& ctx) {
  DeviceJournal& journal = ProcessJournal();
  Result<std::vector<JournalEntry>> entries = journal.Load();
  if (!entries.ok()) return Fail(ctx, entries.status());
  if (entries->empty()) {
    ctx.out << "nothing to restore: no device change is pending ("
            << journal.path() << ")\n";
    return 0;
  }
  if (geteuid() != 0 && CountStale(*entries) > 0) {
    return Fail(ctx, Status::PermissionDenied(
                         std::to_string(CountStale(*entries)) +
                         " device change(s) pending in " + journal.path() +
                         " need root to undo; run disktune restore as root"));
  }
  Result<RestoreOutcome> o = journal.Restore(/*include_own=*/false);
  if (!o.ok()) return Fail(ctx, o.status());
  for (const auto& line : o->restored) ctx.out << "restored: " << line << "\n";
  for (const auto& line : o->running) {
    ctx.out << "left alone (its run is still going): " << line << "\n";
  }
  if (o->restored.empty() && o->failed.empty()) {
    ctx.out
        << "nothing to restore: only running disktune processes hold changes\n";
  }
  if (!o->failed.empty()) {
    std::string all;
    for (const auto& f : o->failed) all += (all.empty() ? "" : "; ") + f;
    return Fail(
        ctx, Status::IOError("could not restore " + all + " (still listed in " +
                             journal.path() + ")"));
  }
  return 0;
}

}  // namespace

Status RecoverFromKilledRun(CommandContext& ctx) {
  DeviceJournal& journal = ProcessJournal();
  Result<std::vector<JournalEntry>> entries = journal.Load();
  if (!entries.ok() && geteuid() != 0) {
    // Without root nothing could be undone anyway, and this run changes no
    // device setting: say it and measure.
    ctx.err << "disktune: warning: " << entries.status().message()
            << "; if a run was killed, run `disktune restore` as root\n";
    return Status::OK();
  }
  if (!entries.ok()) return entries.status();
  size_t stale = CountStale(*entries);
  if (stale == 0) return Status::OK();
  if (geteuid() != 0) {
    ctx.err << "disktune: warning: a killed run left " << stale
            << " device change(s) in " << journal.path()
            << "; run `disktune restore` as root\n";
    return Status::OK();
  }
  Result<RestoreOutcome> o = journal.Restore(/*include_own=*/false);
  if (!o.ok()) return o.status();
  for (const auto& line : o->restored) {
    ctx.err << "disktune: a previous run was killed; restored: " << line
            << "\n";
  }
  if (!o->failed.empty()) {
    return Status::IOError(
        "a killed run left a device change that cannot be undone (" +
        o->failed.front() + "); fix it, then run `disktune restore`");
  }
  return Status::OK();
}

void SetupRestoreCommand(CLI::App& app, CommandContext& ctx) {
  CLI::App* cmd = app.add_subcommand("restore",
                                     "put back device settings a killed run "
                                     "left changed (write cache, loop devices, "
                                     "mounts), from the journal in " +
                                         std::string(kJournalDefaultPath) +
                                         " ($DISKTUNE_JOURNAL overrides)");
  cmd->callback([&ctx] { ctx.exit_code = RunRestoreCommand(ctx); });
}

}  // namespace disktune::cli
