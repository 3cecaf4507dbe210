// Puts the build of each engine library a command ran on into the report's
// environment block, and a warning for a build with assertions on.
#pragma once

#include <string>
#include <vector>

#include "src/model/report.h"

namespace disktune {

void RecordEngineLibraries(const std::vector<std::string>& engines,
                           Report* report);

}  // namespace disktune
