// Tune summaries for tests: one with every optional member set and every
// list non-empty (all the struct can write), one with nothing optional.
#pragma once

#include "src/model/tune_summary.h"

namespace disktune::model {

inline GainFigure AGain() {
  return {.median = 1.5, .ci95_low = 1.2, .ci95_high = 1.8, .repeats = 5};
}

// Every optional set and every list non-empty: all the struct can write.
inline TuneSummary FullTuneSummary() {
  TuneSummary t;
  t.tool_version = "0.1.0";
  t.created_at = "2026-11-27T21:00:00Z";
  t.engine = "leveldb";
  t.workload = "write-heavy";
  t.memory_budget_bytes = 128 << 20;
  t.data_size_bytes = 1 << 20;
  t.time_budget_ns = 600'000'000'000ULL;
  t.elapsed_ns = 37'000'000'000ULL;
  t.write_budget_bytes = 1ULL << 30;
  t.bytes_written = 1ULL << 29;
  t.quick = false;
  t.verdict = "1.50x [1.20x, 1.80x] the baseline's throughput";
  TuneRecommendation& r = t.recommendation;
  r.engine_options = {{"write_buffer_bytes", 64 << 20},
                      {"compression", "snappy"}};
  for (KnobOutcome o :
       {KnobOutcome::kDefault, KnobOutcome::kWon, KnobOutcome::kNoGain,
        KnobOutcome::kRule, KnobOutcome::kBudget, KnobOutcome::kSet}) {
    TunedOption op{.knob = "write_buffer_bytes",
                   .name = "write buffer",
                   .value = 64 << 20,
                   .value_text = "64 MiB",
                   .default_value = nlohmann::json(4 << 20),
                   .changed = true,
                   .outcome = o,
                   .reason = "fewer level-0 files",
                   .evidence = KnobProof::kLeaveOneOut,
                   .gain = AGain()};
    r.options.push_back(op);
  }
  r.options.back().value = "snappy";
  r.options.back().default_value = nlohmann::json(true);
  r.entries_per_batch = 8;
  r.changed = {"write_buffer_bytes"};
  r.memory = {.write_buffers_bytes = 128 << 20,
              .table_memory_bytes = 1 << 20,
              .cache_bytes = 32 << 20,
              .total_bytes = 161 << 20};
  r.explanation = {"leveldb for write-heavy"};
  TuneEvidence& e = t.evidence.emplace();
  for (KnobProof p :
       {KnobProof::kLeaveOneOut, KnobProof::kOwnAb, KnobProof::kRule}) {
    e.knobs.push_back({.knob = "write_buffer_bytes",
                       .default_value = 4 << 20,
                       .searched = 64 << 20,
                       .recommended = 64 << 20,
                       .outcome = KnobOutcome::kWon,
                       .reason = "won",
                       .evidence = p,
                       .gain = AGain()});
  }
  e.verification = VerificationSummary{.compared = "recommendation",
                                       .scale = 0.5,
                                       .num = 500000,
                                       .trial_cache_bytes = 8 << 20,
                                       .candidate_copy = "0.5 scale copy",
                                       .baseline_copy = "0.5 scale copy",
                                       .faithful = true,
                                       .order = "interleaved",
                                       .baseline_ops_per_sec = {1.0, 2.0},
                                       .candidate_ops_per_sec = {3.0, 4.0},
                                       .gain = AGain(),
                                       .significant = true,
                                       .target_writes_per_sec = 1000.0,
                                       .target_met = true};
  e.search = SearchSummary{
      .method = "successive_halving",
      .eta = 3,
      .candidates = 12,
      .trials = 21,
      .elapsed_ns = 21'000'000'000ULL,
      .truncated = false,
      .rungs = nlohmann::json::array({{{"scale", 0.1},
                                       {"num", 100000},
                                       {"candidates", 12},
                                       {"best_ops_per_sec", 350000.0},
                                       {"best", "wb 64 MiB"}}}),
      .tie = nlohmann::json{{"leader", "wb 64 MiB"},
                            {"preferred", "defaults"},
                            {"scale", 0.25},
                            {"gain", GainFigureToJson(AGain())},
                            {"leader_won", false},
                            {"preferred_for", "rules"}},
      .winner = "wb 64 MiB",
      .winner_engine_options =
          nlohmann::json{{"write_buffer_bytes", 64 << 20}}};
  e.notes = {"a note"};
  return t;
}

// Nothing optional set.
inline TuneSummary MinimalTuneSummary() {
  TuneSummary t;
  t.engine = "rocksdb";
  t.workload = "mixed";
  t.verdict = "defaults";
  return t;
}

}  // namespace disktune::model
