// What the fsync probe's figures mean for durability: the rules, in the
// order they are tried, from a scope's evidence (did syncs reach the device?
// does a cache absorb them?) to its verdict. Every rule is data and is copied
// into the report next to the verdict it produced.
#pragma once

#include <vector>

#include "src/model/analysis_durability.h"

namespace disktune {

struct DurabilityRule {
  const char* id;
  const char* rule;  // the condition and what it means, in words
};
// In the order they are tried; the first that holds is the verdict.
const std::vector<DurabilityRule>& DurabilityRules();

DurabilityVerdict JudgeDurability(const DurabilityEvidence& e);

}  // namespace disktune
