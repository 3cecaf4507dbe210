// The fleet view as text (a table per device-model group, its medians, then
// the outliers with the rule), as a Prometheus textfile (one sample per host
// and figure, labelled host and group) and as a self-contained HTML page (one
// strip chart per figure, hosts as points, outliers labelled).
#pragma once

#include <string>

#include "reports/fleet.h"

namespace disktune {

std::string FleetText(const FleetReport& fleet);
std::string FleetPrometheus(const FleetReport& fleet);
std::string FleetHtml(const FleetReport& fleet);

}  // namespace disktune
