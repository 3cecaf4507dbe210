// The terminal rendering of a report: a header naming the machine and the
// disk, aligned probe tables, the analyses and the warnings.
#pragma once

#include <string>

#include "src/model/report.h"

namespace disktune {

std::string RenderText(const Report& report);

}  // namespace disktune
