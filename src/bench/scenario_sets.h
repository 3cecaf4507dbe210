// Named scenario sets: the seed documents' experiments as data
// (the 2011 LevelDB page, the UTXO pulse study, the LMDB/BDB microbench and
// HyperLevelDB's charts) plus YCSB's core workloads. A set is a list of steps,
// each a scenario with optional overrides, and overrides for the whole set (the
// 2011 baseline's 4 MB cache). The user's explicit flags win over a set's
// values; the set's scales (large values: writes/1000) apply on top of whatever
// num the user chose.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "src/bench/params.h"

namespace disktune::bench {

struct SetStep {
  std::string_view scenario;
  Overrides overrides;
};

struct ScenarioSet {
  std::string_view name;
  std::string_view help;
  Overrides overrides;
  std::vector<SetStep> steps;
};

std::span<const ScenarioSet> ScenarioSets();
const ScenarioSet* FindScenarioSet(std::string_view name);
std::string ScenarioSetNames();

}  // namespace disktune::bench
