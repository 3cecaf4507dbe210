// The report's lines for the analyses' "throttle_by_probe": each probe
// family's share of a throttled run's bytes, and the test file's fill, in
// the words every format shows.
#pragma once

#include <string>

#include "src/model/analysis_throttle_by_probe.h"
#include "src/model/throttle_accounting.h"

namespace disktune {

// "throttle, <probe> (<n> points): <bytes> reached the device, <bytes>
// through the throttle, <bytes> around it (<share> escaped)".
std::string ProbeAccountingLine(const ProbeAccounting& p);
// "throttle, test file fill: <bytes> reached the device, ...".
std::string FillAccountingLine(const ThrottleAccounting& a);

}  // namespace disktune
