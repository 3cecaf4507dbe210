// Every file a command will write outside its scratch directory, sidecars
// included (tune's engine forms beside --out, run's reports and profile in
// --out, --json), checked together before anything is measured, so a name
// taken by a file disktune did not write costs one line and exit 2, not an
// hour of measuring and a half-written set of outputs.
#pragma once

#include <string>
#include <vector>

#include "src/core/status.h"

namespace disktune::cli {

struct OutputTarget {
  std::string path;
  std::string flag;  // the option that named it, for messages ("--out")
};

// OK when every target could be written now (CheckOutputFile) and no two
// name the same file; otherwise the first problem, naming the file.
Status CheckOutputPlan(const std::vector<OutputTarget>& targets);

}  // namespace disktune::cli
