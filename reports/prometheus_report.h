// The Prometheus rendering: a node_exporter textfile-collector file
// (text exposition format 0.0.4), so a fleet's disks can be graphed and
// alerted on. Names carry units (_seconds, _bytes, _per_second); labels:
// device, probe and name for probe points, engine, scenario and step for
// benches. No timestamps: the collector stamps the scrape; the report's own
// time is disktune_report_timestamp_seconds.
#pragma once

#include <string>

#include "src/model/report.h"

namespace disktune {

std::string RenderPrometheus(const Report& report);

// Escapes a label value: backslash, double quote and newline.
std::string PrometheusLabelValue(std::string_view v);

}  // namespace disktune
