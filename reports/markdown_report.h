// The Markdown report, for a pull request that checks in a profile: the
// machine and disk in a few lines, the gate checks, the recommendation, the
// benchmarks and the disk's figures as GitHub tables, the long sync table
// folded in <details>.
#pragma once

#include <string>

#include "src/model/report.h"

namespace disktune {

std::string RenderMarkdown(const Report& report);

}  // namespace disktune
