#include "src/tune/tuner.h"

#include <algorithm>

#include "src/bench/process_stats.h"
#include "src/core/clock.h"
#include "src/core/sysinfo.h"
#include "src/core/units.h"
#include "src/tune/phases.h"
#include "src/tune/trials.h"

namespace disktune::tune {
namespace {

template <typename T>
void Append(const std::vector<T>& from, std::vector<T>* to) {
  to->insert(to->end(), from.begin(), from.end());
}

// The TuneResult from the request and the phases' outcomes: the one place
// they are put together.
TuneResult Assemble(const TuneRequest& req, const phases::SetupOutcome& setup,
                    const phases::SearchPhaseResult& searched,
                    const phases::KnobCheckOutcome& checked,
                    const phases::VerifyOutcome& verified,
                    const phases::Judgement& judged,
                    const phases::Explanation& ex) {
  TuneResult res;
  res.engine = req.engine;
  res.memory_budget_bytes = req.memory_budget_bytes;
  res.time_budget_ns = req.time_budget_ns;
  res.write_budget_bytes = req.write_budget_bytes;
  res.quick = req.quick;
  res.workload = setup.workload;
  res.workload.entries_per_batch = judged.recommendation.entries_per_batch;
  res.shape = setup.shape;
  res.traits = setup.traits;
  res.facts = setup.facts;
  res.probes = setup.probes;
  res.environment = setup.environment;
  res.rules = setup.rules;
  res.baseline = setup.baseline;
  res.baseline_definition = setup.baseline_definition;
  res.ranking_model = setup.ranking_model;
  res.candidates = searched.candidates;
  res.search = searched.search;
  res.winner = checked.winner;
  res.unjudged = phases::AllUnjudged(searched, verified);
  res.recommendation = judged.recommendation;
  res.significant = judged.significant;
  res.knobs = judged.knobs;
  if (judged.memory) res.memory = *judged.memory;
  res.verdict = ex.verdict;
  res.verification = ex.verification;
  res.explanation = ex.lines;
  for (const std::vector<std::string>* notes :
       {&setup.notes, &searched.notes, &checked.notes, &verified.notes,
        &judged.notes, &ex.notes}) {
    Append(*notes, &res.notes);
  }
  res.measured = ex.measured;
  res.left_out = setup.left_out;
  Append(ex.left_out, &res.left_out);
  if (ex.bytes_written) res.bytes_written = ex.bytes_written;
  res.elapsed_ns = ex.elapsed_ns;
  return res;
}

}  // namespace

Status ValidateTuneRequest(const TuneRequest& r) {
  if (!IsTunableEngine(r.engine)) {
    return Status::InvalidArgument("--engine '" + r.engine +
                                   "': the tuner supports " +
                                   TunableEngineList());
  }
  bool built =
      std::any_of(r.available.begin(), r.available.end(),
                  [&](const EngineInfo& e) { return e.id == r.engine; });
  if (!built) {
    return Status::InvalidArgument("--engine '" + r.engine +
                                   "' is not built into this disktune");
  }
  if (r.memory_budget_bytes < kMinMemoryBudgetBytes) {
    return Status::InvalidArgument(
        "--memory-budget " +
        FormatBytes(static_cast<double>(r.memory_budget_bytes)) +
        " is below the minimum of 1 MiB");
  }
  uint64_t machine = r.machine_memory_bytes > 0 ? r.machine_memory_bytes
                                                : ReadSystemInfo().memory_bytes;
  if (machine > 0 && r.memory_budget_bytes > machine) {
    return Status::InvalidArgument(
        "--memory-budget " +
        FormatBytes(static_cast<double>(r.memory_budget_bytes)) +
        " is more than this machine's memory (" +
        FormatBytes(static_cast<double>(machine)) + ")");
  }
  if (r.time_budget_ns < kMinTimeBudgetNs) {
    return Status::InvalidArgument(
        "--time-budget " +
        FormatDuration(static_cast<double>(r.time_budget_ns)) +
        " is too short to verify anything; the minimum is " +
        std::to_string(kMinTimeBudgetNs / kSecondNs) + "s");
  }
  if (r.write_budget_bytes > 0 && r.write_budget_bytes < kMinWriteBudgetBytes) {
    return Status::InvalidArgument(
        "--write-budget " +
        FormatBytes(static_cast<double>(r.write_budget_bytes)) +
        " is too small for any trial plan; the minimum is " +
        FormatBytes(static_cast<double>(kMinWriteBudgetBytes)));
  }
  DT_RETURN_IF_ERROR(ValidateWorkload(r.workload));
  if (r.data_size_bytes && *r.data_size_bytes < 64 * kKiB) {
    return Status::InvalidArgument("--data-size must be at least 64KiB");
  }
  return Status::OK();
}

Result<TuneResult> RunTuner(const TuneRequest& req, const ScratchDir& scratch,
                            ProgressSink* progress) {
  NullProgress null_progress;
  if (progress == nullptr) progress = &null_progress;
  DT_RETURN_IF_ERROR(ValidateTuneRequest(req));
  // The process's write count (0 where /proc/self/io is unreadable, which a
  // write budget refuses), or the test's.
  const bool bytes_readable = req.env.bytes_written != nullptr ||
                              bench::ProcessWriteBytes().has_value();
  if (req.write_budget_bytes > 0 && !bytes_readable) {
    return Status::NotSupported(
        "--write-budget needs the kernel's per-process write count "
        "(/proc/self/io), which is unreadable here; run without it");
  }
  TuneBudget::Counter bytes = req.env.bytes_written;
  if (!bytes) bytes = [] { return bench::ProcessWriteBytes().value_or(0); };
  TuneBudget::Counter now = req.env.now_ns ? req.env.now_ns : NowNanos;
  // What the phases share lives in this frame, from before the first phase
  // to after the last: the run, Setup's outcome and the trials on its
  // workload. The trials hold references to the request, the scratch
  // directory, the budget and that workload and its shape, so none of
  // these may be a value a phase returns and the next one moves on.
  const phases::TuneRun run(req, scratch, progress, now, bytes, bytes_readable);
  auto setup = phases::Setup(run);
  if (!setup.ok()) return setup.status();
  Trials trials = run.TrialsOn(setup->workload, setup->shape);
  const phases::TuneContext ctx{run, *setup, trials};
  auto cost = phases::Calibrate(ctx);
  if (!cost.ok()) return cost.status();
  auto searched = phases::Search(ctx, std::move(*cost));
  if (!searched.ok()) return searched.status();
  auto checked = phases::CheckKnobs(ctx, *searched);
  if (!checked.ok()) return checked.status();
  auto verified = phases::Verify(ctx, *searched, *checked);
  if (!verified.ok()) return verified.status();
  const phases::Judgement judged =
      phases::Judge(ctx, *searched, *checked, *verified);
  const phases::Explanation ex =
      phases::Explain(ctx, *searched, *checked, *verified, judged);
  return Assemble(req, *setup, *searched, *checked, *verified, judged, ex);
}

}  // namespace disktune::tune
