// Runs a benchmarks/<engine>_direct_loop.cc inside another program's process
// image. `bench_fidelity.sh --in-image` compiles the loop (its main renamed
// direct_loop_main) with this file into a shared object and loads it into
// disktune with LD_PRELOAD; the constructor below runs the loop before
// disktune's own main() and exits with the loop's status. Both sides then run
// in one executable image, with the same libraries mapped in the same order,
// so what still differs between them is disktune's harness (and its own
// allocations), not where the loader happened to put things.
//
// Why: LevelDB's overwrite at 1M keys moves by ~5% with the layout of the
// process alone. The same direct loop ran as slowly as disktune when loaded
// into disktune's image, ~5% slower when linked with libkyotocabinet, and ~4%
// faster with that library preloaded instead (benchmarks/README.md).
//
// Environment: DIRECT_LOOP_ARGS="DB_DIR NUM [READSEQ_PASSES]". Both it and
// LD_PRELOAD are removed before the loop starts, so a child the loop runs
// (a shell for rm -rf) does not run the loop again.
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

int direct_loop_main(int argc, char** argv);

namespace {

__attribute__((constructor)) void RunDirectLoop() {
  const char* spec = std::getenv("DIRECT_LOOP_ARGS");
  if (spec == nullptr) return;
  std::istringstream in(spec);
  std::vector<std::string> args{"direct_loop"};
  for (std::string a; in >> a;) args.push_back(a);
  unsetenv("DIRECT_LOOP_ARGS");
  unsetenv("LD_PRELOAD");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int rc = direct_loop_main(static_cast<int>(args.size()), argv.data());
  std::fflush(stdout);
  std::exit(rc);
}

}  // namespace
