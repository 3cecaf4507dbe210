// The bench runner: expands scenario and set names into steps, runs them on
// each engine (each repetition from a fresh database), and measures each step
// from outside the scenario body: CPU time, peak RSS, device bytes written,
// DB size on disk, the engine's own statistics.
//
// Library code: nothing is printed; db_bench-style lines go to `progress`.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engines/engine.h"
#include "src/bench/params.h"
#include "src/bench/scenario.h"
#include "src/core/status.h"
#include "src/model/bench_result.h"

namespace disktune::bench {

using EngineFactory =
    std::function<Result<std::unique_ptr<Engine>>(std::string_view id)>;
using LineSink = std::function<void(std::string_view line)>;

struct BenchRequest {
  // Engine ids, or "all" for every available engine.
  std::vector<std::string> engines;
  // Scenario or set names; each item may itself be a comma-separated list.
  std::vector<std::string> scenarios;
  // What the user typed explicitly; wins over set values.
  Overrides user;
  bool quick = false;
  int repeat = 1;
  // Scratch directory; engine X's database lives in db_root/X. In the tool
  // it is ScratchDir::HandlePath() (engines open by name: the handle keeps
  // that name from being steered; DESIGN.md, safety rules), and
  // `db_root_shown` is what headers and messages print instead.
  std::string db_root;
  std::string db_root_shown;
  // AvailableEngines() and NewEngine in production; fakes in tests.
  std::vector<EngineInfo> available;
  EngineFactory factory;
  // The results as db_bench prints them: each engine's header and each
  // step's line (with repeat > 1, its median). Unset: they go to progress.
  LineSink results;
  // Everything else: which repetition is running, and with repeat > 1
  // each run's own line.
  LineSink progress;
  // A step starts: its label ("leveldb fillseq"), its index of `total`
  // (engines x repetitions x steps) and the time left from the plan
  // (bench_clock.h), for a progress line. May be empty.
  std::function<void(const std::string& label, int index, int total,
                     uint64_t remaining_ns)>
      step_line;
  // Called before and after each step that runs (a throttled run notes in
  // each result what escaped the throttle during it).
  std::function<void()> step_started;
  std::function<void(BenchResult*)> step_finished;
};

struct PlannedStep {
  const ScenarioSpec* spec = nullptr;
  std::string set;
  BenchParams params;
};

struct BenchPlan {
  std::vector<std::string> engines;
  std::vector<PlannedStep> steps;
};

// Validates the request and expands it. InvalidArgument for an unknown
// engine, scenario or set (listing the valid ones), an engine not built in,
// and bad counts or sizes.
Result<BenchPlan> PlanBench(const BenchRequest& request);

// Runs the plan. Returns InvalidArgument (nothing run) for a bad request;
// otherwise one result per engine and step, whose status says ok / partial /
// failed / skipped. After SIGINT the results so far are returned, the
// interrupted one marked partial.
Result<std::vector<BenchResult>> RunBench(const BenchRequest& request);

}  // namespace disktune::bench
