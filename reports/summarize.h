// Computes a report's Summary (src/model/summary.h) from its figures, and
// renders it as the first screen of each format.
#pragma once

#include <string>
#include <string_view>

#include "src/core/status.h"
#include "src/model/report.h"
#include "src/model/summary.h"

namespace disktune {

// InvalidArgument naming the valid services for an unknown one; "" is the
// default (the engine the report ran).
Status ValidateService(std::string_view service);

// The summary for `service` ("" = the default). REQUIRES: a valid service.
Summary Summarize(const Report& report, std::string_view service);
// The report's stored summary, else Summarize(report, "").
Summary SummaryOf(const Report& report);

// A durability rule id ("cache_absorbs_flushes") in words, for every format.
std::string DurabilityTitle(const std::string& id);

// "fdatasync alone p99 on fsync.fdatasync.2300.prealloc" for a named check's
// measurement ("<point> metrics.sync_latency_ns.p99").
std::string CheckMeasurementText(const std::string& measurement);

// At most eight lines, each ending in '\n': the verdict, its gates (up to
// three), durability, bound, what to set, conditions.
std::string SummaryText(const Summary& s);
// The same as a Markdown section and an HTML section (escaped).
std::string SummaryMarkdown(const Summary& s);
std::string SummaryHtml(const Summary& s);

}  // namespace disktune
