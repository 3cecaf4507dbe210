// The HTML report: one self-contained file (inline CSS and SVG, no scripts,
// no external assets, so it opens offline and can be mailed or archived) in
// the spirit of the 2011 LevelDB benchmark page: the setup in prose, then a bar
// chart per scenario across engines, then the disk's pictures (4 KiB vs 1 MiB
// sequential reads, IOPS and latency against queue depth, fsync methods with
// p50 and p99, write cache on vs off, the filesystem matrix), the durability
// verdicts, the tuner's recommendation with its evidence, and every figure in
// tables.
#pragma once

#include <string>

#include "src/model/report.h"

namespace disktune {

std::string RenderHtml(const Report& report);

}  // namespace disktune
