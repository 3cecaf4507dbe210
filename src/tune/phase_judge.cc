// Judge: each knob's outcome and the recommendation's memory split.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "src/core/units.h"
#include "src/tune/phases.h"
#include "src/tune/tune_context.h"

namespace disktune::tune::phases {
namespace {

using model::KnobOutcome;

const RuleRecord* FindRecord(const std::vector<RuleRecord>& rules,
                             const std::string& knob) {
  for (const RuleRecord& r : rules) {
    if (r.knob == knob) return &r;
  }
  return nullptr;
}

// The unjudged shape that names knob k, if any.
const UnjudgedShape* UnjudgedFor(const std::vector<UnjudgedShape>& unjudged,
                                 Knob k) {
  const std::string name = std::string(KnobName(k)) + " ";
  for (const UnjudgedShape& u : unjudged) {
    if (u.knobs.starts_with(name) ||
        u.knobs.find(", " + name) != std::string::npos) {
      return &u;
    }
  }
  return nullptr;
}

// The evidence for check.changed[i], the knob the winner changed, with the
// A/B's outcome (`significant`) and the rule's decision.
KnobEvidence ChangedKnobEvidence(const TuneContext& ctx,
                                 const ShapeGuard& shape,
                                 const KnobCheckOutcome& check,
                                 const VerifyOutcome& verified,
                                 bool significant, size_t i,
                                 const std::string& rule) {
  KnobEvidence e;
  e.knob = check.changed[i];
  const Knob k = e.knob;
  const std::vector<Knob>& changed = check.changed;
  const KnobTrial& t = check.knob_trials[i];
  const KnobProof proof = check.proofs[i];
  e.evidence = proof;
  if (changed.size() == 1 && proof != KnobProof::kNone) {
    e.gain = verified.v.gain;
  } else if (proof == KnobProof::kOwnAb ||
             (proof == KnobProof::kNone && t.alone)) {
    e.gain = t.alone;
  } else {
    e.gain = t.leave_one_out;
  }
  if (proof == KnobProof::kNone) {
    e.outcome = KnobOutcome::kNoGain;
    if (t.alone && t.alone->significant()) {
      e.reason =
          "it won alone, but a knob with a larger gain alone was kept "
          "and nothing measured shows this one adds to it, so the "
          "default stays";
    } else if (t.alone) {
      e.reason =
          "neither removing it from the search's winner nor its own "
          "A/B against the defaults showed a gain, so the default stays";
    } else {
      e.reason =
          "reverting it did not measurably cost throughput, so the "
          "default stays";
    }
  } else if (!significant) {
    // The gain shown is the knob's own (leave-one-out on the knob
    // check's copies, or its own A/B); the A/B of the whole
    // recommendation decides.
    e.outcome = KnobOutcome::kNoGain;
    const std::string won = proof == KnobProof::kOwnAb
                                ? "it won its own A/B against the defaults"
                                : "it won leave-one-out on the knob check's "
                                  "copies";
    e.reason = e.gain && e.gain->significant()
                   ? won + ", but the A/B of the whole recommendation (scale " +
                         Fixed(verified.ab_scale, 3) +
                         ") showed no significant gain, so the default stays"
                   : "the A/B showed no significant gain over the "
                     "defaults, so the default stays";
  } else if (proof == KnobProof::kRule) {
    e.outcome = KnobOutcome::kRule;
    e.reason = Guarded(ctx, k) && shape.deep_scale > 0
                   ? std::string(shape.shape_on_rule
                                     ? "taken from the rule and judged by the "
                                       "A/B: the search's trials"
                                     : "judged by the A/B: the knob check's "
                                       "copies") +
                         " are not faithful for it (their data within the "
                         "memtables and cache, or fewer LSM levels than the "
                         "full size's), and only from scale " +
                         Fixed(shape.deep_scale, 3) +
                         " does its effect on the LSM show; the A/B ran at " +
                         Fixed(verified.ab_scale, 3) + "; " + rule
                   : "kept on the rule: the scaled trial has too few tables to "
                     "show the effect; " +
                         rule;
  } else if (proof == KnobProof::kLeaveOneOut) {
    e.outcome = KnobOutcome::kWon;
    e.reason =
        "leave-one-out: the recommendation without it was "
        "measurably slower; " +
        rule;
  } else {
    e.outcome = KnobOutcome::kWon;
    e.reason = "its own A/B against the defaults won; " + rule;
  }
  return e;
}

}  // namespace

Judgement Judge(const TuneContext& ctx, const SearchPhaseResult& searched,
                const KnobCheckOutcome& check, const VerifyOutcome& verified) {
  const SetupOutcome& setup = ctx.setup;
  const std::string& engine = ctx.run.req.engine;
  const std::vector<UnjudgedShape> unjudged_shapes =
      AllUnjudged(searched, verified);
  const std::vector<Knob>& changed = check.changed;
  Judgement out;
  bool& significant = out.significant;
  significant = verified.significant;
  out.recommendation = significant ? verified.candidate : setup.baseline;
  for (Knob k : AllKnobs()) {
    // A knob the engine has no such option for (RocksDB's own, for
    // LevelDB) has no outcome to state.
    if (k.spec != nullptr && !KnobDefault(*k.spec, engine)) continue;
    KnobEvidence e;
    e.knob = k;
    const RuleRecord* rec = FindRecord(setup.rules, KnobName(k));
    std::string rule = rec ? rec->decision : "";
    auto it = std::find(changed.begin(), changed.end(), k);
    const UnjudgedShape* unjudged = UnjudgedFor(unjudged_shapes, k);
    const bool put_back =
        std::find(verified.unfaithful.begin(), verified.unfaithful.end(), k) !=
        verified.unfaithful.end();
    if (put_back || (it == changed.end() && unjudged != nullptr &&
                     !KnobDiffers(out.recommendation, setup.baseline, k))) {
      e.outcome = KnobOutcome::kDefault;
      e.reason = "not judged: " + UnjudgedText(*unjudged) +
                 ", so the default stays; rule: " + rule;
    } else if (it == changed.end()) {
      e.outcome = KnobOutcome::kDefault;
      bool tried = rec != nullptr && rec->candidates.size() > 1;
      e.reason = tried ? "the search kept the default; rule: " + rule : rule;
    } else {
      e = ChangedKnobEvidence(ctx, searched.shape, check, verified, significant,
                              static_cast<size_t>(it - changed.begin()), rule);
    }
    out.knobs.push_back(e);
  }
  auto split = SplitBudget(ctx.run.model, ctx.run.req.memory_budget_bytes,
                           setup.shape, out.recommendation, std::nullopt);
  if (!split.ok() ||
      out.recommendation.cache_bytes() > split->cache_room_bytes) {
    // A subset of the winner's knobs can need more index memory than the
    // winner did (a smaller block again): never emit what overruns.
    out.notes.push_back("the measured recommendation (" +
                        ConfigText(out.recommendation) +
                        ") would overrun the memory budget; the defaults "
                        "stay");
    out.recommendation = setup.baseline;
    significant = false;
    for (KnobEvidence& e : out.knobs) {
      if (e.outcome == KnobOutcome::kWon || e.outcome == KnobOutcome::kRule)
        e.outcome = KnobOutcome::kNoGain;
    }
  }
  // A recommended knob names the facts its rule read, the model's
  // prediction for the recommendation, and the A/B that decided it.
  std::optional<double> predicted;
  for (const auto& [c, p] : setup.predicted) {
    if (SameKnobs(c, out.recommendation)) predicted = p;
  }
  for (KnobEvidence& e : out.knobs) {
    if (e.outcome != KnobOutcome::kWon && e.outcome != KnobOutcome::kRule)
      continue;
    const RuleRecord* rec = FindRecord(setup.rules, KnobName(e.knob));
    if (rec != nullptr) e.reason += " (facts: " + rec->fact + ")";
    if (predicted) {
      e.reason += "; the " + setup.ranking_model + " predicted " +
                  Thousands(static_cast<uint64_t>(*predicted)) + " ops/s";
    }
    e.reason += "; decided by the A/B at scale " + Fixed(verified.ab_scale, 3) +
                ", " + std::to_string(verified.v.gain.repeats) + " pairs, " +
                GainText(verified.v.gain);
  }
  // The split of the cache as recommended (a capped cache holds the
  // overhead of its own capacity, not of the room it left).
  split =
      SplitBudget(ctx.run.model, ctx.run.req.memory_budget_bytes, setup.shape,
                  out.recommendation, out.recommendation.cache_bytes());
  if (split.ok()) out.memory = *split;
  return out;
}

}  // namespace disktune::tune::phases
