#include "src/tune/tuner.h"

#include <algorithm>

#include "src/bench/process_stats.h"
#include "src/core/clock.h"
#include "src/core/sysinfo.h"
#include "src/core/units.h"
#include "src/tune/phases.h"

namespace disktune::tune {
namespace {

template <typename T>
void Append(std::vector<T> from, std::vector<T>* to) {
  for (T& x : from) to->push_back(std::move(x));
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
  phases::TuneState st(req, scratch, progress, now, bytes);
  st.bytes_readable = bytes_readable;
  DT_RETURN_IF_ERROR(phases::Setup(st));
  auto cost = phases::Calibrate(st);
  if (!cost.ok()) return cost.status();
  st.cost = std::move(*cost);
  auto searched = phases::Search(st);
  if (!searched.ok()) return searched.status();
  TuneResult& res = st.res;
  st.shape = searched->shape;
  res.candidates = std::move(searched->candidates);
  Append(std::move(searched->unjudged), &res.unjudged);
  res.search = std::move(searched->search);
  res.winner = searched->winner;
  Append(std::move(searched->notes), &res.notes);
  auto checked = phases::CheckKnobs(st, res.winner, searched->ab_scale);
  if (!checked.ok()) return checked.status();
  res.winner = checked->winner;
  Append(std::move(checked->notes), &res.notes);
  auto verified = phases::Verify(st, *checked);
  if (!verified.ok()) return verified.status();
  if (verified->unjudged) res.unjudged.push_back(*verified->unjudged);
  Append(std::move(verified->notes), &res.notes);
  phases::Judgement judged = phases::Judge(st, *checked, *verified);
  res.recommendation = judged.recommendation;
  res.significant = judged.significant;
  res.knobs = std::move(judged.knobs);
  Append(std::move(judged.notes), &res.notes);
  res.workload.entries_per_batch = res.recommendation.entries_per_batch;
  if (judged.memory) res.memory = *judged.memory;
  phases::Explanation ex = phases::Explain(st, *checked, *verified);
  res.verdict = std::move(ex.verdict);
  res.verification = std::move(ex.verification);
  Append(std::move(ex.lines), &res.explanation);
  Append(std::move(ex.notes), &res.notes);
  Append(std::move(ex.measured), &res.measured);
  Append(std::move(ex.left_out), &res.left_out);
  if (ex.bytes_written) res.bytes_written = ex.bytes_written;
  res.elapsed_ns = ex.elapsed_ns;
  return std::move(st.res);
}

}  // namespace disktune::tune
