// Runs a few probes by id the way `disktune probe` does, for the tests that
// check what the probes measure and analyse.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "probes/probe.h"
#include "probes/probe_runner.h"
#include "src/core/progress.h"
#include "src/core/scratch_dir.h"

namespace disktune::testing {

// Runs the probes `ids` with `c` in `scratch` on `env`; the test fails where
// they cannot be selected or do not run.
inline ProbeRunOutput RunProbeIds(const std::vector<std::string>& ids,
                                  const ProbeConfig& c, ScratchDir& scratch,
                                  const Environment& env) {
  ProbeRunOutput out;
  auto probes = SelectProbes(ids);
  EXPECT_TRUE(probes.ok()) << probes.status().ToString();
  if (!probes.ok()) return out;
  NullProgress np;
  Status s = RunProbes(*probes, c, scratch, env, &np, &out);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return out;
}

}  // namespace disktune::testing
