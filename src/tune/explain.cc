// The verdict, the plan and the lines the terminal shows: the tuner's last
// phase.
//
// Here rather than in reports/: RunTuner calls it, and the lines come from
// the tuner's own types (the phases' outcomes, the engine model's defaults
// and write buffers held, knob value text), so rendering them in reports/
// would need reports/ to link the tuner, which layering.cmake forbids
// (reports/ links src/model and src/core only). The reports render the
// explanation from the tune result's JSON, as they render everything else.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "src/core/units.h"
#include "src/tune/phases.h"
#include "src/tune/tune_context.h"

namespace disktune::tune::phases {
namespace {

// The block cache's line: what the budget leaves after the write buffers
// and index/filter blocks, or, when the cache rule capped it below that
// (a workload that does not read, or a working set that fits), the cap and
// the part of the budget left unused. Capped means smaller than the split
// without a cap would have made it.
std::string CacheLine(const TuneContext& ctx, const Judgement& judged) {
  // No split: the recommendation's (the baseline's) overran the budget.
  const MemorySplit m = judged.memory.value_or(MemorySplit{});
  const TuneConfig& rec = judged.recommendation;
  std::string held =
      std::to_string(WriteBuffersHeld(ctx.run.model, rec)) + " x " +
      FormatBytes(static_cast<double>(rec.write_buffer_bytes())) + " = " +
      FormatBytes(static_cast<double>(m.write_buffers_bytes)) +
      " of write buffers and " +
      FormatBytes(static_cast<double>(m.table_memory_bytes)) +
      " of index/filter blocks";
  std::string line = FormatBytes(static_cast<double>(m.cache_bytes));
  const uint64_t budget = ctx.run.req.memory_budget_bytes;
  if (m.cache_bytes < m.cache_room_bytes && m.total_bytes() < budget) {
    return line + " (capped by the cache rule; with " + held + ", " +
           FormatBytes(static_cast<double>(budget - m.total_bytes())) +
           " of the budget stays unused)";
  }
  return line + " (what the budget leaves after " + held + ")";
}

// A tune that ends well inside its budget says so, and what it did not
// try: candidates the search left out or dropped on copies smaller than the
// full size, and an A/B on a copy.
constexpr double kEarlyShare = 0.8;
void NoteWhatWasNotTried(const TuneContext& ctx,
                         const SearchPhaseResult& searched, Explanation* out) {
  const SearchOutcome& search = searched.search;
  const double used = ctx.run.budget.UsedNs();
  const uint64_t time_budget_ns = ctx.run.req.time_budget_ns;
  if (used >= kEarlyShare * static_cast<double>(time_budget_ns)) return;
  std::vector<std::string> untried;
  const size_t considered = static_cast<size_t>(search.candidates);
  if (considered > 0 && considered < searched.candidates.size()) {
    untried.push_back(std::to_string(searched.candidates.size() - considered) +
                      " candidates the search left out");
  }
  double top = 0;
  for (const Rung& r : search.rungs) top = std::max(top, r.scale);
  size_t dropped_small = 0;
  double dropped_at = 0;
  for (size_t i = 0; i + 1 < search.rungs.size(); i++) {
    const Rung& r = search.rungs[i];
    if (r.scale >= 1.0) continue;
    dropped_small +=
        r.candidates.size() - search.rungs[i + 1].candidates.size();
    dropped_at = std::max(dropped_at, r.scale);
  }
  if (dropped_small > 0) {
    untried.push_back(std::to_string(dropped_small) +
                      " candidates dropped on copies at scale <= " +
                      Fixed(dropped_at, 3) + ", never run at full size");
  }
  if (top > 0 && top < 1.0) {
    untried.push_back("no search trial at full size (largest scale " +
                      Fixed(top, 3) + ")");
  }
  if (out->verification && out->verification->scale < 1.0) {
    untried.push_back("the A/B on a copy at scale " +
                      Fixed(out->verification->scale, 3) +
                      ", not at full size");
  }
  out->notes.push_back(
      "finished in " + FormatDuration(used) + " of the " +
      FormatDuration(static_cast<double>(time_budget_ns)) + " budget; " +
      (untried.empty() ? std::string("nothing planned was left untried")
                       : "not tried: " + Join(untried, "; ")));
}

// Which candidates were measured at what scales, and which were left out
// and why (the model's ranking is recorded in RankByModel).
void StatePlan(const TuneContext& ctx, const SearchPhaseResult& searched,
               const TuneConfig& candidate, Explanation* out) {
  const SetupOutcome& setup = ctx.setup;
  const SearchOutcome& search = searched.search;
  const std::vector<TuneConfig>& ranked = searched.candidates;
  auto left_out_already = [&](const std::string& text) {
    auto named = [&](const PlanEntry& e) { return e.candidate == text; };
    return std::any_of(setup.left_out.begin(), setup.left_out.end(), named) ||
           std::any_of(out->left_out.begin(), out->left_out.end(), named);
  };
  const size_t considered = static_cast<size_t>(search.candidates);
  for (const auto& [c, predicted] : setup.predicted) {
    const std::string text = ConfigText(c);
    auto it = std::find(ranked.begin(), ranked.end(), c);
    if (left_out_already(text)) continue;
    PlanEntry e;
    e.candidate = text;
    e.predicted_ops_per_sec = predicted;
    if (it == ranked.end()) {
      e.reason =
          "its knobs that shape the LSM were not ranked: a copy the "
          "budget affords cannot show them, or the rules' value was taken "
          "(see the notes and unjudged)";
      out->left_out.push_back(std::move(e));
      continue;
    }
    const size_t i = static_cast<size_t>(it - ranked.begin());
    for (const Rung& r : search.rungs) {
      if (std::find(r.candidates.begin(), r.candidates.end(), i) !=
          r.candidates.end()) {
        e.scales.push_back(r.scale);
      }
    }
    if (e.scales.empty()) {
      e.reason = considered > 0 && i >= considered
                     ? "the time budget left it out (the rules' least "
                       "preferred go first)"
                     : "not run";
      out->left_out.push_back(std::move(e));
    } else {
      out->measured.push_back(std::move(e));
    }
  }
  if (out->verification) {
    PlanEntry ab;
    ab.candidate = "A/B: " + ConfigText(candidate);
    ab.scales = {out->verification->scale};
    out->measured.push_back(std::move(ab));
  }
  const size_t measured = out->measured.size();
  const size_t left_out = setup.left_out.size() + out->left_out.size();
  out->lines.push_back(
      "Plan: " + std::to_string(measured) + " measured (" +
      std::to_string(search.trials) + " search trials), " +
      std::to_string(left_out) + " left out" +
      (left_out == 0 ? "" : " (plan.left_out in the JSON says why)") +
      "; ranking by the " + setup.ranking_model);
}

}  // namespace

Explanation Explain(const TuneContext& ctx, const SearchPhaseResult& searched,
                    const KnobCheckOutcome& check,
                    const VerifyOutcome& verified, const Judgement& judged) {
  const TuneRun& run = ctx.run;
  const SetupOutcome& setup = ctx.setup;
  Explanation out;
  const Workload& w = setup.workload;
  const bool significant = judged.significant;
  Verification v = verified.v;
  if (check.changed.empty()) {
    // The search verifies its best alternative whenever it ran one, so
    // here no candidate but the defaults was measured.
    out.verdict =
        "nothing changes: the search had no alternative to the defaults to "
        "measure (" +
        std::to_string(searched.candidates.size()) + " candidate(s), " +
        std::to_string(searched.search.trials) + " search trial(s))";
  } else if (verified.nothing_kept && !verified.unfaithful.empty()) {
    out.verdict =
        "keep the defaults: the budget cannot afford a copy of the workload "
        "that shows what the search's winner changes (" +
        UnjudgedText(AllUnjudged(searched, verified).back()) + ")";
  } else if (verified.nothing_kept) {
    out.verdict =
        "no changed knob showed a gain of its own (leave-one-out and each "
        "knob's own A/B): keep the defaults";
  } else if (significant) {
    out.verdict = GainText(v.gain) +
                  " the baseline's throughput (median, "
                  "95% interval), " +
                  std::to_string(v.gain.repeats) + " interleaved repeats each";
  } else {
    out.verdict = "no significant gain over the defaults (" + GainText(v.gain) +
                  (v.gain.ci95_high < 1.0 ? ": the candidate was slower"
                                          : "; the interval reaches 1") +
                  "): keep the defaults";
  }
  if (w.target_writes_per_sec && !v.candidate_ops_per_sec.empty()) {
    std::vector<double> xs =
        significant ? v.candidate_ops_per_sec : v.baseline_ops_per_sec;
    std::sort(xs.begin(), xs.end());
    v.target_met = xs[xs.size() / 2] >= *w.target_writes_per_sec;
    out.verdict += *v.target_met ? "; the target write rate is met"
                                 : "; the target write rate is NOT met";
  }
  if (!check.changed.empty() && !verified.nothing_kept) out.verification = v;

  auto& ex = out.lines;
  ex.push_back(
      run.req.engine + " for " + w.name + ": " +
      FormatBytes(static_cast<double>(run.req.memory_budget_bytes)) +
      " budget, " + Thousands(w.num) + " keys (" +
      FormatBytes(static_cast<double>(setup.shape.user_bytes())) + " of data)" +
      (out.verification
           ? ", verified on a " + Fixed(verified.ab_scale, 3) + " scale copy"
           : ""));
  for (const KnobEvidence& e : judged.knobs) {
    char line[512];
    std::string value = KnobValueText(judged.recommendation, e.knob);
    // The baseline's value where the budget changed the engine's default
    // (RocksDB's 64 MiB write buffer shrunk to fit), so the line never
    // shows a kept default that differs from the value beside it.
    std::string def = KnobValueText(run.model.defaults, e.knob);
    if (KnobValueText(setup.baseline, e.knob) != def) {
      def += ", " + KnobValueText(setup.baseline, e.knob) + " in this budget";
    }
    std::string status = model::KnobOutcomeName(e.outcome);
    if (e.gain) status += " " + GainText(*e.gain);
    std::snprintf(line, sizeof(line), "  %-20s %-14s (default %s)  %s",
                  KnobName(e.knob), value.c_str(), def.c_str(), status.c_str());
    ex.push_back(line);
    if (!e.reason.empty()) ex.push_back("      " + e.reason);
  }
  ex.push_back("  block cache          " + CacheLine(ctx, judged));
  ex.push_back("Baseline: " + setup.baseline_definition);
  ex.push_back("Verdict: " + out.verdict);
  if (run.bytes_readable) out.bytes_written = run.budget.BytesWritten();
  if (run.budget.WritesBind()) {
    out.notes.push_back(
        "the write budget (" +
        FormatBytes(static_cast<double>(run.req.write_budget_bytes)) +
        ") bound the plan before the time budget did: trials were sized by "
        "what they write");
  }
  out.elapsed_ns = run.now_ns() - run.start_ns;
  NoteWhatWasNotTried(ctx, searched, &out);
  StatePlan(ctx, searched, verified.candidate, &out);
  return out;
}

}  // namespace disktune::tune::phases
